/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * callgraph.c - kerneltop -g: each row's Children (the samples with its
 * function anywhere in the chain, from lib/profile/stacks) beside its
 * Self (the samples in the function itself, the model's count), the rows
 * ordered by Children, and the chains written as exports.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/array.h"
#include "kerneltop.h"
#include "util/die.h"
#include "util/output.h"

bool kt_children_shown(const struct kt *kt)
{
	return kt->stacks && kt->view.event == 0 &&
	       kt->view.keys == TOP_KEY_SYM && !kt->view.tid;
}

/* Whether the view hides function f (the zooms and filters of top's
   views, which the rows from the chains honour the same way). */
static bool hidden(const struct kt *kt, const struct stk_func *f)
{
	const struct top_view *v = &kt->view;

	return (v->dso && strcmp(v->dso, f->dso) != 0) ||
	       (v->hide_kernel && f->mode == 'k') ||
	       (v->hide_user && f->mode == '.') ||
	       (v->filter && *v->filter && !strstr(f->name, v->filter));
}

static int cmp_field(const void *a, const void *b, void *arg)
{
	const struct top_row *x = a, *y = b;
	const struct kt *kt = arg;
	int c = kt->view.order == TOP_BY_DSO ? strcmp(x->dso, y->dso)
					     : strcmp(x->sym, y->sym);

	return c ? c : (x->share < y->share) - (x->share > y->share);
}

/*
 * With Children shown, the rows are the functions of the chains, callers
 * included (a caller has no samples of its own, so the model has no row
 * for it): Children, and Self and Samples from the same counts.
 */
const struct top_row *kt_rows(struct kt *kt, size_t *n)
{
	const struct stk_total *t;
	uint64_t total;
	size_t m, i, k;

	*n = 0;
	if (!kt_children_shown(kt)) {
		const struct top_row *rows = top_rows(kt->top, &kt->view, n);

		if (!rows)
			*n = 0;
		return rows;
	}
	t = stacks_totals(kt->stacks, kt->sort_self, &m);
	if (!t || ARRAY_GROW(kt->sorted, m + 1, kt->asorted) != 0 ||
	    ARRAY_GROW(kt->children, m + 1, kt->achildren) != 0 ||
	    ARRAY_GROW(kt->selfs, m + 1, kt->aselfs) != 0)
		return NULL;
	total = stacks_total(kt->stacks);
	for (i = k = 0; i < m; i++) {
		const struct stk_func *f = stacks_func(kt->stacks, t[i].func);
		double share = total ? 100.0 * (double)(kt->sort_self ?
				t[i].self : t[i].children) / (double)total : 0;

		if (hidden(kt, f) || share < kt->view.percent_limit)
			continue;
		kt->selfs[k] = t[i].self;
		kt->children[k] = t[i].children;
		kt->sorted[k] = (struct top_row){
			.sym = f->name, .dso = f->dso,
			.mode = f->mode == 'k' || f->mode == 'h' ? 'k' : '.',
			.count = &kt->selfs[k],
			.share = total ? 100.0 * (double)t[i].self /
				 (double)total : 0,
			.weight = (double)t[i].self };
		k++;
	}
	/* a row keeps its counts through the sort: count points to them */
	if (kt->view.order == TOP_BY_SYM || kt->view.order == TOP_BY_DSO)
		qsort_r(kt->sorted, k, sizeof(*kt->sorted), cmp_field, kt);
	if (kt->view.max_rows && k > kt->view.max_rows)
		k = kt->view.max_rows;
	*n = k;
	return kt->sorted;
}

bool kt_children(const struct kt *kt, const struct top_row *r,
		 uint64_t *children)
{
	if (!kt_children_shown(kt) || r < kt->sorted ||
	    r >= kt->sorted + kt->asorted)
		return false;
	*children = kt->children[r->count - kt->selfs];
	return true;
}

static struct export_meta meta(struct kt *kt, char *target, size_t size)
{
	struct timespec ts;

	frame_target(kt, target, size);
	clock_gettime(CLOCK_REALTIME, &ts);
	/* -p: the (first) process's program is the profile's */
	return EXPORT_META(.tool = "kerneltop", .target = target,
			   .program = kt->scope == FEED_PROCESSES &&
				      kt->opt.nids ?
				      symbols_program(kt->sym, kt->opt.ids[0]) :
				      NULL,
			   .event = kt->names[0], .attr = feed_attr(kt->feed, 0),
			   .time_ns = kt->start_ns,
			   .duration_ns = (uint64_t)ts.tv_sec * 1000000000u +
					  (uint64_t)ts.tv_nsec - kt->start_ns,
			   .sym = kt->sym);
}

int kt_exports_write(struct kt *kt)
{
	char target[KT_LINE];
	struct export_meta m;

	if (!kt->stacks_all)
		return 0;
	m = meta(kt, target, sizeof(target));
	return exports_write(&kt->opt.exports, kt->stacks_all, &m);
}

void kt_snapshot(struct kt *kt, char *msg, size_t size)
{
	char name[64], cwd[PATH_MAX], target[KT_LINE];
	struct stacks *s = kt->stacks ? kt->stacks : kt->stacks_all;
	time_t now = time(NULL);
	struct export_meta m;
	struct tm tm;

	if (!s) {
		snprintf(msg, size, "no call chains to save: start kerneltop "
			 "with -g");
		return;
	}
	localtime_r(&now, &tm);
	strftime(name, sizeof(name), "kerneltop-%Y%m%d-%H%M%S.svg", &tm);
	m = meta(kt, target, sizeof(target));
	if (export_write(s, EXPORT_SVG, name, &m) != 0) {
		snprintf(msg, size, "cannot save %s: %s%s", name,
			 output_strerror(errno), exports_fix(errno));
		return;
	}
	snprintf(msg, size, "flame graph saved to %s/%s",
		 getcwd(cwd, sizeof(cwd)) ? cwd : ".", name);
}

void kt_callgraph_release(struct kt *kt)
{
	stacks_free(kt->stacks);
	stacks_free(kt->stacks_all);
	free(kt->sorted);
	free(kt->children);
	free(kt->selfs);
}
