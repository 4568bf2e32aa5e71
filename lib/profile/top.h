/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * top.h - kerneltop's model: samples aggregated into decaying counts and
 * read back as the sorted rows of a view.  Pure: no I/O, no symbols, no
 * terminal, no clock -- the tool feeds samples, calls top_age() at each
 * refresh and draws what top_rows() returns.
 *
 * A sample is (sym, dso, mode, comm, pid, tid, cpu, socket, srcline,
 * parent, trace) plus an event index, a weight, a period and an address.  Each distinct key is one entry holding one
 * integer count per event.  At each refresh the counts decay as the 2008
 * kerneltop's did, count = count * 7 / 8 (integer division), or are set to
 * 0 in zero mode; an entry whose counts are all 0 is dropped unless a
 * baseline holds it.  A view groups entries by some of the key fields,
 * hides some of them, and orders the groups; shares are always of the whole
 * total of an event, so hiding rows never rescales the others (as perf top).
 *
 * The rows are everything a table shows.  With call chains (a struct
 * stacks of the same samples), top_rows_chains() reads the rows of a view
 * from them instead: every function of the chains, callers included, with
 * its Children beside its Self.  One view, one filter, for both.
 *
 * The library never prints and never exits.  Functions that can fail
 * return -1 (or NULL) with errno set.
 *
 * Strings are copied: the caller's buffers may change or die as soon as
 * top_add() returns.  Copies are interned once per distinct string and
 * live until top_free(), so every string a row or lookup hands out stays
 * valid that long, and two rows name the same DSO with the same pointer.
 * Arrays that top_rows() and top_addrs() return belong to t; the rule for
 * each is at its function.
 *
 * Not thread-safe: one thread feeds and reads a struct top at a time.
 */
#ifndef PROFILE_TOP_H
#define PROFILE_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbols/symbols.h"	/* enum sym_cause, a type only */

#define TOP_MAX_EVENTS 16

struct top;
struct stacks;
struct rates_est;

struct top_sample {
	const char *sym;	/* function, or NULL when unresolved (stored
				   as "[unknown]") */
	const char *dso;	/* never NULL ("[unknown]" when no mapping;
				   NULL is taken as that too) */
	const char *comm;	/* never NULL (NULL is taken as "[unknown]") */
	pid_t pid, tid;
	char mode;		/* 'k' kernel, '.' user, 'h' hypervisor */
	unsigned event;		/* < nevents */
	uint64_t weight;	/* usually 1; 0 adds nothing */
	uint64_t addr;		/* for annotation: ELF vaddr within dso
				   (dso_off), or the ip for the kernel */
	enum sym_cause cause;	/* with sym NULL: why (lib/symbols' cause;
				   SYM_OK is taken as SYM_NO_SYMBOL);
				   ignored with a sym */
	/* Keys only some views group by: every distinct value is an entry
	   of its own, so leave them 0 / NULL unless a view asks for them. */
	int cpu;		/* the CPU it was taken on */
	int socket;		/* that CPU's package (socket) id */
	const char *srcline;	/* "file:line"; NULL is taken as "" */
	const char *parent;	/* perf's parent symbol; NULL is taken as "" */
	const char *trace;	/* a tracepoint record's text (perf's
				   trace sort keys); NULL is taken as "" */
	uint64_t period;	/* the events it stands for (perf's Period);
				   summed, decayed and zeroed as the counts */
};

/*
 * A model for nevents events (1 to TOP_MAX_EVENTS), or NULL with errno
 * EINVAL (nevents 0 or too many) or ENOMEM.  Free it with top_free().
 */
struct top *top_new(unsigned nevents);

/* Free t and everything it handed out.  NULL is fine. */
void top_free(struct top *t);

/* The nevents t was made with. */
unsigned top_nevents(const struct top *t);

/*
 * Count s->weight more for s->event in the entry of s's key, and for
 * s->addr in the annotation of (sym, dso).  Strings are copied.  Returns
 * 0, or -1 with errno EINVAL (s->event >= nevents, t or s NULL) or ENOMEM;
 * on failure no count has changed.
 */
int top_add(struct top *t, const struct top_sample *s);

/*
 * One refresh: every count becomes count * 7 / 8 (integer division), or 0
 * when zero is true; entries left with all counts 0 are dropped unless the
 * baseline holds them; the totals are summed again.  Annotation counts
 * (top_addrs()) are not touched.  Cannot fail.
 */
void top_age(struct top *t, bool zero);

/* The sum of the current counts of event over all entries (0 for an
   event out of range). */
uint64_t top_total(const struct top *t, unsigned event);


/* How many entries t holds now (for tests and a status line). */
size_t top_count(const struct top *t);

/* Grouping keys of a view (a mask). */
enum top_key {
	TOP_KEY_SYM = 1,	/* (sym, dso, mode): a symbol is always shown
				   with its DSO */
	TOP_KEY_DSO = 2,
	TOP_KEY_COMM = 4,
	TOP_KEY_PID = 8,
	TOP_KEY_TID = 16,
	TOP_KEY_CPU = 32,
	TOP_KEY_SOCKET = 64,
	TOP_KEY_SRCLINE = 128,
	TOP_KEY_PARENT = 256,
	TOP_KEY_TRACE = 512,
	TOP_KEY_ALL = 1023
};

/*
 * Row order.  TOP_BY_SHARE: descending by the count of the event shown
 * (by weight in the weight view).  The others: ascending by that field
 * (strings by strcmp, numbers numerically), ties by share descending.
 * Every order ends in the row's whole key (sym, dso, mode, comm, pid, tid,
 * cpu, socket, srcline, parent, trace ascending), so it is total and the same
 * table always reads the same.
 */
enum top_order {
	TOP_BY_SHARE,
	TOP_BY_SYM,
	TOP_BY_DSO,
	TOP_BY_COMM,
	TOP_BY_PID,
	TOP_BY_TID,
	TOP_ORDER_MAX
};

struct top_view {
	size_t sz;		/* sizeof(struct top_view): use TOP_VIEW() */
	unsigned keys;		/* TOP_KEY_* mask; 0 means TOP_KEY_SYM */
	int event;		/* -1: the weight view (several events),
				   ordered by weight; else that event */
	enum top_order order;
	const char *dso;	/* zoom: only entries of this DSO; NULL all */
	pid_t tid;		/* zoom: only this thread; 0 all */
	bool hide_kernel;	/* hide mode 'k' */
	bool hide_user;		/* hide mode '.' ('h' is neither) */
	const char *filter;	/* only symbols containing this substring
				   (case-sensitive); NULL or "" all */
	double percent_limit;	/* drop rows whose share is below this */
	size_t max_rows;	/* at most this many rows (the first in
				   order); 0 all */
	bool sort_self;		/* top_rows_chains(): TOP_BY_SHARE orders
				   by Self, and percent_limit is of Self,
				   instead of Children */
	/* perf's --comms, --dsos, --symbols: comma-separated lists of the
	   only comms, DSOs (a path or its file name) and symbols shown;
	   NULL or "" all */
	const char *comms, *dsos, *symbols;
	uint64_t count_filter;	/* perf's -f: only rows with more than this
				   count of the event shown (of event 0 in
				   the weight view) */
	bool relative;		/* perf's --percentage relative: shares (and
				   deltas) of the total of what the view's
				   filters, zooms and hides pass, not of the
				   whole total */
};

/*
 * A view as a compound literal; every field not named is 0, which is the
 * default (keys sym, event 0, by share, no zoom or filter, all rows):
 *
 *	top_rows(t, &TOP_VIEW(), &n)
 *	top_rows(t, &TOP_VIEW(.keys = TOP_KEY_COMM | TOP_KEY_TID,
 *			      .order = TOP_BY_TID), &n)
 *	top_rows(t, &TOP_VIEW(.event = -1, .dso = "/usr/bin/app"), &n)
 */
#define TOP_VIEW(...) \
	((struct top_view){ .sz = sizeof(struct top_view), __VA_ARGS__ })

/*
 * Whether view v (NULL: TOP_VIEW()) passes a sample by its comm, DSO and
 * symbol lists -- perf's --comms, --dsos, --symbols -- for a caller that
 * feeds other models (call chains) with what the table shows.
 */
bool top_view_passes(const struct top_view *v, const struct top_sample *s);

struct top_row {
	const char *sym, *dso, *comm;	/* NULL for a field that is not a key
					   of the view (TOP_KEY_SYM sets sym
					   and dso) */
	pid_t pid, tid;			/* 0 when not a key */
	int cpu, socket;		/* 0 when not a key */
	const char *srcline, *parent;	/* NULL when not a key */
	const char *trace;		/* NULL when not a key */
	char mode;			/* with TOP_KEY_SYM; else 0 */
	const uint64_t *count;		/* nevents counts, summed over the
					   group's entries */
	const uint64_t *period;		/* nevents sums of the samples'
					   periods, likewise (all 0 in rows
					   of top_rows_chains()) */
	double share;			/* 100 * count[event] / top_total(event)
					   (with v->relative: / the total the
					   view passes); weight view: of event
					   0; 0 when the total is 0 */
	double weight;			/* count[0] * ... * count[n-2] /
					   (count[n-1] + 1), the 2009
					   kerneltop's sym_weight, in double;
					   count[0] when nevents is 1 */
	bool has_delta;			/* a baseline is active */
	double delta;			/* share - the group's share at the
					   baseline (same event, same keys) */
	enum sym_cause cause;		/* with TOP_KEY_SYM: SYM_OK when sym
					   names a function, else why not
					   (sym is then "[unknown]"); SYM_OK
					   for rows without sym */
	bool has_children;		/* a row of top_rows_chains() */
	uint64_t children;		/* the samples with sym anywhere in
					   their chain (once per sample) */
	double children_share;		/* 100 * children / the chains'
					   total; past 100 summed, as a
					   caller's holds its callees' */
	const struct rates_est *rates;	/* the rates of the row's function
					   (profile.h), nrates of them;
					   NULL and 0 from top_rows() */
	unsigned nrates;
	unsigned threads;		/* profile_rows(): the distinct threads
					   of the row's function (fnthreads.h:
					   FNTHREADS_MAX + 1, more); 0 from
					   top_rows() */
};

/*
 * The rows of view v (NULL: TOP_VIEW()), in order, in an array owned by t
 * that stays valid, with the counts it points to, until the next top_add,
 * top_age, top_baseline_*, top_rows or top_free.  *n gets the number of
 * rows; with none the array is still non-NULL.
 *
 * Returns NULL with errno EINVAL (v->sz too small, keys outside
 * TOP_KEY_ALL, event not -1 and not below nevents, order out of range),
 * E2BIG (a larger struct top_view whose fields unknown here are not zero)
 * or ENOMEM; *n is then 0.
 */
const struct top_row *top_rows(struct top *t, const struct top_view *v,
			       size_t *n);

/*
 * The rows of view v read from the call chains s (of event 0 of the
 * samples t holds), in an array owned by t with the lifetime of
 * top_rows()'s: each function of the chains with a sample in it or under
 * it -- a caller too, which has no samples of its own and so no entry in
 * t -- as a TOP_KEY_SYM row: Self in count[0] and share (of the chains'
 * total), its Children in children and children_share, has_children set,
 * no delta.  An unresolved place counts as the "[unknown]" of its DSO
 * and mode, as stacks_totals() counts it.  v's zoom on a DSO, hides,
 * filter, percent_limit and max_rows apply as in top_rows(); TOP_BY_SHARE
 * orders by Children (by Self with v->sort_self), TOP_BY_SYM and
 * TOP_BY_DSO by that field first.  Strings are s's (stacks.h: valid
 * until stacks_free()).
 *
 * NULL with errno EINVAL for a view top_rows() refuses, or one that
 * chains cannot show -- keys other than TOP_KEY_SYM, an event other than
 * 0, a thread zoom -- or ENOMEM; *n is then 0.
 */
const struct top_row *top_rows_chains(struct top *t, struct stacks *s,
				      const struct top_view *v, size_t *n);

/*
 * A copy of rows[0..n) (from top_rows() or top_rows_chains() of a model
 * of nevents events, or profile_rows()) that outlives the model's next
 * call: the rows and their counts, periods and rates in one malloc'd
 * block, which the caller frees with free().
 * Its strings stay the models' (valid until top_free(), stacks_free()).
 * NULL with errno ENOMEM (or for n 0, a non-NULL empty block).
 */
struct top_row *top_rows_dup(const struct top_row *rows, size_t n,
			     unsigned nevents);

/*
 * Baseline: remember every entry's counts and the totals now.  Until
 * top_baseline_drop(), rows carry has_delta and delta, and entries that
 * had a count at the baseline are not dropped by top_age() (their rows
 * show how far they fell).  Taking it again replaces it.  Returns 0 (-1
 * with errno is reserved for a future that allocates here).
 */
int top_baseline_take(struct top *t);
/* Forget the baseline; entries only it kept (all counts 0) go now. */
void top_baseline_drop(struct top *t);
bool top_baseline_active(const struct top *t);

/*
 * Annotation: the addresses sampled in (sym, dso) -- sym NULL meaning
 * "[unknown]" as in top_sample -- with the weights of every sample of
 * every event at each, summed over all comm, pid, tid and mode, cumulative
 * since top_new() (never decayed or zeroed), sorted by address.  The array
 * is owned by t and valid until the next top_addrs, top_add or top_free.
 *
 * NULL with *n = 0 when (sym, dso) was never sampled (errno ENOENT) or on
 * ENOMEM.
 */
struct top_addr {
	uint64_t addr;
	uint64_t count;
};
const struct top_addr *top_addrs(struct top *t, const char *sym,
				 const char *dso, size_t *n);

#endif
