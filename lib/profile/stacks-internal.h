/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stacks-internal.h - struct stacks, shared by stacks.c (interning,
   counting) and stacks-tree.c (trees, totals).  Private to lib/profile. */
#ifndef PROFILE_STACKS_INTERNAL_H
#define PROFILE_STACKS_INTERNAL_H

#include "base/hashtab.h"
#include "base/strpool.h"
#include "profile/stacks.h"

struct stacks {
	struct strpool strings;

	struct stk_func *func;		/* by id */
	size_t nfunc, afunc;
	struct hashtab func_idx;	/* id + 1, as a pointer */

	struct stk_frame *frame;	/* by id */
	size_t nframe, aframe;
	struct hashtab frame_idx;	/* id + 1, as a pointer */

	struct hashtab stacks;		/* of struct stk_stack (malloc'd) */
	uint64_t total, period;
	unsigned nvalues;		/* sums per stack after its frames
					   (stacks_values_set()) */

	uint32_t *ids;			/* the chain being added */
	size_t aids;
	const struct stk_stack **sorted;
	size_t asorted;

	struct stk_run *runs;		/* stacks-time.c: the timeline */
	size_t nruns, aruns, runs_max;
	struct stk_run *runs_out;	/* what stacks_timeline() hands out */
	size_t aruns_out;
	uint64_t time0, window;		/* first time; coarsening (0: none) */
	bool untimed;			/* no timeline: a sample without time,
					   aging, or no memory for it */

	struct stk_total *totals;	/* stacks-tree.c */
	size_t atotals;
	uint32_t *stamp;		/* per function: the last stack seen */
	size_t astamp;
	struct stk_node *node;
	size_t nnode, anode;
	struct hashtab node_idx;	/* (parent, func) -> node index + 1 */
};

/* Calls for each stack with a count (in no particular order). */
#define STACKS_FOR_EACH(s, i, st) \
	for ((i) = 0; ((st) = hashtab_next(&(s)->stacks, &(i))) != NULL;)

/* stacks-tree.c: free what the tree and totals keep. */
void stacks_tree_release(struct stacks *s);

/* stacks-time.c: note a sample of st in the timeline; drop the timeline
   for good (a sample without time, aging); free it. */
void stacks_time_note(struct stacks *s, const struct stk_stack *st,
		      uint64_t weight, uint64_t period, uint64_t time_ns);
void stacks_time_drop(struct stacks *s);
void stacks_time_release(struct stacks *s);

#endif
