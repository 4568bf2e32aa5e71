/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stacks-tree.c - call chains aggregated, the reading side: Self and
 * Children per function, and trees of functions (the flame graph's, a
 * function's callers or callees) built from the distinct stacks.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/stacks-internal.h"

void stacks_tree_release(struct stacks *s)
{
	hashtab_release(&s->node_idx);
	free(s->node);
	free(s->totals);
	free(s->stamp);
}

/* --- Self and Children ------------------------------------------------------ */

struct total_order {
	const struct stacks *s;
	bool by_self;
};

static int cmp_total(const void *a, const void *b, void *arg)
{
	const struct total_order *o = arg;
	const struct stk_total *x = a, *y = b;
	uint64_t kx = o->by_self ? x->self : x->children;
	uint64_t ky = o->by_self ? y->self : y->children;
	int c;

	if (kx != ky)
		return kx < ky ? 1 : -1;
	c = strcmp(o->s->func[x->func].name, o->s->func[y->func].name);
	return c ? c : (x->func > y->func) - (x->func < y->func);
}

const struct stk_total *stacks_totals(struct stacks *s, bool by_self,
				      size_t *n)
{
	const struct stk_stack *st;
	uint32_t serial = 0, d;
	size_t i, k;

	*n = 0;
	if (ARRAY_GROW(s->totals, s->nfunc + 1, s->atotals) != 0 ||
	    ARRAY_GROW(s->stamp, s->nfunc + 1, s->astamp) != 0)
		return NULL;
	memset(s->totals, 0, s->nfunc * sizeof(*s->totals));
	memset(s->stamp, 0, s->nfunc * sizeof(*s->stamp));
	STACKS_FOR_EACH(s, i, st) {
		serial++;
		for (d = 0; d < st->depth; d++) {
			uint32_t f = s->func[s->frame[st->frame[d]].func].row;

			if (d == 0)
				s->totals[f].self += st->count;
			if (s->stamp[f] == serial)
				continue;	/* recursion: once a sample */
			s->stamp[f] = serial;
			s->totals[f].children += st->count;
		}
	}
	for (i = k = 0; i < s->nfunc; i++) {
		if (!s->totals[i].children)
			continue;
		s->totals[k] = s->totals[i];
		s->totals[k++].func = (uint32_t)i;
	}
	qsort_r(s->totals, k, sizeof(*s->totals), cmp_total,
		&(struct total_order){ s, by_self });
	*n = k;
	return s->totals;
}

/* --- trees ----------------------------------------------------------------------- */

struct node_key {
	const struct stacks *s;
	uint32_t parent, func;
};

static bool node_eq(const void *item, const void *key)
{
	const struct node_key *k = key;
	const struct stk_node *nd = &k->s->node[(uintptr_t)item - 1];

	return nd->func == k->func && nd->parent == k->parent;
}

/* The child of parent for func, made on first sight; STK_NONE on ENOMEM. */
static uint32_t node_child(struct stacks *s, uint32_t parent, uint32_t func)
{
	struct node_key k = { s, parent, func };
	size_t h = hash_bytes(&func, sizeof(func), hash_u64(parent));
	void *it = hashtab_find(&s->node_idx, h, node_eq, &k);
	struct stk_node *nd;

	if (it)
		return (uint32_t)((uintptr_t)it - 1);
	if (s->nnode >= STK_NONE ||
	    ARRAY_GROW(s->node, s->nnode + 1, s->anode) != 0 ||
	    hashtab_add(&s->node_idx, h, (void *)(uintptr_t)(s->nnode + 1)))
		return STK_NONE;
	nd = &s->node[s->nnode];
	*nd = (struct stk_node){ func, parent, STK_NONE, s->node[parent].child,
				 s->node[parent].depth + 1, 0, 0 };
	s->node[parent].child = (uint32_t)s->nnode;
	return (uint32_t)s->nnode++;
}

/*
 * Count st from frame `from' towards `to' (exclusive, step +1 or -1),
 * by the frames' functions or (rows) their rows.
 * Toward the leaf (step -1) the last node is where the sample was taken;
 * toward the root, only the root's own function can be (leaf).
 */
static int add_path(struct stacks *s, const struct stk_stack *st, long from,
		    long to, int step, bool leaf, bool rows)
{
	uint32_t at = 0, prev = STK_NONE;
	long d;

	s->node[0].total += st->count;
	for (d = from; d != to; d += step) {
		uint32_t f = s->frame[st->frame[d]].func;

		if (rows)
			f = s->func[f].row;

		at = node_child(s, at, f);
		if (at == STK_NONE)
			return -1;
		s->node[at].total += st->count;
		prev = at;
	}
	if (step < 0)
		s->node[prev == STK_NONE ? 0 : prev].self += st->count;
	else if (leaf)
		s->node[0].self += st->count;
	return 0;
}

static int cmp_node(const void *a, const void *b, void *arg)
{
	const struct stacks *s = arg;
	const struct stk_func *x = &s->func[s->node[*(const uint32_t *)a].func];
	const struct stk_func *y = &s->func[s->node[*(const uint32_t *)b].func];
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->dso, y->dso);
	return c ? c : (x->mode > y->mode) - (x->mode < y->mode);
}

/* Children in function-name order, so that output is the same for the
   same samples. */
static int order_children(struct stacks *s)
{
	uint32_t *kids = NULL, c;
	size_t akids = 0, i, n;

	for (i = 0; i < s->nnode; i++) {
		for (n = 0, c = s->node[i].child; c != STK_NONE;
		     c = s->node[c].next) {
			if (ARRAY_GROW(kids, n + 1, akids) != 0) {
				free(kids);
				return -1;
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), cmp_node, s);
		s->node[i].child = kids[0];
		for (c = 0; c + 1 < n; c++)
			s->node[kids[c]].next = kids[c + 1];
		s->node[kids[n - 1]].next = STK_NONE;
	}
	free(kids);
	return 0;
}

/* The row of st's frame d. */
static uint32_t row_of(const struct stacks *s, const struct stk_stack *st,
		       long d)
{
	return s->func[s->frame[st->frame[d]].func].row;
}

/* A tree of its root alone, for func. */
static int tree_start(struct stacks *s, uint32_t func)
{
	hashtab_release(&s->node_idx);
	s->nnode = 0;
	if (ARRAY_GROW(s->node, 1, s->anode) != 0)
		return -1;
	s->node[0] = (struct stk_node){ func, STK_NONE, STK_NONE, STK_NONE, 0,
					0, 0 };
	s->nnode = 1;
	return 0;
}

/* The innermost (from 0 up) or outermost frame of st in row func, or
   -1. */
static long frame_of(const struct stacks *s, const struct stk_stack *st,
		     uint32_t func, bool innermost)
{
	long d;

	if (innermost) {
		for (d = 0; d < (long)st->depth; d++)
			if (row_of(s, st, d) == func)
				return d;
		return -1;
	}
	for (d = (long)st->depth - 1; d >= 0; d--)
		if (row_of(s, st, d) == func)
			return d;
	return -1;
}

const struct stk_node *stacks_tree_entry(struct stacks *s, uint32_t func,
					 bool callee_order, bool self_only,
					 size_t *n)
{
	const struct stk_stack *st;
	size_t i;

	*n = 0;
	if (func >= s->nfunc) {
		errno = EINVAL;
		return NULL;
	}
	func = s->func[func].row;
	if (tree_start(s, STK_NONE) != 0)
		return NULL;
	STACKS_FOR_EACH(s, i, st) {
		long at = frame_of(s, st, func, callee_order);
		bool leaf = st->depth && row_of(s, st, 0) == func;
		int rc;

		if (at < 0 || (self_only && !leaf))
			continue;
		if (callee_order)
			rc = add_path(s, st, at, (long)st->depth, 1, false,
				      true);
		else if (leaf)		/* taken in func: the whole chain */
			rc = add_path(s, st, (long)st->depth - 1, -1, -1,
				      false, true);
		else
			rc = add_path(s, st, at, -1, -1, false, true);
		if (rc != 0)
			return NULL;
	}
	if (order_children(s) != 0)
		return NULL;
	*n = s->nnode;
	return s->node;
}

const struct stk_node *stacks_tree_where(struct stacks *s, bool callee_order,
					 stacks_keep_fn *keep, void *arg,
					 size_t *n)
{
	const struct stk_stack *st;
	size_t i;

	*n = 0;
	if (tree_start(s, STK_NONE) != 0)
		return NULL;
	STACKS_FOR_EACH(s, i, st) {
		int rc;

		if (!keep(s, st, arg))
			continue;
		if (callee_order)
			rc = add_path(s, st, 0, (long)st->depth, 1, false, true);
		else
			rc = add_path(s, st, (long)st->depth - 1, -1, -1, false,
				      true);
		if (rc != 0)
			return NULL;
	}
	if (order_children(s) != 0)
		return NULL;
	*n = s->nnode;
	return s->node;
}

const struct stk_node *stacks_tree(struct stacks *s, enum stk_tree kind,
				   uint32_t func, size_t *n)
{
	const struct stk_stack *st;
	size_t i;

	*n = 0;
	if (kind != STK_TREE_ROOT && func >= s->nfunc) {
		errno = EINVAL;
		return NULL;
	}
	if (kind != STK_TREE_ROOT)
		func = s->func[func].row;
	if (tree_start(s, kind == STK_TREE_ROOT ? STK_NONE : func) != 0)
		return NULL;
	STACKS_FOR_EACH(s, i, st) {
		long at;
		int rc = 0;

		if (kind == STK_TREE_ROOT) {
			rc = add_path(s, st, (long)st->depth - 1, -1, -1, false,
				      false);
		} else if (kind == STK_TREE_CALLEES) {
			/* the outermost frame of func, down to the leaf */
			at = frame_of(s, st, func, false);
			if (at >= 0)
				rc = add_path(s, st, at - 1, -1, -1, false,
					      true);
		} else {
			/* the innermost frame of func, up to the root */
			at = frame_of(s, st, func, true);
			if (at >= 0)
				rc = add_path(s, st, at + 1, (long)st->depth, 1,
					      at == 0, true);
		}
		if (rc != 0)
			return NULL;
	}
	if (order_children(s) != 0)
		return NULL;
	*n = s->nnode;
	return s->node;
}

uint32_t stacks_tree_next(const struct stk_node *nd, uint32_t at)
{
	if (nd[at].child != STK_NONE)
		return nd[at].child;
	/* up until a node has a next sibling; the root (0) has none */
	while (at && nd[at].next == STK_NONE)
		at = nd[at].parent;
	return at ? nd[at].next : STK_NONE;
}
