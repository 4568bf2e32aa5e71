/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.c - what a table shows: the view of the models that the command
 * line and the TUI's keys choose, and the one place its rows are read --
 * the model's, or with Children shown the call chains' -- into a table
 * that a screen keeps.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kt.h"
#include "options.h"
#include "tasks-table.h"
#include "view.h"

const struct view_order view_orders[] = {
	{ TOP_BY_SHARE, "overhead" }, { TOP_BY_SYM, "sym" },
	{ TOP_BY_DSO, "dso" }, { TOP_BY_COMM, "comm" },
	{ TOP_BY_PID, "pid" }, { TOP_BY_TID, "tid" },
};
const size_t view_norders = sizeof(view_orders) / sizeof(view_orders[0]);

void view_init(struct kt_view *v, const struct kt *kt)
{
	const struct kt_options *o = &kt->opt;

	/* --group: perf's view of a group, rows by the event it sorts by */
	int event = kt->nevents == 1 || kt->group_read ? 0 :
		    o->group ? (int)o->group_sort_idx : -1;

	*v = (struct kt_view){
		.top = TOP_VIEW(.keys = o->keys,
				.event = event,
				.hide_kernel = o->hide_kernel,
				.hide_user = o->hide_user,
				.percent_limit = o->percent_limit,
				.max_rows = o->entries,
				.sort_self = o->no_children,
				.comms = o->comms, .dsos = o->dsos,
				.symbols = o->symbols,
				.count_filter = o->count_filter,
				.relative = o->relative),
		/* perf top --stdio -g --no-children: Self alone */
		.self_only = o->batch && o->no_children,
		.tasks_processes = o->tasks_processes,
		/* batch shows every rate; the screen one, `m' cycling */
		.metric = o->batch ? -1 : 0,
		.measure = kt->measure,
	};
	for (size_t i = 0; i < kt_tasks_norders; i++)
		if (kt_tasks_orders[i] == o->tasks_order)
			v->tasks_sort = (unsigned)i;
}

void view_changed(struct kt_view *v)
{
	v->gen++;
}

bool view_children(const struct kt *kt, const struct kt_view *v)
{
	return profile_chains(kt_profile(kt, v)) && !v->self_only &&
	       v->top.event == 0 &&
	       v->top.keys == TOP_KEY_SYM && !v->top.tid;
}

/* Whether list (--comms, --dsos, --symbols) names exactly one. */
static bool one_name(const char *list)
{
	return list && *list && !strchr(list, ',');
}

/*
 * perf's elide: a column that a filter of one name fixes says nothing,
 * so it goes (the header says the name) -- unless it would take every
 * key asked for, then all stay.  The DSO column is also the one that
 * goes with Symbol here.
 */
static unsigned elided(const struct kt_options *o, unsigned keys)
{
	const unsigned named = TOP_KEY_SYM | TOP_KEY_DSO | TOP_KEY_COMM;
	unsigned e = 0;

	if (one_name(o->comms))
		e |= TOP_KEY_COMM;
	if (one_name(o->dsos))
		e |= TOP_KEY_DSO;
	if (one_name(o->symbols))
		e |= TOP_KEY_SYM;
	if (!(keys & ~named) && !(keys & ~e))
		return 0;		/* nothing asked for would be left */
	return e & (keys & TOP_KEY_SYM ? named : keys);
}

struct profile *kt_profile(const struct kt *kt, const struct kt_view *v)
{
	return kt->prof[v->measure];
}

int table_take(struct kt_table *tb, struct kt *kt, const struct kt_view *v)
{
	bool children = view_children(kt, v);
	struct profile *p = kt_profile(kt, v);
	const struct top_row *rows;
	struct top_row *copy;
	size_t n;

	rows = profile_rows(p, &v->top, children, &n);
	copy = rows ? top_rows_dup(rows, n, kt->nevents) : NULL;
	table_release(tb);
	if (!copy)
		return -1;
	*tb = (struct kt_table){
		.rows = copy, .n = n, .keys = v->top.keys,
		.event = v->top.event, .children = children,
		.baseline = top_baseline_active(profile_top(p)),
		.cols = kt->opt.cols,
		.group = kt->opt.group && kt->nevents > 1 && v->top.event >= 0,
		.elide = elided(&kt->opt, v->top.keys),
		.metric = v->metric, .measure = v->measure,
	};
	for (unsigned i = 0; i < kt->nevents; i++)
		tb->total[i] = top_total(profile_top(p), i);
	return 0;
}

void table_release(struct kt_table *tb)
{
	free(tb->rows);
	*tb = (struct kt_table){ .rows = NULL };
}
