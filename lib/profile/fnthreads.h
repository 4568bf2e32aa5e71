/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fnthreads.h - how many threads ran each function: per (sym, dso), the
 * distinct thread ids of its samples since the start, up to
 * FNTHREADS_MAX (past it, "more").  Is a hot function hot in one thread
 * (a serial part) or in all (shared work, or contention)?
 *
 * Pure: no I/O, no symbols, no clock.  Memory is bounded by the
 * functions: FNTHREADS_MAX ids each at most.  A run of samples of one
 * function by one thread costs one comparison each.  Never prints,
 * never exits: functions that can fail return -1 (or NULL) with errno
 * set.  Strings are copied.  Not thread-safe.
 */
#ifndef PROFILE_FNTHREADS_H
#define PROFILE_FNTHREADS_H

#include <stdint.h>
#include <sys/types.h>

#define FNTHREADS_MAX 64

struct fnthreads;

/* An empty model, or NULL with errno ENOMEM; fnthreads_free() frees it
   (NULL: a no-op). */
struct fnthreads *fnthreads_new(void);
void fnthreads_free(struct fnthreads *t);

/* A sample of thread tid in (sym, dso) (NULL: "[unknown]", as the
   tables' rows).  0, or -1 with errno ENOMEM (nothing counted). */
int fnthreads_add(struct fnthreads *t, const char *sym, const char *dso,
		  pid_t tid);

/* The distinct threads seen in (sym, dso): 0 to FNTHREADS_MAX, or
   FNTHREADS_MAX + 1 when more were seen. */
unsigned fnthreads_count(const struct fnthreads *t, const char *sym,
			 const char *dso);

#endif
