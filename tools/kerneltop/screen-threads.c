/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-threads.c - the thread list (`t'): the threads sampled, by
 * share; Enter zooms the main table into the one highlighted.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/escape.h"
#include "screen.h"
#include "util/die.h"
#include "util/xmalloc.h"

#define THREADS_FIRST 2		/* title, column header */

struct threads_screen {
	struct kt_table tb;	/* the threads drawn, which Enter acts on */
	bool taken;
	struct list list;
};

/* The view's rows by thread: every thread, by share. */
static void take(struct tui *t, struct threads_screen *ts)
{
	struct kt_view v = *t->view;

	if (ts->taken && t->view->paused)
		return;
	v.top.keys = TOP_KEY_TID | TOP_KEY_COMM;
	v.top.order = TOP_BY_SHARE;
	v.top.tid = 0;
	v.top.max_rows = 0;
	v.top.percent_limit = 0;
	if (table_take(&ts->tb, t->kt, &v) != 0)
		die_nomem();
	ts->taken = true;
}

static bool threads_draw(struct tui *t, struct screen *s)
{
	struct threads_screen *ts = s->data;
	const struct top_row *r;
	char line[KT_LINE], comm[64], pad[96];
	int ev;
	size_t i;

	take(t, ts);
	ev = ts->tb.event < 0 ? 0 : ts->tb.event;
	term_line(0, "Threads", A_REVERSE);
	snprintf(line, sizeof(line), "%8s  %-16s %10s %8s", "TID", "COMMAND",
		 "SAMPLES", "SHARE");
	term_line(1, line, A_BOLD);
	list_place(&ts->list, ts->tb.n, THREADS_FIRST);
	for (i = ts->list.top; i < list_end(&ts->list); i++) {
		r = &ts->tb.rows[i];
		esc_visible(comm, sizeof(comm), r->comm);
		snprintf(line, sizeof(line), "%8d  %s %10" PRIu64 " %7.2f%%",
			 (int)r->tid, term_padded(pad, sizeof(pad), comm, 16),
			 r->count[ev], r->share);
		term_line(list_y(&ts->list, i), line,
			  list_attr(&ts->list, i));
	}
	if (!ts->tb.n)
		term_line(THREADS_FIRST, "  (no samples yet)", 0);
	return false;
}

/* Enter: the main table zoomed into the highlighted thread. */
static void key_zoom(struct tui *t, struct screen *s)
{
	struct threads_screen *ts = s->data;
	struct kt_view *v = t->view;
	const struct top_row *r;

	if (!ts->tb.n)
		return;
	r = &ts->tb.rows[ts->list.sel];
	v->top.tid = r->tid;
	snprintf(v->zoom_comm, sizeof(v->zoom_comm), "%s",
		 r->comm ? r->comm : "");
	view_changed(v);
	screen_back(t);
}

static const struct screen_key threads_keys[] = {
	{ "Enter", { '\n', '\r', KEY_ENTER }, "zoom into the thread",
	  "Enter zoom into the thread", FOOT_ALWAYS, key_zoom },
	{ "t", { 't' }, "back to the table", NULL, FOOT_NEVER,
	  screen_back_key },
};

static int threads_open(struct tui *t, struct screen *s, const void *arg)
{
	(void)t;
	(void)arg;
	s->data = xcalloc(1, sizeof(struct threads_screen));
	return 0;
}

static void threads_close(struct screen *s)
{
	struct threads_screen *ts = s->data;

	table_release(&ts->tb);
	free(ts);
}

static struct list *threads_list(struct screen *s)
{
	struct threads_screen *ts = s->data;

	return &ts->list;
}

const struct screen_type screen_threads = {
	.name = "threads",
	.open = threads_open,
	.close = threads_close,
	.draw = threads_draw,
	.keys = threads_keys,
	.nkeys = sizeof(threads_keys) / sizeof(threads_keys[0]),
	.list = threads_list,
};
