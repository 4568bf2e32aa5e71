/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* top-internal.h - struct top, shared by top.c (feeding), top-rows.c
   (views) and top-chains.c (views of call chains).  Private to
   lib/profile. */
#ifndef PROFILE_TOP_INTERNAL_H
#define PROFILE_TOP_INTERNAL_H

#include <string.h>

#include "base/hashtab.h"
#include "base/strpool.h"
#include "profile/top.h"

/* One distinct sample key.  Strings are interned, so equal strings are
   equal pointers (top_rows() groups by pointer). */
struct top_entry {
	const char *sym, *dso, *comm, *srcline, *parent, *trace;
	pid_t pid, tid;
	int cpu, socket;
	char mode;
	bool held;		/* the baseline holds it (had a count then) */
	enum sym_cause cause;	/* SYM_OK, or why sym is "[unknown]" */
	uint64_t count[];	/* nevents counts, then nevents counts at
				   the baseline, then nevents periods */
};

struct top {
	unsigned nevents;
	struct strpool strings;	/* interned strings */
	struct hashtab entries;	/* struct top_entry *, owned */
	struct hashtab addr_tab; /* struct top_addr_node * (annotation),
				    owned */
	uint64_t total[TOP_MAX_EVENTS];
	uint64_t base_total[TOP_MAX_EVENTS];
	bool baseline;

	/* top_rows(): its answer and scratch, reused from call to call */
	struct top_row *rows;
	size_t rows_alloc;
	uint64_t *sums;		/* per row: nevents counts, nevents at base,
				   nevents periods */
	size_t sums_alloc;
	struct hashtab groups;	/* struct top_row * into rows */

	/* top_addrs(): its answer */
	struct top_addr *addrs;
	size_t addrs_alloc;
};

/* Counts saturate rather than wrap, so a row never jumps to the bottom. */
static inline uint64_t top_add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*
 * The interned copy of s, or NULL when t has never seen s.  Inline, so
 * that top-rows.c needs nothing of top.c (which calls into top-rows.c).
 */
static inline const char *top_intern_find(const struct top *t, const char *s)
{
	return strpool_find(&t->strings, s);
}

/* Free top_rows()' buffers (for top_free()). */
void top_rows_release(struct top *t);

/* top-rows.c: what every reader of a view shares. */
/* The caller's view with the defaults filled in, or -1 with errno
   (top_rows()'s EINVAL, E2BIG). */
int top_view_get(struct top_view *v, const struct top_view *user,
		 unsigned nevents);
/* The one filter: whether v shows a place (sym, dso, mode) of thread tid
   (0: any) -- its zooms, hides and symbol filter. */
bool top_view_shows(const struct top_view *v, const char *sym,
		    const char *dso, char mode, pid_t tid);
/* The rows by the field of order o alone (0 for TOP_BY_SHARE). */
int top_order_cmp(enum top_order o, const struct top_row *a,
		  const struct top_row *b);
/* 100 * part / total, 0 for a total of 0. */
double top_percent(uint64_t part, uint64_t total);

#endif
