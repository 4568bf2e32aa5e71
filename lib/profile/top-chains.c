/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * top-chains.c - a view's rows read from call chains: every function of
 * the chains, callers included, with its Children beside its Self, under
 * the same view (zooms, hides, filter, limits) as the model's own rows.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/stacks.h"
#include "profile/top-internal.h"

/* What orders the rows by share: Children, or Self. */
static uint64_t chain_key(const struct top_row *r, bool self)
{
	return self ? r->count[0] : r->children;
}

static int chain_cmp(const void *pa, const void *pb, void *arg)
{
	const struct top_row *a = pa, *b = pb;
	const struct top_view *v = arg;
	uint64_t ka = chain_key(a, v->sort_self), kb = chain_key(b, v->sort_self);
	int c = top_order_cmp(v->order, a, b);

	if (!c)
		c = (ka < kb) - (ka > kb);
	if (!c)
		c = strcmp(a->sym, b->sym);
	if (!c)
		c = strcmp(a->dso, b->dso);
	return c ? c : (a->mode > b->mode) - (a->mode < b->mode);
}

const struct top_row *top_rows_chains(struct top *t, struct stacks *s,
				      const struct top_view *view, size_t *n)
{
	unsigned ne = t->nevents;
	const struct stk_total *tot;
	struct top_view v;
	uint64_t total;
	size_t m, i, k;

	*n = 0;
	if (top_view_get(&v, view, ne) != 0)
		return NULL;
	if (v.keys != TOP_KEY_SYM || v.event != 0 || v.tid) {
		errno = EINVAL;
		return NULL;
	}
	tot = stacks_totals(s, v.sort_self, &m);
	/* m * ne cannot overflow: stacks holds m functions of more bytes */
	if (!tot || ARRAY_GROW(t->rows, m ? m : 1, t->rows_alloc) != 0 ||
	    ARRAY_GROW(t->sums, m ? 2 * m * ne : 1, t->sums_alloc) != 0)
		return NULL;
	total = stacks_total(s);
	for (i = k = 0; i < m; i++) {
		const struct stk_func *f = stacks_func(s, tot[i].func);
		/* the model's modes: a guest's user code is user code */
		char mode = f->mode == 'g' ? '.' : f->mode;
		uint64_t *count = &t->sums[2 * k * ne];	/* then periods */
		struct top_row *r = &t->rows[k];

		if (!top_view_shows(&v, f->name, f->dso, mode, 0))
			continue;
		memset(count, 0, 2 * ne * sizeof(*count));
		count[0] = tot[i].self;
		*r = (struct top_row){
			.sym = f->name, .dso = f->dso, .mode = mode,
			.count = count, .period = count + ne,
			.share = top_percent(tot[i].self, total),
			.weight = (double)tot[i].self,
			.cause = f->cause,
			.has_children = true,
			.children = tot[i].children,
			.children_share = top_percent(tot[i].children, total),
		};
		if ((v.sort_self ? r->share : r->children_share) <
		    v.percent_limit)
			continue;
		k++;
	}
	qsort_r(t->rows, k, sizeof(*t->rows), chain_cmp, &v);
	if (v.max_rows && k > v.max_rows)
		k = v.max_rows;
	*n = k;
	return t->rows;
}
