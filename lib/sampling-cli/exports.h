/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exports.h - the export options every sampling tool takes (--folded,
 * --flamegraph, --pprof, --speedscope), checked before sampling and
 * written at the end, with one-line messages.  For tools only: these
 * print, and exports_check() exits.
 */
#ifndef SAMPLING_CLI_EXPORTS_H
#define SAMPLING_CLI_EXPORTS_H

#include <stdbool.h>

#include "base/opts.h"
#include "profile/export.h"

struct exports {
	const char *path[EXPORT_FORMAT_MAX];	/* NULL: not asked */
};

/*
 * The option rows, for a tool's struct opt_def table; each row's id is
 * base + its enum export_format.
 */
#define EXPORT_OPT_ROWS(base) \
	{ "folded", 0, (base) + EXPORT_FOLDED, "FILE", \
	  "write folded stacks (FlameGraph, inferno) to FILE" }, \
	{ "flamegraph", 0, (base) + EXPORT_SVG, "FILE", \
	  "write an SVG flame graph to FILE" }, \
	{ "pprof", 0, (base) + EXPORT_PPROF, "FILE", \
	  "write a gzipped pprof profile to FILE" }, \
	{ "speedscope", 0, (base) + EXPORT_SPEEDSCOPE, "FILE", \
	  "write a speedscope profile (JSON) to FILE" }

/* getopt returned id: take it when it is an export row.  Returns
   whether it was one. */
bool exports_option(struct exports *e, int id, int base, const char *arg);

/* Whether any export was asked for. */
bool exports_any(const struct exports *e);

/*
 * Before sampling: each path must be creatable (and the format built
 * in); otherwise print "cannot write FORMAT to PATH: reason (fix)" and
 * exit 2.  Two exports that would write one file exit 2 too
 * (output_paths_distinct()).
 */
void exports_check(const struct exports *e);

/* What a format is called in messages: "the flame graph"... */
const char *exports_what(enum export_format f);

/*
 * Write every asked export of s.  A failure prints one line ("cannot
 * write the flame graph to /dev/full: No space left on device") and the
 * others are still written.  Returns 0, or -1 when one failed.
 */
int exports_write(const struct exports *e, struct stacks *s,
		  const struct export_meta *m);

/* The fix for a failed write's errno, "" when there is none to give. */
const char *exports_fix(int err);

#endif
