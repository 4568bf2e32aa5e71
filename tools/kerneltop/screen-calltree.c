/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-calltree.c - kerneltop -g: the callers of one function (Enter on
 * its row), or by a key its callees, as a tree with each node's share of
 * all samples.  The tree is taken afresh from the decaying chains at
 * each draw (not while paused) and kept: the keys act on the tree drawn.
 * Which nodes are open is a struct tree (tree.h), by their path from
 * the root, so that it survives the refreshes.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/escape.h"
#include "screen.h"
#include "tree.h"
#include "util/die.h"
#include "util/xmalloc.h"

#define CALLTREE_FIRST 3	/* title, totals, column header */

/* A line of the tree: a node, and its path from the root. */
struct calltree_line {
	uint32_t node;
	uint64_t path;
};

struct calltree_screen {
	uint32_t func;			/* whose callers or callees */
	bool callees;
	struct stk_node *nodes;		/* the tree drawn (a copy) */
	size_t nnodes, anodes;
	bool taken;
	struct tree open;		/* the nodes open */
	struct calltree_line *vis;	/* the lines shown */
	size_t nvis, avis;
	struct list list;
};

/* The chains the tree is read from: the shown profile's, decaying. */
static struct stacks *view_chains(const struct tui *t)
{
	return profile_chains(kt_profile(t->kt, t->view));
}

/* A node's path: its function's after its parent's. */
static uint64_t path_of(uint64_t parent, uint32_t func)
{
	return tree_path(parent, &func, sizeof(func));
}

/* Whether the node of line i is open: the root always is, a node
   without children never. */
static bool line_open(const struct calltree_screen *c, size_t i)
{
	return i == 0 || (c->nodes[c->vis[i].node].child != STK_NONE &&
			  tree_is_open(&c->open, c->vis[i].path));
}

/* The tree from the chains now, unless the view is paused. */
static void take(struct tui *t, struct calltree_screen *c)
{
	const struct stk_node *nd;
	size_t n;

	if (c->taken && t->view->paused)
		return;
	nd = stacks_tree(view_chains(t), c->callees ? STK_TREE_CALLEES
						   : STK_TREE_CALLERS,
			 c->func, &n);
	if (!nd || ARRAY_GROW(c->nodes, n, c->anodes) != 0)
		die_nomem();
	memcpy(c->nodes, nd, n * sizeof(*nd));
	c->nnodes = n;
	c->taken = true;
}

/* The lines shown of the tree kept: the root, and the children of every
   open node, depth first. */
static void visible(struct calltree_screen *c)
{
	const struct stk_node *nd = c->nodes;
	size_t k = 0;
	uint32_t at;

	if (ARRAY_GROW(c->vis, c->nnodes, c->avis) != 0)
		die_nomem();
	c->vis[k++] = (struct calltree_line){ 0, path_of(c->callees,
							 c->func) };
	for (at = nd[0].child; at != STK_NONE;) {
		uint64_t parent = c->vis[k - 1].path;
		size_t j;

		/* the parent's path: the last shown line one level up */
		for (j = k; j-- > 0;)
			if (nd[c->vis[j].node].depth == nd[at].depth - 1) {
				parent = c->vis[j].path;
				break;
			}
		c->vis[k].node = at;
		c->vis[k].path = path_of(parent, nd[at].func);
		/* into the children of an open node, else past them */
		if (nd[at].child != STK_NONE &&
		    tree_is_open(&c->open, c->vis[k].path)) {
			k++;
			at = nd[at].child;
			continue;
		}
		k++;
		while (at && nd[at].next == STK_NONE)
			at = nd[at].parent;
		at = at ? nd[at].next : STK_NONE;
	}
	c->nvis = k;
	list_place(&c->list, k, CALLTREE_FIRST);
}

static bool calltree_draw(struct tui *t, struct screen *s)
{
	struct calltree_screen *c = s->data;
	const struct stk_func *f = stacks_func(view_chains(t), c->func);
	uint64_t total = stacks_total(view_chains(t));
	const struct stk_node *nd;
	char line[KT_LINE], name[KT_LINE], dso[KT_LINE];
	size_t i;

	take(t, c);
	visible(c);
	nd = c->nodes;
	esc_visible(name, sizeof(name), f->name);
	esc_visible(dso, sizeof(dso), f->dso);
	snprintf(line, sizeof(line), "%s of %s (%s)",
		 c->callees ? "Callees" : "Callers", name, dso);
	term_line(0, line, A_REVERSE);
	snprintf(line, sizeof(line), "Children %.2f%% (%" PRIu64 " samples "
		 "with it in the chain), Self %.2f%% (in it); shares of all "
		 "samples", total ? 100.0 * (double)nd[0].total /
				    (double)total : 0.0, nd[0].total,
		 total ? 100.0 * (double)nd[0].self / (double)total : 0.0);
	term_line(1, line, 0);
	snprintf(line, sizeof(line), "%8s %10s  %s", "Share", "Samples",
		 c->callees ? "Callee" : "Caller");
	term_line(2, line, A_BOLD);
	for (i = c->list.top; i < list_end(&c->list); i++) {
		const struct stk_node *x = &nd[c->vis[i].node];
		const struct stk_func *g = stacks_func(view_chains(t), x->func);
		char mark = x->child == STK_NONE ? ' '
			    : line_open(c, i) ? '-' : '+';

		esc_visible(name, sizeof(name), g->name);
		esc_visible(dso, sizeof(dso), g->dso);
		snprintf(line, sizeof(line), "%7.2f%% %10" PRIu64 "  %*s%c %s%s"
			 "  %s", total ? 100.0 * (double)x->total /
					 (double)total : 0.0, x->total,
			 2 * (int)x->depth, "", mark, name,
			 g->mode == 'k' ? " [k]" : "", dso);
		term_line(list_y(&c->list, i), line, list_attr(&c->list, i));
	}
	if (nd[0].total == 0)
		term_line(CALLTREE_FIRST + 1, "  (no samples in the chains "
			  "any more: they decayed)", 0);
	return false;
}

/* The selected line of the tree drawn: its node. */
static const struct stk_node *sel_node(const struct calltree_screen *c)
{
	return &c->nodes[c->vis[c->list.sel].node];
}

/* Enter: open or close the selected node; Right, +: open it. */
static void toggle(struct calltree_screen *c, bool open)
{
	uint64_t path = c->vis[c->list.sel].path;

	if (c->list.sel && sel_node(c)->child != STK_NONE)
		tree_set_open(&c->open, path, open);
	visible(c);
}

static void key_toggle(struct tui *t, struct screen *s)
{
	struct calltree_screen *c = s->data;

	(void)t;
	toggle(c, !line_open(c, c->list.sel));
}

static void key_open(struct tui *t, struct screen *s)
{
	(void)t;
	toggle(s->data, true);
}

/* Left: close the selected node, or go up to its parent; at the root,
   back as on every screen. */
static void key_up(struct tui *t, struct screen *s)
{
	struct calltree_screen *c = s->data;
	size_t i;

	if (c->list.sel && line_open(c, c->list.sel)) {
		tree_set_open(&c->open, c->vis[c->list.sel].path, false);
		visible(c);
		return;
	}
	if (!c->list.sel) {
		screen_back(t);
		return;
	}
	for (i = c->list.sel; i-- > 0;)
		if (c->nodes[c->vis[i].node].depth < sel_node(c)->depth) {
			c->list.sel = i;
			break;
		}
}

static void key_callees(struct tui *t, struct screen *s)
{
	struct calltree_screen *c = s->data;

	c->callees = !c->callees;
	tree_close_all(&c->open);
	list_reset(&c->list);
	c->taken = false;	/* the other tree, even paused */
	take(t, c);
	visible(c);
}

/* E: every node open, C: the root and its children only; nodes that
   come later follow. */
static void key_expand(struct tui *t, struct screen *s)
{
	struct calltree_screen *c = s->data;

	(void)t;
	tree_open_all(&c->open);
	visible(c);
}

static void key_collapse(struct tui *t, struct screen *s)
{
	struct calltree_screen *c = s->data;

	(void)t;
	tree_close_all(&c->open);
	visible(c);
}

static const struct screen_key calltree_keys[] = {
	{ "Enter", { '\n', '\r', KEY_ENTER }, "open or close the node",
	  "Enter expand/collapse", FOOT_ALWAYS, key_toggle },
	{ "Right +", { KEY_RIGHT, '+' }, "open the node", NULL, FOOT_NEVER,
	  key_open },
	{ "Left -", { KEY_LEFT, '-' },
	  "close the node, or go up to its parent (at the root: back)",
	  "Left up", FOOT_ALWAYS, key_up },
	{ "c", { 'c' }, "the callers or the callees of the function",
	  "c callers/callees", FOOT_ALWAYS, key_callees },
	{ "E", { 'E' }, "open every node, those that come later too",
	  "E expand all", FOOT_ALWAYS, key_expand },
	{ "C", { 'C' }, "close every node: the root and its children only",
	  "C collapse all", FOOT_ALWAYS, key_collapse },
};

/* arg: the function (a uint32_t id of kt->stacks). */
static int calltree_open(struct tui *t, struct screen *s, const void *arg)
{
	struct calltree_screen *c = xcalloc(1, sizeof(*c));

	c->func = *(const uint32_t *)arg;
	s->data = c;
	take(t, c);
	visible(c);
	return 0;
}

static void calltree_close(struct screen *s)
{
	struct calltree_screen *c = s->data;

	free(c->nodes);
	tree_release(&c->open);
	free(c->vis);
	free(c);
}

static struct list *calltree_list(struct screen *s)
{
	struct calltree_screen *c = s->data;

	return &c->list;
}

const struct screen_type screen_calltree = {
	.name = "calltree",
	.open = calltree_open,
	.close = calltree_close,
	.draw = calltree_draw,
	.keys = calltree_keys,
	.nkeys = sizeof(calltree_keys) / sizeof(calltree_keys[0]),
	.list = calltree_list,
};
