/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tasks-table.c - the task table (--tasks, the `T' screen): the session's
 * part -- lib/profile's model fed with the samples, the busiest threads'
 * counters opened, read and rotated at each refresh -- and the table's
 * text, which batch and the screen share.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "frame.h"
#include "kt.h"
#include "options.h"
#include "tasks-table.h"
#include "util/die.h"
#include "util/task.h"
#include "util/xmalloc.h"

#define HW_EVENTS (TASKS_EV(TASKS_EV_CYCLES) | TASKS_EV(TASKS_EV_INSNS) | \
		   TASKS_EV(TASKS_EV_CACHE_REFS) | \
		   TASKS_EV(TASKS_EV_CACHE_MISSES) | \
		   TASKS_EV(TASKS_EV_BRANCHES) | \
		   TASKS_EV(TASKS_EV_BRANCH_MISSES))

#include "base/array.h"

/* The `s' key's cycle on the task screen: every column once. */
const enum tasks_col kt_tasks_orders[] = {
	TASKS_COL_CPU, TASKS_COL_CTX, TASKS_COL_MIGR, TASKS_COL_FAULTS,
	TASKS_COL_MCYCLES, TASKS_COL_MINSTR, TASKS_COL_IPC,
	TASKS_COL_CACHE_MISS, TASKS_COL_BRANCH_MISS, TASKS_COL_PID,
	TASKS_COL_TID, TASKS_COL_USER, TASKS_COL_COMM,
};
const size_t kt_tasks_norders = sizeof(kt_tasks_orders) /
				sizeof(kt_tasks_orders[0]);

/* The event whose samples' periods are CPU time (a clock), or -1. */
static int clock_event(const struct kt *kt)
{
	for (unsigned i = 0; i < kt->nevents; i++)
		if (feed_time_event(&kt->attrs[i]))
			return (int)i;
	return -1;
}

/* Whoever owns the task's /proc directory; (uid_t)-1 when it is gone. */
static uid_t uid_of(pid_t pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) == 0 ? st.st_uid : (uid_t)-1;
}

/* A thread seen to start (or there from the start): counted from now,
   when there is room, under its own name. */
static void count_new(struct kt *kt, pid_t pid, pid_t tid)
{
	char comm[17];
	struct tasks_id id = { pid, tid, uid_of(pid), NULL };

	task_comm(tid, comm, sizeof(comm));
	id.comm = comm[0] ? comm : NULL;
	if (tasks_sampled(kt->tasks, &id, 0) != 0)
		die_nomem();
	/* full, or gone already: the samples will say if it matters */
	(void)taskcount_add(kt->tcount, tid);
}

void tasks_table_start(struct kt *kt)
{
	const struct kt_options *o = &kt->opt;

	if (kt->tasks)
		return;
	kt->tasks = tasks_new();
	/* inherited: a task too short to be seen is counted all the same,
	   in the row of the counted thread that started it */
	kt->tcount = taskcount_new(&TASKCOUNT_OPTS(
		.backend = kt->info.backend, .inherit = true));
	if (!kt->tasks || !kt->tcount)
		die_nomem();
	kt->tasks_clock = clock_event(kt);
	/* the columns are known from the first frame (no thread counted
	   yet); refused here, a thread's counters are refused the same */
	(void)taskcount_probe(kt->tcount);
	/* -p, -t: the target's threads are counted from the start, busy or
	   not (a sleeper's switches and faults are the point) */
	for (size_t i = 0; i < o->nids && kt->scope == FEED_THREADS; i++)
		count_new(kt, o->ids[i], o->ids[i]);
	for (size_t i = 0; i < o->nids && kt->scope == FEED_PROCESSES; i++) {
		pid_t *tids;
		int n = pc_task_threads(o->ids[i], &tids);

		for (int j = 0; j < n; j++)
			count_new(kt, o->ids[i], tids[j]);
		if (n >= 0)
			free(tids);
	}
}

void tasks_table_check_sort(struct kt *kt)
{
	enum tasks_col c = kt->opt.tasks_order;
	bool started = kt->tasks != NULL;

	if (!(tasks_cols[c].needs & HW_EVENTS))
		return;
	tasks_table_start(kt);
	if (!tasks_table_shown(kt, c))
		usage_error("--tasks-sort %s: the %s column is not shown "
			    "here (the machine counts no hardware events); "
			    "sort by cpu, ctx, migr, faults, pid, tid, user "
			    "or comm", tasks_cols[c].name, tasks_cols[c].head);
	if (!started)
		tasks_table_stop(kt);
}

void tasks_table_stop(struct kt *kt)
{
	tasks_free(kt->tasks);
	taskcount_free(kt->tcount);
	free(kt->tasks_exited);
	free(kt->tasks_tids);
	kt->tasks = NULL;
	kt->tcount = NULL;
	kt->tasks_exited = NULL;
	kt->tasks_tids = NULL;
	kt->ntasks_exited = kt->atasks_exited = 0;
	kt->tasks_err = 0;
}

void tasks_table_sample(struct kt *kt, const struct feed_sample *s)
{
	struct tasks_id id = { (pid_t)s->raw->pid, (pid_t)s->raw->tid,
			       (uid_t)-1, s->comm };
	uint64_t ns = (int)s->event == kt->tasks_clock ? s->raw->period : 0;

	/* the idle task is no task to count: pid 0 would open on us; a
	   covered task's time is in its counting thread's counters */
	if (id.tid <= 0 || taskcount_covered(kt->tcount, id.tid))
		return;
	/* a task's user, once */
	if (!tasks_known(kt->tasks, id.tid))
		id.uid = uid_of(id.pid);
	if (tasks_sampled(kt->tasks, &id, ns) != 0)
		die_nomem();
}

void tasks_table_task(void *arg, pid_t pid, pid_t tid, pid_t ptid,
		      bool exited)
{
	struct kt *kt = arg;
	int covered;

	if (!kt->tasks)
		return;
	if (!exited) {
		covered = taskcount_started(kt->tcount, ptid, tid);
		if (covered < 0)
			die_nomem();
		if (!covered)
			count_new(kt, pid, tid);
		return;
	}
	taskcount_gone(kt->tcount, tid);
	/* a counted thread that exits is read once more at the refresh:
	   its last counts belong to that frame */
	if (!taskcount_has(kt->tcount, tid))
		return;
	if (ARRAY_GROW(kt->tasks_exited, kt->ntasks_exited + 1,
		       kt->atasks_exited) != 0)
		die_nomem();
	kt->tasks_exited[kt->ntasks_exited++] = tid;
}

static bool exited(const struct kt *kt, pid_t tid)
{
	for (size_t i = 0; i < kt->ntasks_exited; i++)
		if (kt->tasks_exited[i] == tid)
			return true;
	return false;
}

void tasks_table_tick(struct kt *kt, double interval_s)
{
	size_t max = taskcount_max(kt->tcount), n;
	int err;

	if (!kt->tasks_tids)
		kt->tasks_tids = xcalloc(max, sizeof(*kt->tasks_tids));
	n = taskcount_tids(kt->tcount, kt->tasks_tids, max);
	for (size_t i = 0; i < n; i++) {
		struct tasks_id id = { 0, kt->tasks_tids[i], (uid_t)-1, NULL };
		uint64_t count[TASKS_NEVENTS];
		unsigned has;
		bool fresh;

		if (taskcount_read(kt->tcount, id.tid, &has, count,
				   &fresh) != 0)
			continue;
		if (tasks_counts(kt->tasks, &id, has, count,
				 (fresh ? TASKS_FRESH : 0) |
				 (exited(kt, id.tid) ? TASKS_EXITED : 0)) != 0)
			die_nomem();
	}
	kt->ntasks_exited = 0;
	tasks_frame(kt->tasks, (uint64_t)(interval_s * 1e9));
	/* the counters go to the busiest for the next refresh */
	n = tasks_wanted(kt->tasks, kt->tasks_tids, max);
	if (taskcount_keep(kt->tcount, kt->tasks_tids, n, &err) < 0)
		die_nomem();
	/* a thread that ended meanwhile is no fault */
	if (err && err != ESRCH && !kt->tasks_err)
		kt->tasks_err = err;
	kt->tasks_interval_s = interval_s;
}

/* --- the text ------------------------------------------------------------ */

bool tasks_table_shown(const struct kt *kt, enum tasks_col c)
{
	unsigned sup = taskcount_supported(kt->tcount);

	/* before any counter opened, the software columns show '-' */
	if (tasks_cols[c].needs & HW_EVENTS)
		return (sup & tasks_cols[c].needs) == tasks_cols[c].needs;
	return true;
}

/* Whether column c is shown: the hardware ones only where counted. */
static bool col_shown(const struct kt *kt, const struct tasks_view *v,
		      enum tasks_col c)
{
	(void)v;
	return tasks_table_shown(kt, c);
}

void tasks_table_header(const struct kt *kt, const struct tasks_view *v,
			unsigned line, char *buf, size_t size)
{
	size_t len = 0, rows = 0;
	unsigned sup = taskcount_supported(kt->tcount);

	buf[0] = '\0';
	if (line == 0) {
		(void)tasks_rows(kt->tasks, v, &rows);
		str_append(buf, size, &len, "kerneltop tasks: %zu %s, %zu "
			   "counted (the busiest, at most %zu)  interval "
			   "%.6fs  by %s%s", rows,
			   v->processes ? "processes" : "threads",
			   taskcount_count(kt->tcount),
			   taskcount_max(kt->tcount), kt->tasks_interval_s,
			   tasks_cols[v->order].name,
			   v->reverse ? " (reversed)" : "");
		if (v->name && v->name[0]) {
			char vis[96];

			esc_visible(vis, sizeof(vis), v->name);
			str_append(buf, size, &len, "  name: %s", vis);
		}
		if (v->by_uid)
			str_append(buf, size, &len, "  user: %u",
				   (unsigned)v->uid);
		return;
	}
	/* the one-line notices: what is not counted, and why */
	if (sup && !(sup & HW_EVENTS))
		str_append(buf, size, &len, "hardware events not supported "
			   "here: no Mcycle/s, Minstr/s, IPC or miss columns");
	if (taskcount_user_only(kt->tcount))
		str_append(buf, size, &len, "%suser space only "
			   "(perf_event_paranoid)", len ? "; " : "");
	if (kt->tasks_err) {
		char msg[PC_STRERROR_SIZE];

		pc_strerror(kt->tasks_err, NULL, msg, sizeof(msg));
		str_append(buf, size, &len, "%ssome threads not counted: %s",
			   len ? "; " : "", msg);
	}
}

void tasks_table_columns(const struct kt *kt, const struct tasks_view *v,
			 char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int c = 0; c < TASKS_NCOLS; c++) {
		const char *head = tasks_cols[c].head;

		if (!col_shown(kt, v, c))
			continue;
		if (c == TASKS_COL_TID && v->processes)
			head = "THR";
		if (c == TASKS_COL_USER || c == TASKS_COL_COMM)
			str_append(buf, size, &len, "%s%-*s", len ? " " : "",
				   tasks_cols[c].width, head);
		else
			str_append(buf, size, &len, "%s%*s", len ? " " : "",
				   tasks_cols[c].width, head);
	}
}

void tasks_table_row(const struct kt *kt, const struct tasks_view *v,
		     const struct tasks_row *r, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int c = 0; c < TASKS_NCOLS; c++) {
		int w = tasks_cols[c].width;
		const char *sep = len ? " " : "";

		if (!col_shown(kt, v, c))
			continue;
		switch (c) {
		case TASKS_COL_PID:
			str_append(buf, size, &len, "%s%*d", sep, w,
				   (int)r->pid);
			break;
		case TASKS_COL_TID:
			str_append(buf, size, &len, "%s%*d", sep, w,
				   v->processes ? (int)r->nthreads
						: (int)r->tid);
			break;
		case TASKS_COL_USER: {
			struct passwd *pw = r->uid == (uid_t)-1 ? NULL :
					    getpwuid(r->uid);
			char vis[64] = "-";

			if (pw)
				esc_visible(vis, sizeof(vis), pw->pw_name);
			else if (r->uid != (uid_t)-1)
				snprintf(vis, sizeof(vis), "%u",
					 (unsigned)r->uid);
			str_append(buf, size, &len, "%s%-*.*s", sep, w, w, vis);
			break;
		}
		case TASKS_COL_COMM: {
			char vis[64];

			esc_visible(vis, sizeof(vis), r->comm);
			str_append(buf, size, &len, "%s%s%s", sep, vis,
				   r->exited ? " (exited)" : "");
			break;
		}
		default:
			if (!tasks_row_has(r, c))
				str_append(buf, size, &len, "%s%*s", sep, w,
					   "-");
			else
				str_append(buf, size, &len, "%s%*.*f", sep, w,
					   c == TASKS_COL_IPC ? 2 : 1,
					   r->value[c]);
		}
	}
}

/* --tasks-raw's columns: each event's count in the interval, under
   perf's name for it, in enum tasks_event's order. */
static const char *const raw_names[TASKS_NEVENTS] = {
	[TASKS_EV_TASK_CLOCK] = "task-clock",
	[TASKS_EV_CTX] = "context-switches",
	[TASKS_EV_MIGR] = "cpu-migrations",
	[TASKS_EV_FAULTS] = "page-faults",
	[TASKS_EV_CYCLES] = "cycles",
	[TASKS_EV_INSNS] = "instructions",
	[TASKS_EV_CACHE_REFS] = "cache-references",
	[TASKS_EV_CACHE_MISSES] = "cache-misses",
	[TASKS_EV_BRANCHES] = "branches",
	[TASKS_EV_BRANCH_MISSES] = "branch-misses",
};

/* An event's column: the hardware ones only where counted, as
   col_shown(); wide enough for its name and a count of 11 digits. */
static int raw_width(const struct kt *kt, unsigned e)
{
	int w = (int)strlen(raw_names[e]);

	if ((HW_EVENTS & TASKS_EV(e)) &&
	    !(taskcount_supported(kt->tcount) & TASKS_EV(e)))
		return 0;
	return w > 11 ? w : 11;
}

static void raw_columns(const struct kt *kt, const struct tasks_view *v,
			char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	str_append(buf, size, &len, "%*s %*s", tasks_cols[TASKS_COL_PID].width,
		   tasks_cols[TASKS_COL_PID].head,
		   tasks_cols[TASKS_COL_TID].width,
		   v->processes ? "THR" : tasks_cols[TASKS_COL_TID].head);
	for (unsigned e = 0; e < TASKS_NEVENTS; e++)
		if (raw_width(kt, e))
			str_append(buf, size, &len, " %*s", raw_width(kt, e),
				   raw_names[e]);
	str_append(buf, size, &len, " %s", tasks_cols[TASKS_COL_COMM].head);
}

/* A row of counts: '-' for an event the row's task had no counter of. */
static void raw_row(const struct kt *kt, const struct tasks_view *v,
		    const struct tasks_row *r, char *buf, size_t size)
{
	size_t len = 0;
	char vis[64];

	buf[0] = '\0';
	str_append(buf, size, &len, "%*d %*d", tasks_cols[TASKS_COL_PID].width,
		   (int)r->pid, tasks_cols[TASKS_COL_TID].width,
		   v->processes ? (int)r->nthreads : (int)r->tid);
	for (unsigned e = 0; e < TASKS_NEVENTS; e++) {
		int w = raw_width(kt, e);

		if (!w)
			continue;
		if (r->has & TASKS_EV(e))
			str_append(buf, size, &len, " %*" PRIu64, w,
				   r->delta[e]);
		else
			str_append(buf, size, &len, " %*s", w, "-");
	}
	esc_visible(vis, sizeof(vis), r->comm);
	str_append(buf, size, &len, " %s%s", vis,
		   r->exited ? " (exited)" : "");
}

int tasks_table_print(const struct kt *kt, const struct tasks_view *v,
		      FILE *out, size_t max_rows, bool raw)
{
	struct tasks_view view = *v;
	const struct tasks_row *rows;
	char line[KT_LINE];
	size_t n;

	tasks_table_header(kt, v, 0, line, sizeof(line));
	fprintf(out, "%s\n", line);
	tasks_table_header(kt, v, 1, line, sizeof(line));
	if (line[0])
		fprintf(out, "%s\n", line);
	fputc('\n', out);
	if (raw)
		raw_columns(kt, v, line, sizeof(line));
	else
		tasks_table_columns(kt, v, line, sizeof(line));
	fprintf(out, "%s\n", line);
	view.max_rows = max_rows;
	rows = tasks_rows(kt->tasks, &view, &n);
	if (!rows)
		die_nomem();
	for (size_t i = 0; i < n; i++) {
		if (raw)
			raw_row(kt, v, &rows[i], line, sizeof(line));
		else
			tasks_table_row(kt, v, &rows[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	fputc('\n', out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
