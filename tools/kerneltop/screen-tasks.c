/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-tasks.c - the task table (`T'): a row per thread, or per
 * process (`H'), with tiptop's columns; sorted by any column (`s' cycles,
 * `r' reverses), filtered by name (`/') or user (`u'); Enter zooms the
 * profile into the highlighted task, and Esc there comes back here.
 */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "screen.h"
#include "tasks-table.h"
#include "util/die.h"
#include "util/xmalloc.h"

#define TASKS_FIRST 4		/* header, notices, status, column header */

struct tasks_screen {
	struct kt *kt;
	const struct kt_view *view;
	struct tasks_row *rows;	/* the rows drawn, which Enter acts on */
	char (*comm)[17];	/* their names (the model's may go) */
	size_t n;
	bool taken;
	struct list list;
	struct prompt prompt;	/* `/' a name, `u' a user */
};

/* The task view of the screen's choices (kept in t->view). */
static struct tasks_view tview(const struct kt_view *v)
{
	return TASKS_VIEW(.processes = v->tasks_processes,
			  .order = kt_tasks_orders[v->tasks_sort],
			  .reverse = v->tasks_reverse,
			  .name = v->tasks_name[0] ? v->tasks_name : NULL,
			  .by_uid = v->tasks_by_uid, .uid = v->tasks_uid);
}

/* A copy of the last frame's rows, unless the view is paused. */
static void take(struct tui *t, struct tasks_screen *ts)
{
	struct tasks_view v = tview(t->view);
	const struct tasks_row *r;
	size_t n;

	if (ts->taken && t->view->paused)
		return;
	r = tasks_rows(t->kt->tasks, &v, &n);
	if (!r)
		die_nomem();
	free(ts->rows);
	free(ts->comm);
	ts->rows = xmalloc((n + 1) * sizeof(*ts->rows));
	ts->comm = xmalloc((n + 1) * sizeof(*ts->comm));
	for (size_t i = 0; i < n; i++) {
		ts->rows[i] = r[i];
		snprintf(ts->comm[i], sizeof(ts->comm[i]), "%s", r[i].comm);
		ts->rows[i].comm = ts->comm[i];
	}
	ts->n = n;
	ts->taken = true;
}

static bool tasks_draw(struct tui *t, struct screen *s)
{
	struct tasks_screen *ts = s->data;
	struct tasks_view v = tview(t->view);
	char line[KT_LINE];

	take(t, ts);
	tasks_table_header(t->kt, &v, 0, line, sizeof(line));
	term_line(0, line, A_BOLD);
	tasks_table_header(t->kt, &v, 1, line, sizeof(line));
	term_line(1, line, 0);
	term_line(2, t->msg, A_BOLD);
	tasks_table_columns(t->kt, &v, line, sizeof(line));
	term_line(3, line, A_REVERSE);
	list_place(&ts->list, ts->n, TASKS_FIRST);
	for (size_t i = ts->list.top; i < list_end(&ts->list); i++) {
		tasks_table_row(t->kt, &v, &ts->rows[i], line, sizeof(line));
		term_line(list_y(&ts->list, i), line, list_attr(&ts->list, i));
	}
	if (!ts->n)
		term_line(TASKS_FIRST, "  (no task to show: none counted or "
			  "sampled yet, or the filter passes none)", 0);
	if (!ts->prompt.on) {
		curs_set(0);
		return false;
	}
	prompt_draw(&ts->prompt);
	return true;
}

/* Enter: the profile zoomed into the task (a process: its main
   thread); Esc there comes back. */
static void key_zoom(struct tui *t, struct screen *s)
{
	struct tasks_screen *ts = s->data;
	struct kt_view *v = t->view;
	const struct tasks_row *r;

	if (!ts->n)
		return;
	r = &ts->rows[ts->list.sel];
	v->top.tid = r->tid ? r->tid : r->pid;
	snprintf(v->zoom_comm, sizeof(v->zoom_comm), "%s", r->comm);
	v->tasks_return = true;
	view_changed(v);
	screen_back(t);
}

static void key_sort(struct tui *t, struct screen *s)
{
	struct kt_view *v = t->view;

	(void)s;
	/* a column not shown is no order to pick */
	do
		v->tasks_sort = (v->tasks_sort + 1) %
				(unsigned)kt_tasks_norders;
	while (!tasks_table_shown(t->kt, kt_tasks_orders[v->tasks_sort]));
	snprintf(t->msg, sizeof(t->msg), "sort: %s",
		 tasks_cols[kt_tasks_orders[v->tasks_sort]].head);
}

static void key_reverse(struct tui *t, struct screen *s)
{
	(void)s;
	t->view->tasks_reverse = !t->view->tasks_reverse;
}

static void key_processes(struct tui *t, struct screen *s)
{
	struct tasks_screen *ts = s->data;

	t->view->tasks_processes = !t->view->tasks_processes;
	list_reset(&ts->list);
	snprintf(t->msg, sizeof(t->msg), "a row per %s",
		 t->view->tasks_processes ? "process" : "thread");
}

static void key_comm(struct tui *t, struct screen *s)
{
	struct tasks_screen *ts = s->data;

	(void)t;
	prompt_start(&ts->prompt, "name");
}

static void key_user(struct tui *t, struct screen *s)
{
	struct tasks_screen *ts = s->data;

	(void)t;
	prompt_start(&ts->prompt, "user");
}

/* A user's name or number, into the view; false (and a message) when
   there is no such user. */
static bool user_set(struct tui *t, const char *in)
{
	struct kt_view *v = t->view;
	struct passwd *pw;
	char *end;
	unsigned long n;

	v->tasks_by_uid = false;
	if (!in[0])
		return true;
	pw = getpwnam(in);
	if (pw) {
		v->tasks_uid = pw->pw_uid;
	} else {
		errno = 0;
		n = strtoul(in, &end, 10);
		if (errno || *end || end == in || n >= (uid_t)-1) {
			snprintf(t->msg, sizeof(t->msg), "no user '%.64s' "
				 "(a name from /etc/passwd or a number)", in);
			return false;
		}
		v->tasks_uid = (uid_t)n;
	}
	v->tasks_by_uid = true;
	return true;
}

/* The prompt, while it is open: Enter applies, Esc cancels. */
static bool tasks_key(struct tui *t, struct screen *s, int ch)
{
	struct tasks_screen *ts = s->data;
	struct kt_view *v = t->view;

	if (!ts->prompt.on)
		return false;
	if (prompt_key(&ts->prompt, ch) != PROMPT_DONE)
		return true;
	if (!strcmp(ts->prompt.label, "name"))
		snprintf(v->tasks_name, sizeof(v->tasks_name), "%s",
			 ts->prompt.input);
	else
		user_set(t, ts->prompt.input);
	list_reset(&ts->list);
	return true;
}

static const struct screen_key tasks_keys[] = {
	{ "Enter", { '\n', '\r', KEY_ENTER },
	  "the profile zoomed into the task (Esc there: back here)",
	  "Enter zoom", FOOT_ALWAYS, key_zoom },
	{ "s", { 's' }, "sort by the next column", "s sort", FOOT_ALWAYS,
	  key_sort },
	{ "r", { 'r' }, "reverse the order", NULL, FOOT_NEVER, key_reverse },
	{ "H", { 'H' }, "a row per thread or per process", "H threads",
	  FOOT_ALWAYS, key_processes },
	{ "/", { '/' }, "filter by name substring (empty: none)", "/ name",
	  FOOT_ALWAYS, key_comm },
	{ "u", { 'u' }, "filter by user, a name or a uid (empty: none)",
	  "u user", FOOT_ALWAYS, key_user },
	{ "T", { 'T' }, "back to the profile", NULL, FOOT_NEVER,
	  screen_back_key },
};

static int tasks_open(struct tui *t, struct screen *s, const void *arg)
{
	struct tasks_screen *ts = xcalloc(1, sizeof(*ts));

	(void)arg;
	tasks_table_start(t->kt);
	/* T from a zoom of Enter's: that way back is taken no more */
	t->view->tasks_return = false;
	ts->kt = t->kt;
	ts->view = t->view;
	s->data = ts;
	return 0;
}

static void tasks_close(struct screen *s)
{
	struct tasks_screen *ts = s->data;

	/* left for good (not zoomed into from here): the counters go */
	if (!ts->view->tasks_return)
		tasks_table_stop(ts->kt);
	free(ts->rows);
	free(ts->comm);
	free(ts);
}

static struct list *tasks_list(struct screen *s)
{
	struct tasks_screen *ts = s->data;

	return &ts->list;
}

static const char *const tasks_notes[] = {
	"Each figure is of the last refresh interval: %CPU from the "
	"thread's task-clock",
	"  (from its samples where it has no counters: '-' in the other "
	"columns);",
	"  counters go to the busiest threads, at most 128 (ulimit -n).",
	"IPC: instructions per cycle; %MISS: cache misses of references; "
	"%BMIS: branch",
	"  misses of branches (where the PMU counts them).",
	NULL,
};

const struct screen_type screen_tasks = {
	.name = "tasks",
	.open = tasks_open,
	.close = tasks_close,
	.draw = tasks_draw,
	.keys = tasks_keys,
	.nkeys = sizeof(tasks_keys) / sizeof(tasks_keys[0]),
	.key = tasks_key,
	.list = tasks_list,
	.notes = tasks_notes,
};
