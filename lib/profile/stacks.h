/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stacks.h - call chains aggregated: what every export (folded stacks,
 * the SVG flame graph, pprof, speedscope) and kerneltop -g read.
 *
 * Frames are interned: a frame is a place in the code -- (mode, function,
 * DSO, source file and line, inlined or not), or (mode, DSO, offset) for
 * an unresolved one -- and each frame belongs to a function, (mode, name,
 * DSO), where an unresolved frame's name is "file+0xOFFSET" (its DSO's
 * base name and its offset there), so that it stays apart and findable
 * in a flame graph.  Tables count it as the flat profile does, as one
 * "[unknown]" function per mode and DSO (its row, below).
 * Each distinct stack (frame ids, leaf first) is stored once with its
 * sample count and the sum of its samples' periods.  Trees (flame graph,
 * callers and callees of a function) and per-function Self and Children
 * totals are computed from the stacks on demand.
 *
 * Pure: no I/O, no symbols, no clock.  The library never prints and never
 * exits; functions that can fail return -1 (or NULL) with errno set.
 * Strings are copied (interned) and live until stacks_free(); ids are
 * dense (0, 1, ...) and stable for the life of the struct stacks.
 * Arrays returned belong to s: the rule for each is at its function.
 * Not thread-safe.
 */
#ifndef PROFILE_STACKS_H
#define PROFILE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/symbols.h"	/* enum sym_cause, a type only */

struct stacks;

#define STK_NONE UINT32_MAX

/*
 * One frame of a sample's call chain, resolved, as stacks_add() takes it
 * (and the feed hands it over: profile/feed.h).  Strings are the caller's
 * and may die once stacks_add() returns.
 */
struct stk_sample_frame {
	uint64_t ip;		/* the leaf's IP, or a return address */
	const char *sym;	/* function (demangled), NULL when unresolved */
	uint64_t off;		/* ip - start of sym (0 for an inlined frame) */
	const char *dso;	/* never NULL: a path, "[kernel.kallsyms]",
				   "[jit]", "[vdso]", "[unknown]"... */
	uint64_t dso_off;	/* ip within dso (ELF vaddr); the ip itself
				   for the kernel, JIT code and no mapping */
	const char *file;	/* source file, NULL when unknown */
	int line;		/* its line, 0 when unknown */
	enum sym_cause cause;	/* SYM_OK, or why sym (or file:line) is
				   missing */
	char mode;		/* 'k' kernel, '.' user, 'h', 'g' */
	bool inlined;		/* an inlined function: the next frame is
				   the one it was inlined into, same ip */
};

/* A function: what flame graphs and tables show. */
struct stk_func {
	const char *name;	/* sym, or "libfoo.so+0x1234" unresolved */
	const char *dso;
	const char *file;	/* source file of its first frame seen, or
				   NULL */
	char mode;		/* 'k' kernel, '.' user, 'h', 'g' */
	bool resolved;		/* name is a symbol */
	enum sym_cause cause;	/* SYM_OK, or why not resolved (of the
				   first frame seen of it) */
	bool jit;		/* code without a file: "[jit]" */
	uint32_t row;		/* the function it counts as in Self and
				   Children and in callers and callees
				   trees: itself, or for an unresolved one
				   the "[unknown]" of its mode and DSO */
};

/* A frame: a place in a function. */
struct stk_frame {
	uint32_t func;
	const char *file;	/* NULL when unknown */
	int line;		/* 0 when unknown */
	uint64_t ip;		/* the first address seen for it */
	uint64_t dso_off;	/* ip within its DSO */
	enum sym_cause cause;
	bool inlined;
};

/* A distinct stack. */
struct stk_stack {
	uint64_t count;		/* samples (decayed by stacks_age()) */
	uint64_t period;	/* the sum of their periods (decayed too) */
	uint32_t depth;
	uint32_t frame[];	/* frame ids, leaf first */
};

/* An empty aggregate, or NULL with errno ENOMEM. */
struct stacks *stacks_new(void);
void stacks_free(struct stacks *s);

/*
 * Count one sample of period whose chain is frames[0..n) (leaf first, as
 * the feed gives them; n 0 counts an empty stack of nothing).  Returns
 * 0, or -1 with errno ENOMEM (nothing counted).
 */
int stacks_add(struct stacks *s, const struct stk_sample_frame *frames,
	       unsigned n, uint64_t period);

/*
 * stacks_add() of a sample taken at time_ns (the sample's clock), kept
 * in the timeline too (below).  Returns as stacks_add().
 */
int stacks_add_at(struct stacks *s, const struct stk_sample_frame *frames,
		  unsigned n, uint64_t period, uint64_t time_ns);

/*
 * stacks_add_at() of a sample that counts weight samples (weight 0 adds
 * nothing): off-CPU spans and wall-clock profiles count nanoseconds, so
 * that every share, tree and export is a share of time.  Returns as
 * stacks_add().
 */
int stacks_add_weight(struct stacks *s, const struct stk_sample_frame *frames,
		      unsigned n, uint64_t weight, uint64_t period,
		      uint64_t time_ns);

/*
 * One refresh of a live view: every count and period becomes 7/8 of
 * itself (integer division), or 0 when zero; stacks left at 0 go.
 * Frames and functions stay; the timeline goes (it no longer adds up).
 */
void stacks_age(struct stacks *s, bool zero);

/*
 * The timeline: the samples in the order they were taken, as runs of
 * one stack, for exports that show time (speedscope's Time Order).  It
 * exists while every sample came through stacks_add_at() and nothing
 * was aged.  Consecutive samples of one stack are one run.  Its memory
 * is bounded: past STK_RUNS_MAX runs (32 bytes each) the timeline is
 * coarsened -- time is cut into windows, twice as long each time as
 * needed, and within a window each stack's samples become one run at
 * the time of its first -- so order holds to a window, and counts and
 * periods stay exact.  A stack whose samples are the whole profile
 * never needs more runs than there are distinct stacks.
 */
#define STK_RUNS_MAX (1u << 19)

struct stk_run {
	uint64_t time;			/* of its first sample */
	const struct stk_stack *stack;
	uint64_t count;			/* samples */
	uint64_t period;		/* the sum of their periods */
};

/*
 * The runs in time order (a run before another that began later; ties
 * in the order added), consecutive runs of one stack merged.  Array
 * owned by s, valid until the next call that changes s or
 * stacks_timeline.  NULL with *n = 0 when there is no timeline (a
 * sample came without a time, or s was aged), or with errno ENOMEM.
 * The window the timeline was coarsened to goes to *window_ns (0: every
 * sample in order); window_ns may be NULL.
 */
const struct stk_run *stacks_timeline(struct stacks *s, size_t *n,
				      uint64_t *window_ns);

/*
 * More sums per stack than count and period: nvalues of them (at most
 * STK_MAX_VALUES; a group's members, each sample's deltas), set before
 * the first sample.  0, or -1 with errno EINVAL.  They are aged as the
 * counts are.
 */
#define STK_MAX_VALUES 8
int stacks_values_set(struct stacks *s, unsigned nvalues);
unsigned stacks_nvalues(const struct stacks *s);

/* stacks_add_at() with values[0..stacks_nvalues()) added to the
   stack's sums (NULL: nothing added to them). */
int stacks_add_values(struct stacks *s, const struct stk_sample_frame *frames,
		      unsigned n, uint64_t period, uint64_t time_ns,
		      const uint64_t *values);

/* The sums of st, stacks_nvalues() of them; NULL when there are none. */
const uint64_t *stacks_stack_values(const struct stacks *s,
				    const struct stk_stack *st);

/* Samples counted (the current sum of counts) and distinct stacks. */
uint64_t stacks_total(const struct stacks *s);
uint64_t stacks_period(const struct stacks *s);
size_t stacks_count(const struct stacks *s);

/* Functions and frames by id; ids below stacks_nfuncs()/nframes(). */
size_t stacks_nfuncs(const struct stacks *s);
size_t stacks_nframes(const struct stacks *s);
const struct stk_func *stacks_func(const struct stacks *s, uint32_t id);
const struct stk_frame *stacks_frame(const struct stacks *s, uint32_t id);

/* The function named name in dso (NULL: any DSO; the first in id
   order), or STK_NONE. */
uint32_t stacks_func_find(const struct stacks *s, const char *name,
			  const char *dso);

/*
 * The stacks, the most counted first (ties in frame order), in an array
 * owned by s, valid until the next stacks_add, stacks_age, stacks_sorted
 * or stacks_free.  NULL with errno ENOMEM (*n = 0).
 */
const struct stk_stack *const *stacks_sorted(struct stacks *s, size_t *n);

/*
 * Per function: Self, the samples whose leaf frame is in it, and
 * Children, the samples with it anywhere in the stack (once per sample,
 * however deep the recursion): a caller's Children includes its
 * callees' time, so the Children column sums past 100%.  Functions are
 * counted by their row: the unresolved places of a DSO are its one
 * "[unknown]", as in a flat profile.
 */
struct stk_total {
	uint32_t func;
	uint64_t self, children;
};

/*
 * The functions with samples, ordered by children (by_self false) or
 * self, descending, ties by name.  Array owned by s, valid until the next
 * call that changes s or stacks_totals.  NULL with errno ENOMEM.
 */
const struct stk_total *stacks_totals(struct stacks *s, bool by_self,
				      size_t *n);

/* A node of a tree of functions. */
struct stk_node {
	uint32_t func;		/* STK_NONE for the root */
	uint32_t parent;	/* STK_NONE for the root */
	uint32_t child;		/* first child (children ordered by
				   function name), or STK_NONE */
	uint32_t next;		/* next sibling, or STK_NONE */
	uint32_t depth;		/* the root is 0 */
	uint64_t total;		/* samples through this node */
	uint64_t self;		/* samples taken in this node's function
				   here (in a callers tree, the root's
				   only: its Self) */
};

enum stk_tree {
	STK_TREE_ROOT,		/* every stack, root to leaf: a flame graph
				   (unresolved places apart, by offset) */
	STK_TREE_CALLEES,	/* func, then what it called, down to the
				   leaves (from func's outermost frame) */
	STK_TREE_CALLERS,	/* func, then who called it, up to the root
				   (from func's innermost frame); both by
				   rows, as stacks_totals() counts */
};

/*
 * The tree of kind (func ignored for STK_TREE_ROOT): nodes[0] is the
 * root (func STK_NONE for ROOT, else func's row, total and self = its
 * Children and Self),
 * each child lists a function once per parent.  Array owned by s, valid
 * until the next stacks_tree, a change of s or stacks_free; *n gets the
 * number of nodes.  NULL with errno ENOMEM, or EINVAL for an unknown
 * func.
 */
const struct stk_node *stacks_tree(struct stacks *s, enum stk_tree kind,
				   uint32_t func, size_t *n);

/*
 * The tree that perf top prints under func's entry: nodes[0] stands for
 * the entry (func STK_NONE; total: the samples in it), its children are
 * the first functions of the chains.  Caller order: a sample taken in
 * func gives its whole chain, root first; any other with func in it,
 * from func's outermost frame down to the leaf.  Callee order: from
 * func's innermost frame up to the root.  self_only: the samples taken
 * in func alone (perf's --no-children).  Functions by their rows, as
 * stacks_totals() counts.  Array as stacks_tree()'s; NULL with errno
 * ENOMEM, or EINVAL for an unknown func.
 */
const struct stk_node *stacks_tree_entry(struct stacks *s, uint32_t func,
					 bool callee_order, bool self_only,
					 size_t *n);

/*
 * The tree of the stacks that keep(s, st, arg) takes, each whole: root
 * first, or leaf first (callee_order) -- what perf prints under an entry
 * that is not a function (-s parent).  nodes[0] stands for the entry
 * (func STK_NONE; total: its samples).  Functions by their rows.  Array
 * as stacks_tree()'s; NULL with errno ENOMEM.
 */
typedef bool stacks_keep_fn(const struct stacks *s,
			    const struct stk_stack *st, void *arg);
const struct stk_node *stacks_tree_where(struct stacks *s, bool callee_order,
					 stacks_keep_fn *keep, void *arg,
					 size_t *n);

/*
 * The node after at in depth-first order (a node, then its children in
 * order, then its next sibling), over a tree from stacks_tree(); start
 * with nd[0].child.  STK_NONE after the last.
 */
uint32_t stacks_tree_next(const struct stk_node *nd, uint32_t at);

#endif /* PROFILE_STACKS_H */
