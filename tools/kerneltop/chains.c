/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chains.c - kerneltop -b -g: under each entry, its call graph as perf
 * top --stdio prints it (perf's util/hist.c layout: graph and fractal
 * trees, flat chains, folded lines), from lib/profile's tree of the
 * entry (stacks_tree_entry()), or of -s parent's entry
 * (stacks_tree_where()).  A node of perf's tree is a run of
 * functions without a branch: a function whose samples all go on to one
 * callee (or caller) is printed under it, without a share of its own.
 */
#include "config.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "chains.h"
#include "frame.h"
#include "kt.h"
#include "view.h"
#include "util/die.h"
#include "util/xmalloc.h"

struct chains {
	FILE *out;
	const struct stacks *s;
	const struct stk_node *nd;
	const struct callgraph_print *p;
	uint64_t all;		/* the samples of every entry */
	uint64_t min_hit;	/* graph, flat, folded: shown from */
};

/* Samples that end at node x: its total less its children's. */
static uint64_t hit(const struct chains *c, uint32_t x)
{
	uint64_t t = c->nd[x].total;
	uint32_t k;

	for (k = c->nd[x].child; k != STK_NONE; k = c->nd[k].next)
		t -= c->nd[k].total;
	return t;
}

/* The last node of the run that begins at x. */
static uint32_t run_end(const struct chains *c, uint32_t x)
{
	const struct stk_node *nd = c->nd;

	while (nd[x].child != STK_NONE && nd[nd[x].child].next == STK_NONE &&
	       nd[nd[x].child].total == nd[x].total)
		x = nd[x].child;
	return x;
}

static int cmp_total(const void *pa, const void *pb, void *arg)
{
	const struct stk_node *nd = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (nd[a].total != nd[b].total)
		return nd[a].total < nd[b].total ? 1 : -1;
	return (a > b) - (a < b);	/* the model's order: by name */
}

/* x's children shown, the most samples first: a new array (*n). */
static uint32_t *kids(const struct chains *c, uint32_t x, size_t *n)
{
	const struct stk_node *nd = c->nd;
	uint64_t min = c->min_hit, sum = 0;
	uint32_t *v, k;
	size_t m = 0;

	for (k = nd[x].child; k != STK_NONE; k = nd[k].next, m++)
		sum += nd[k].total;
	v = xcalloc(m ? m : 1, sizeof(*v));
	/* fractal: of the parent's samples that went on (perf rounds up) */
	if (c->p->type == CG_PRINT_FRACTAL) {
		double want = (double)sum * c->p->threshold / 100;

		min = (uint64_t)want + ((double)(uint64_t)want < want);
	}
	*n = 0;
	for (k = nd[x].child; k != STK_NONE; k = nd[k].next)
		if (nd[k].total >= min)
			v[(*n)++] = k;
	qsort_r(v, *n, sizeof(*v), cmp_total, (void *)nd);
	return v;
}

static void name(const struct chains *c, uint32_t x, char *buf, size_t size)
{
	esc_visible(buf, size, stacks_func(c->s, c->nd[x].func)->name);
}

static void margin(const struct chains *c, int left)
{
	fprintf(c->out, "%*s", 12 + left, "");
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* A line of a node's run: the first with its share, the rest plain. */
static void graph_entry(const struct chains *c, const char *what,
			uint64_t value, uint64_t total, int depth,
			unsigned mask, bool first, int left)
{
	int i;

	margin(c, left);
	for (i = 0; i < depth; i++) {
		fputc(mask & (1u << i) ? '|' : ' ', c->out);
		if (first && i == depth - 1)
			fprintf(c->out, "--%.2f%%--", pct(value, total));
		else
			fputs("          ", c->out);
	}
	fprintf(c->out, "%s\n", what);
}

/* The separator before a node: the pipes of the levels above. */
static void graph_line(const struct chains *c, int depth, unsigned mask,
		       int left)
{
	int i;

	margin(c, left);
	for (i = 0; i < depth; i++)
		fputs(mask & (1u << i) ? "|          " : "           ", c->out);
	fputc('\n', c->out);
}

/* perf's __callchain__fprintf_graph(): the children of x, depth down. */
static void graph(const struct chains *c, uint32_t x, uint64_t total,
		  int depth, unsigned mask, int left)
{
	const struct stk_node *nd = c->nd;
	bool fractal = c->p->type == CG_PRINT_FRACTAL;
	unsigned new_mask = mask, printed = 0;
	uint64_t remaining = total;
	char buf[KT_LINE];
	uint32_t *v;
	size_t n, i;

	/* past 31 levels the pipes would overflow the mask: perf's limit */
	if (depth >= 31)
		return;
	v = kids(c, x, &n);
	for (i = 0; i < n; i++) {
		uint32_t at = v[i], end = run_end(c, at);
		bool first = true;

		remaining -= nd[at].total;
		if (i + 1 == n && (!fractal || !remaining))
			new_mask &= ~(1u << (depth - 1));
		graph_line(c, depth, mask, left);
		for (;; at = nd[at].child) {
			name(c, at, buf, sizeof(buf));
			graph_entry(c, buf, nd[v[i]].total, total, depth,
				    new_mask, first, left);
			first = false;
			if (at == end)
				break;
		}
		graph(c, end, fractal ? nd[end].total - hit(c, end) : total,
		      depth + 1, new_mask | (1u << depth), left);
		if (++printed == c->p->limit)
			break;
	}
	if (fractal && remaining && remaining != total)
		graph_entry(c, "[...]", remaining, total, depth,
			    new_mask & ~(1u << (depth - 1)), true, left);
	free(v);
}

/* perf's callchain__fprintf_graph(): a root that holds every sample of
   the entry is printed as "---" and its run, without a share (the
   entry's); roots that share them, as branches. */
static void print_graph(const struct chains *c)
{
	const struct stk_node *nd = c->nd;
	uint64_t total = c->p->type == CG_PRINT_FRACTAL ? nd[0].total
							 : c->all;
	char buf[KT_LINE];
	unsigned shown = 0;
	uint32_t *v, at, end;
	size_t n;
	int left = 0;

	v = kids(c, 0, &n);
	if (n == 0) {
		free(v);
		return;
	}
	at = v[0];
	end = 0;
	if (n == 1 && nd[at].total == nd[0].total) {
		end = run_end(c, at);
		margin(c, 0);
		fputs("|\n", c->out);
		margin(c, 0);
		fputs("---", c->out);
		left = 3;
		for (;; at = nd[at].child) {
			if (shown)
				margin(c, left);
			name(c, at, buf, sizeof(buf));
			fprintf(c->out, "%s\n", buf);
			if (at == end || ++shown == c->p->limit)
				break;
		}
		end = run_end(c, v[0]);
	}
	free(v);
	graph(c, end, total, 1, 1, left);
	fputc('\n', c->out);
}

/* The nodes with samples that end there, the most first: a new array. */
static uint32_t *ends(const struct chains *c, size_t nnodes, size_t *n)
{
	uint32_t *v = xcalloc(nnodes, sizeof(*v)), x;

	*n = 0;
	for (x = 1; x < nnodes; x++) {
		uint64_t h = hit(c, x);

		if (h && h >= c->min_hit)
			v[(*n)++] = x;
	}
	return v;
}

static int cmp_hit(const void *pa, const void *pb, void *arg)
{
	const struct chains *c = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	uint64_t ha = hit(c, a), hb = hit(c, b);

	if (ha != hb)
		return ha < hb ? 1 : -1;
	return (a > b) - (a < b);
}

/* The functions from the top down to x: ';'-joined (folded), or a
   line each. */
static void path(const struct chains *c, uint32_t x, bool folded)
{
	char buf[KT_LINE];

	if (c->nd[x].parent != 0) {
		path(c, c->nd[x].parent, folded);
		if (folded)
			fputc(';', c->out);
	}
	name(c, x, buf, sizeof(buf));
	fprintf(c->out, folded ? "%s" : "                %s\n", buf);
}

/* flat: each chain whole, one function a line; folded: one a line. */
static void print_chains(const struct chains *c, size_t nnodes)
{
	bool folded = c->p->type == CG_PRINT_FOLDED;
	size_t n, i;
	uint32_t *v = ends(c, nnodes, &n);

	qsort_r(v, n, sizeof(*v), cmp_hit, (void *)c);
	for (i = 0; i < n && (!c->p->limit || i < c->p->limit); i++) {
		if (folded) {
			fprintf(c->out, "%.2f%% ",
				pct(hit(c, v[i]), c->all));
			path(c, v[i], true);
			fputc('\n', c->out);
			continue;
		}
		fprintf(c->out, "           %.2f%%\n",
			pct(c->nd[v[i]].total, c->all));
		path(c, v[i], false);
		fputc('\n', c->out);
	}
	free(v);
}

/* -s parent: the stacks whose parent symbol (session.c's rule: the
   first name from the leaf up that the pattern matches) is arg's. */
struct parent_pick {
	const struct kt *kt;
	const char *parent;
};

static bool same_parent(const struct stacks *s, const struct stk_stack *st,
			void *arg)
{
	const struct parent_pick *pp = arg;
	uint32_t d;

	for (d = 0; d < st->depth; d++) {
		const struct stk_func *f =
			stacks_func(s, stacks_frame(s, st->frame[d])->func);

		if (f->resolved &&
		    regexec(&pp->kt->parent_re, f->name, 0, NULL, 0) == 0)
			return strcmp(f->name, pp->parent) == 0;
	}
	return strcmp(KT_PARENT_OTHER, pp->parent) == 0;
}

/* The tree perf prints under r: a function's (sym) or the chains of
   r's samples (parent); NULL where r has none. */
static const struct stk_node *entry_tree(const struct kt *kt,
					 const struct kt_table *tb,
					 const struct top_row *r, bool callee,
					 size_t *n)
{
	struct stacks *chains = profile_chains(kt->prof[tb->measure]);
	const struct stk_node *nd;
	uint32_t func;

	if (tb->keys == TOP_KEY_PARENT) {
		struct parent_pick pp = { kt, r->parent ? r->parent : "" };

		nd = stacks_tree_where(chains, callee, same_parent, &pp, n);
	} else if (tb->keys == TOP_KEY_SYM && r->sym && r->dso) {
		func = stacks_func_find(chains, r->sym, r->dso);
		if (func == STK_NONE)
			return NULL;
		nd = stacks_tree_entry(chains, func, callee,
				       kt->opt.no_children, n);
	} else {
		return NULL;
	}
	if (!nd)
		die_nomem();
	return nd;
}

void chains_print(const struct kt *kt, const struct kt_table *tb,
		  const struct top_row *r, FILE *out)
{
	const struct callgraph_print *p = &kt->opt.cg_print;
	bool callee = p->order_set ? p->callee : kt->opt.no_children;
	struct chains c = { .out = out, .p = p };
	size_t n;

	c.s = profile_chains(kt->prof[tb->measure]);
	if (!c.s || p->type == CG_PRINT_NONE || tb->event != 0)
		return;
	c.nd = entry_tree(kt, tb, r, callee, &n);
	if (!c.nd)
		return;
	c.all = stacks_total(c.s);
	c.min_hit = (uint64_t)((double)c.all * p->threshold / 100);
	if (p->type == CG_PRINT_GRAPH || p->type == CG_PRINT_FRACTAL)
		print_graph(&c);
	else
		print_chains(&c, n);
}
