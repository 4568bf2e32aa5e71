/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tasks.h - the task table's model (tiptop's columns): per task, what its
 * counters counted and what its samples stand for over one refresh, read
 * back as sorted, filtered rows of rates.  Pure: no I/O, no clock, no
 * counters -- the tool hands it plain numbers (taskcount.h opens and
 * reads the counters), closes each refresh with tasks_frame() and draws
 * what tasks_rows() returns.
 *
 * Counts are handed over as they are read: cumulative since the task's
 * counters opened.  A refresh's figure is the difference from the last
 * refresh's (from 0 for counters opened during it, TASKS_FRESH), so a
 * task whose counters opened mid-interval shows less for that one frame.
 * Rates are per second of the whole interval, as tiptop's.  A task that
 * exited keeps its last counts for the frame it exited in, then goes.
 *
 * Not every task has counters (descriptors are bounded): a row without
 * them shows %CPU from its samples (the time they stand for) and no
 * counter column; tasks_wanted() says which tasks should have them.
 *
 * The library never prints and never exits; functions that can fail
 * return -1 (or NULL) with errno set.  Not thread-safe.
 */
#ifndef PROFILE_TASKS_H
#define PROFILE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a task's counters count (taskcount.c opens them in this order). */
enum tasks_event {
	TASKS_EV_TASK_CLOCK,	/* ns on a CPU */
	TASKS_EV_CTX,		/* context switches */
	TASKS_EV_MIGR,		/* CPU migrations */
	TASKS_EV_FAULTS,	/* page faults */
	TASKS_EV_CYCLES,
	TASKS_EV_INSNS,
	TASKS_EV_CACHE_REFS,
	TASKS_EV_CACHE_MISSES,
	TASKS_EV_BRANCHES,
	TASKS_EV_BRANCH_MISSES,
	TASKS_NEVENTS
};
#define TASKS_EV(e) (1u << (e))

/* The columns of a row, in the order a table shows them. */
enum tasks_col {
	TASKS_COL_PID,
	TASKS_COL_TID,		/* the process view: its threads' count */
	TASKS_COL_USER,
	TASKS_COL_CPU,		/* %CPU */
	TASKS_COL_CTX,		/* context switches/s */
	TASKS_COL_MIGR,		/* migrations/s */
	TASKS_COL_FAULTS,	/* page faults/s */
	TASKS_COL_MCYCLES,	/* Mcycles/s */
	TASKS_COL_MINSTR,	/* Minstr/s */
	TASKS_COL_IPC,		/* instructions per cycle */
	TASKS_COL_CACHE_MISS,	/* cache misses, % of references */
	TASKS_COL_BRANCH_MISS,	/* branch misses, % of branches */
	TASKS_COL_COMM,
	TASKS_NCOLS
};

/* A column as the tools show it: header, width, and the events it needs
   (0: always shown). */
struct tasks_col_def {
	const char *name;	/* for options and sort messages: "cpu" */
	const char *head;	/* the header: "%CPU" */
	int width;
	unsigned needs;		/* TASKS_EV() mask; all needed */
	bool ascending;		/* sorted smallest first (names, ids) */
};
extern const struct tasks_col_def tasks_cols[TASKS_NCOLS];

/* A task as the samples and the counters name it.  For a task the model
   knows, pid 0, uid (uid_t)-1 and comm NULL keep what it has. */
struct tasks_id {
	pid_t pid, tid;
	uid_t uid;
	const char *comm;	/* copied (16 bytes kept); NULL: "[unknown]"
				   for a task not known yet */
};

struct tasks;

/* An empty model, or NULL with errno ENOMEM.  Free with tasks_free(). */
struct tasks *tasks_new(void);
void tasks_free(struct tasks *t);

/*
 * The samples of this refresh: ns more of CPU time for task id (a
 * sample's period in ns for a clock event).  The comm and uid are
 * updated.  0, or -1 with errno ENOMEM (EINVAL: t or id NULL).
 */
int tasks_sampled(struct tasks *t, const struct tasks_id *id, uint64_t ns);

/* A task's counts (tasks_counts()'s flags). */
#define TASKS_FRESH 1u	/* counters opened since the last tasks_frame():
			   they count from 0 */
#define TASKS_EXITED 2u	/* the task has exited; these are its last */

/*
 * Task id's counters as read now: count[e] for each event e in the mask
 * has (TASKS_EV()), cumulative since they opened (multiplexing already
 * scaled).  Called once per refresh for each task with counters, before
 * tasks_frame().  0, or -1 with errno ENOMEM / EINVAL.
 */
int tasks_counts(struct tasks *t, const struct tasks_id *id, unsigned has,
		 const uint64_t count[TASKS_NEVENTS], unsigned flags);

/*
 * Close the refresh that lasted interval_ns: each task's figures become
 * the differences since the last frame, the rows read them until the
 * next tasks_frame(); tasks that exited, and tasks with neither samples
 * nor counters in it, go after this frame.  Cannot fail.
 */
void tasks_frame(struct tasks *t, uint64_t interval_ns);

struct tasks_view {
	size_t sz;		/* sizeof(struct tasks_view): TASKS_VIEW() */
	bool processes;		/* one row per process, its threads summed */
	enum tasks_col order;	/* sort column (tasks_cols[].ascending) */
	bool reverse;		/* the other way round */
	const char *name;	/* only comms containing this; NULL/"" all */
	bool by_uid;		/* only tasks of uid */
	uid_t uid;
	size_t max_rows;	/* 0: all */
};
#define TASKS_VIEW(...) \
	((struct tasks_view){ .sz = sizeof(struct tasks_view), __VA_ARGS__ })

struct tasks_row {
	pid_t pid, tid;		/* tid 0 in the process view */
	uid_t uid;
	const char *comm;	/* the model's, valid as the rows are */
	unsigned nthreads;	/* 1 in the thread view */
	unsigned has;		/* the events counted (TASKS_EV() mask);
				   process view: of any of its threads */
	bool partial;		/* process view: some threads had no
				   counters (their %CPU is from samples, the
				   other columns leave them out) */
	bool exited;		/* gone during this frame */
	uint64_t delta[TASKS_NEVENTS];	/* this frame's counts */
	uint64_t sampled_ns;	/* the samples' time, this frame */
	double value[TASKS_NCOLS];	/* each figure column's value; valid
				   where tasks_row_has() */
};

/* Whether row r has a value in column c (names and ids always). */
bool tasks_row_has(const struct tasks_row *r, enum tasks_col c);

/*
 * The rows of the last frame in view v's order (ties: pid, then tid,
 * ascending; a row without the sort column's value last), in an array
 * owned by t valid until the next call on t.  *n gets their number.
 * NULL with errno EINVAL (v->sz too small, order out of range), E2BIG (a
 * larger view with fields unknown here set) or ENOMEM; *n is then 0.
 */
const struct tasks_row *tasks_rows(struct tasks *t, const struct tasks_view *v,
				   size_t *n);

/*
 * Which tasks should have counters for the next refresh: up to max tids,
 * the busiest first by a decaying sum of CPU time (counters' or
 * samples'), ties kept by the tasks counted now, then by tid.  A task
 * counted now that went idle gives way to one sampled busy, so the
 * counters rotate to where the CPU time goes.  Returns how many were
 * written to out.
 */
size_t tasks_wanted(const struct tasks *t, pid_t *out, size_t max);

/* Whether the model holds task tid now. */
bool tasks_known(const struct tasks *t, pid_t tid);

/* How many tasks the model holds now. */
size_t tasks_count(const struct tasks *t);

/* The column of name (tasks_cols[].name), or -1. */
int tasks_col_by_name(const char *name);

#endif
