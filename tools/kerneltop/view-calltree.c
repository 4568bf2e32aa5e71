/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view-calltree.c - kerneltop -g: the callers of one function (Enter on
 * its row), or by a key its callees, as a tree with each node's share of
 * all samples.  The tree is built afresh from the decaying chains at each
 * draw; which nodes are open is kept by their path from the root, so that
 * it survives the refreshes.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "base/array.h"
#include "base/escape.h"
#include "base/hashtab.h"
#include "tui.h"
#include "util/die.h"
#include "util/xmalloc.h"

#define TREE_FIRST 3		/* title, totals, column header */

/* A node's path: its function's after its parent's. */
static uint64_t path_of(uint64_t parent, uint32_t func)
{
	return hash_bytes(&func, sizeof(func), (size_t)parent + 1);
}

static bool is_open(const struct tui *t, uint64_t path)
{
	size_t i;

	for (i = 0; i < t->cg_nopen; i++)
		if (t->cg_open[i] == path)
			return true;
	return false;
}

static void set_open(struct tui *t, uint64_t path, bool open)
{
	size_t i;

	for (i = 0; i < t->cg_nopen; i++)
		if (t->cg_open[i] == path) {
			if (!open)
				t->cg_open[i] = t->cg_open[--t->cg_nopen];
			return;
		}
	if (!open)
		return;
	if (ARRAY_GROW(t->cg_open, t->cg_nopen + 1, t->cg_aopen) != 0)
		die_nomem();
	t->cg_open[t->cg_nopen++] = path;
}

/* The tree, and the nodes shown: the root, and the children of every
   open node, depth first. */
static const struct stk_node *visible(struct tui *t, size_t *nvis)
{
	const struct stk_node *nd;
	size_t n, k = 0;
	uint32_t at;

	nd = stacks_tree(t->kt->stacks, t->cg_callees ? STK_TREE_CALLEES
						      : STK_TREE_CALLERS,
			 t->cg_func, &n);
	if (!nd)
		die_nomem();
	if (ARRAY_GROW(t->cg_vis, n, t->cg_avis) != 0)
		die_nomem();
	t->cg_vis[k++] = (struct tree_line){ 0, path_of(t->cg_callees,
							t->cg_func) };
	for (at = nd[0].child; at != STK_NONE;) {
		uint64_t parent = t->cg_vis[k - 1].path;
		size_t j;

		/* the parent's path: the last shown line one level up */
		for (j = k; j-- > 0;)
			if (nd[t->cg_vis[j].node].depth == nd[at].depth - 1) {
				parent = t->cg_vis[j].path;
				break;
			}
		t->cg_vis[k].node = at;
		t->cg_vis[k].path = path_of(parent, nd[at].func);
		/* into the children of an open node, else past them */
		if (nd[at].child != STK_NONE && is_open(t, t->cg_vis[k].path)) {
			k++;
			at = nd[at].child;
			continue;
		}
		k++;
		while (at && nd[at].next == STK_NONE)
			at = nd[at].parent;
		at = at ? nd[at].next : STK_NONE;
	}
	*nvis = k;
	return nd;
}

void view_calltree_open(struct tui *t, uint32_t func)
{
	t->cg_func = func;
	t->cg_callees = false;
	t->cg_nopen = 0;
	t->cg_sel = t->cg_first = 0;
	t->screen = SCREEN_CALLTREE;
}

static size_t page(void)
{
	return LINES > TREE_FIRST + 1 ? (size_t)(LINES - TREE_FIRST - 1) : 1;
}

void view_calltree_draw(struct tui *t)
{
	const struct stk_func *f = stacks_func(t->kt->stacks, t->cg_func);
	uint64_t total = stacks_total(t->kt->stacks);
	const struct stk_node *nd;
	char line[KT_LINE], name[KT_LINE], dso[KT_LINE];
	size_t n, i;

	nd = visible(t, &n);
	esc_visible(name, sizeof(name), f->name);
	esc_visible(dso, sizeof(dso), f->dso);
	snprintf(line, sizeof(line), "%s of %s (%s)",
		 t->cg_callees ? "Callees" : "Callers", name, dso);
	tui_line(0, line, A_REVERSE);
	snprintf(line, sizeof(line), "Children %.2f%% (%" PRIu64 " samples "
		 "with it in the chain), Self %.2f%% (in it); shares of all "
		 "samples", total ? 100.0 * (double)nd[0].total /
				    (double)total : 0.0, nd[0].total,
		 total ? 100.0 * (double)nd[0].self / (double)total : 0.0);
	tui_line(1, line, 0);
	snprintf(line, sizeof(line), "%8s %10s  %s", "Share", "Samples",
		 t->cg_callees ? "Callee" : "Caller");
	tui_line(2, line, A_BOLD);
	tui_scroll(&t->cg_sel, &t->cg_first, n, page());
	for (i = t->cg_first; i < n && i < t->cg_first + page(); i++) {
		const struct stk_node *x = &nd[t->cg_vis[i].node];
		const struct stk_func *g = stacks_func(t->kt->stacks, x->func);
		char mark = x->child == STK_NONE ? ' '
			    : is_open(t, t->cg_vis[i].path) || i == 0 ? '-'
								      : '+';

		esc_visible(name, sizeof(name), g->name);
		esc_visible(dso, sizeof(dso), g->dso);
		snprintf(line, sizeof(line), "%7.2f%% %10" PRIu64 "  %*s%c %s%s"
			 "  %s", total ? 100.0 * (double)x->total /
					 (double)total : 0.0, x->total,
			 2 * (int)x->depth, "", mark, name,
			 g->mode == 'k' ? " [k]" : "", dso);
		tui_line(TREE_FIRST + (int)(i - t->cg_first), line,
			 i == t->cg_sel ? A_REVERSE : 0);
	}
	if (nd[0].total == 0)
		tui_line(TREE_FIRST + 1, "  (no samples in the chains any more: "
			 "they decayed)", 0);
	tui_line(LINES - 1, "Enter expand/collapse  Left up  c callers/"
		 "callees  E expand all  q/Esc back", A_REVERSE);
}

void view_calltree_key(struct tui *t, int ch)
{
	const struct stk_node *nd;
	size_t n, i;

	nd = visible(t, &n);
	if (tui_navigate(ch, &t->cg_sel, n, page()))
		return;
	if (t->cg_sel >= n)
		t->cg_sel = n ? n - 1 : 0;
	switch (ch) {
	case 'q': case 27:
		t->screen = SCREEN_MAIN;
		break;
	case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case '+':
		if (t->cg_sel && nd[t->cg_vis[t->cg_sel].node].child != STK_NONE)
			set_open(t, t->cg_vis[t->cg_sel].path,
				 ch == KEY_RIGHT || ch == '+' ||
				 !is_open(t, t->cg_vis[t->cg_sel].path));
		break;
	case KEY_LEFT: case '-':
		/* close it, or go up to its parent */
		if (t->cg_sel && is_open(t, t->cg_vis[t->cg_sel].path)) {
			set_open(t, t->cg_vis[t->cg_sel].path, false);
			break;
		}
		for (i = t->cg_sel; i-- > 0;)
			if (nd[t->cg_vis[i].node].depth <
			    nd[t->cg_vis[t->cg_sel].node].depth) {
				t->cg_sel = i;
				break;
			}
		break;
	case 'c':
		t->cg_callees = !t->cg_callees;
		t->cg_nopen = 0;
		t->cg_sel = t->cg_first = 0;
		break;
	case 'E':
		/* open every node shown, again until none is left closed */
		for (i = 0; i < n; i++) {
			if (nd[t->cg_vis[i].node].child != STK_NONE &&
			    !is_open(t, t->cg_vis[i].path)) {
				set_open(t, t->cg_vis[i].path, true);
				nd = visible(t, &n);
			}
		}
		break;
	default:
		break;
	}
}
