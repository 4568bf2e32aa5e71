/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.h - what a table shows (view.c): the view, and the table read
 * through it that a screen keeps.
 */
#ifndef KERNELTOP_VIEW_H
#define KERNELTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "options.h"
#include "profile/profile.h"
#include "profile/top.h"

struct kt;

/*
 * view.c: what a table shows -- the model's view and the choices of the
 * TUI's keys, apart from the session -- and the one call that reads its
 * rows.  Batch mode has one too, from the command line.
 */
struct kt_view {
	struct top_view top;	/* keys, event, order, zooms, hides, filter,
				   limits; sort_self: rows by Self, not
				   Children (-g) */
	unsigned sort_cycle;	/* `s': index into view_orders[] */
	bool paused;		/* `p': the screens keep what they drew */
	bool self_only;		/* no Children column (-b --no-children) */
	unsigned gen;		/* bumped at each change of what rows are
				   shown (zoom, filter), for the screens
				   to start at the top again */
	char zoom_dso[4096];	/* top.dso points here when set */
	char zoom_comm[32];	/* the zoomed thread's name */
	char filter[128];	/* top.filter points here when set */
	/* the task screen's choices (screen-tasks.c), kept between its
	   openings; tasks_return: its Enter zoomed, Esc goes back there */
	unsigned tasks_sort;	/* index into kt_tasks_orders[] */
	bool tasks_reverse, tasks_processes, tasks_by_uid, tasks_return;
	uid_t tasks_uid;
	char tasks_name[64];
	int metric;		/* `m': the --metric column shown, -1 all
				   (batch); none without a group read */
	enum kt_measure measure;/* `o': the profile shown (--off-cpu) */
};

/* The `s' cycle: the orders, and their names as the status line says. */
struct view_order {
	enum top_order order;
	const char *name;
};
extern const struct view_order view_orders[];
extern const size_t view_norders;

/* The view the command line asks for. */
void view_init(struct kt_view *v, const struct kt *kt);
/* What rows are shown changed: the screens go back to the first. */
void view_changed(struct kt_view *v);
/* Whether v's table has a Children column: -g, one event shown, rows
   grouped by symbol alone, no thread zoom. */
bool view_children(const struct kt *kt, const struct kt_view *v);
/* The profile v shows. */
struct profile *kt_profile(const struct kt *kt, const struct kt_view *v);

/*
 * A table as it was read: a copy of its rows (valid however the models
 * move on; strings are the models' own) and what formats them.  A screen
 * keeps the table it drew and acts on it.
 */
struct kt_table {
	struct top_row *rows;	/* top_rows_dup()'s block */
	size_t n;
	unsigned keys;		/* the view's TOP_KEY_* */
	int event;		/* the view's event, -1 the weight */
	bool children;		/* a Children column */
	bool baseline;		/* a Delta column */
	unsigned cols;		/* KT_COL_* */
	bool group;		/* --group: a share per event, of these */
	unsigned elide;		/* TOP_KEY_* columns not shown: a filter
				   of one name fixes them (perf's elide) */
	uint64_t total[KT_MAX_EVENTS];
	int metric;		/* the view's */
	enum kt_measure measure;/* the view's */
};

/* Read v's rows now into tb (whose old rows go).  Returns 0, or -1 with
   errno ENOMEM (tb then empty). */
int table_take(struct kt_table *tb, struct kt *kt, const struct kt_view *v);
void table_release(struct kt_table *tb);

#endif
