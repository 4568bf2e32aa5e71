/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* export-internal.h - what export.c (the atomic file, the table of
   formats) and the export-*.c writers share.  Private to lib/profile. */
#ifndef PROFILE_EXPORT_INTERNAL_H
#define PROFILE_EXPORT_INTERNAL_H

#include <stdio.h>

#include "profile/export.h"

/*
 * A writer: s as its format on f.  Returns 0, or -1 with errno (ENOMEM);
 * write errors on f are the caller's to find (ferror).
 */
typedef int (*export_writer)(FILE *f, struct stacks *s,
			     const struct export_meta *m);

int export_folded(FILE *f, struct stacks *s, const struct export_meta *m);
int export_svg(FILE *f, struct stacks *s, const struct export_meta *m);
int export_speedscope(FILE *f, struct stacks *s, const struct export_meta *m);
int export_pprof(FILE *f, struct stacks *s, const struct export_meta *m);

/*
 * src through an escaper of base/escape.h (esc_json, esc_xml, ...) onto
 * f.  Returns 0, or -1 with errno ENOMEM.
 */
int export_put_esc(FILE *f, const char *src,
		   size_t (*esc)(char *dst, size_t size, const char *src));

/* Whether the event counts nanoseconds (cpu-clock, task-clock), and its
   name for a unit ("nanoseconds" or "events"). */
bool export_time_event(const struct export_meta *m);

/*
 * What the stacks' counts are, for a label: NULL when they count samples;
 * with m->ns_weights (nanoseconds), "wall-clock" when some stack is
 * on-CPU time (a time event's samples beside the off-CPU spans), else
 * "off-cpu".
 */
const char *export_ns_measure(struct stacks *s, const struct export_meta *m);

/* ns written for a reader, in the unit that fits ("12.3 ms"). */
void export_put_ns(FILE *f, uint64_t ns);

/* Whether fn is the leaf of off-CPU stacks (offcpu.h's OFFCPU_LEAF), and
   whether st is such a stack. */
bool export_func_offcpu(const struct stk_func *fn);
bool export_stack_offcpu(const struct stacks *s, const struct stk_stack *st);

#endif
