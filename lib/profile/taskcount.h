/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * taskcount.h - the task table's counters: tiptop's events (tasks.h's
 * enum tasks_event) counted on some threads, each thread alone, opened
 * and closed as the tool says which threads to count (tasks_wanted()),
 * read each refresh.  The counting is libsysapi's counting set
 * (sysapi/countset.h), one unit per counted thread; what is here is the
 * table's: the bound, the threads wanted, and inheritance's cover.
 *
 * Descriptors are bounded: a thread costs one descriptor per event the
 * machine counts (the software four, and the hardware six where the PMU
 * has them), and at most taskcount_max() threads are counted -- 128, or
 * fewer so that the counters take at most half of RLIMIT_NOFILE.  The
 * software events are one group and the hardware ones another, each read
 * with one read(); a group that took turns on the PMU is scaled.
 *
 * An event the machine cannot count (pc_errno_unsupported(): hardware
 * events in most VMs) is left out from the first thread on, and
 * taskcount_supported() says which are counted.  At perf_event_paranoid 2
 * the kernel's part is left out (pc_attr_user_only()).
 *
 * The counters of a thread that exited stay readable (their last counts)
 * until taskcount_keep() drops them.  Never prints, never exits.
 *
 * With opts.inherit, a counted thread's counters also count the threads
 * and processes it starts while counted, and theirs in turn, from their
 * first instruction (perf stat's inheritance): a task too short to be
 * seen and opened on its own is counted all the same, in the row of the
 * counted thread that started it, at no descriptor of its own.  The tool
 * tells of each start (taskcount_started()); a task so covered is not
 * opened again (taskcount_keep(), taskcount_add()), which would count it
 * twice, until its counting thread's counters close.
 */
#ifndef PROFILE_TASKCOUNT_H
#define PROFILE_TASKCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sysapi/sysapi.h>

#include "profile/tasks.h"

#define TASKCOUNT_MAX_DEFAULT 128

struct taskcount_opts {
	size_t sz;		/* sizeof(struct taskcount_opts) */
	enum pc_backend backend;
	unsigned max_tasks;	/* 0: TASKCOUNT_MAX_DEFAULT; always bounded
				   by half of RLIMIT_NOFILE */
	bool inherit;		/* count what counted threads start, in
				   their counters (attr.inherit) */
};
#define TASKCOUNT_OPTS(...) \
	((struct taskcount_opts){ .sz = sizeof(struct taskcount_opts), \
				  __VA_ARGS__ })

struct taskcount;

/* No thread counted yet; NULL with errno EINVAL, E2BIG or ENOMEM.  Free
   with taskcount_free(), which closes every counter. */
struct taskcount *taskcount_new(const struct taskcount_opts *opts);
void taskcount_free(struct taskcount *tc);

/*
 * Count exactly the threads of want[0..n) from now (the first
 * taskcount_max() of them; a covered one stays counted where it is):
 * close the others' counters, open the new
 * ones' (counting from 0: tasks_counts()'s TASKS_FRESH).  A thread that
 * is gone (ESRCH) or whose counters the kernel refuses for permission is
 * skipped; at EMFILE no more are opened.  Returns how many threads are
 * counted, or -1 with errno ENOMEM.  *err (when not NULL) gets the first
 * errno that refused a thread (0 none), for the tool's notice.
 */
int taskcount_keep(struct taskcount *tc, const pid_t *want, size_t n,
		   int *err);

/*
 * Count thread tid too, from now, when fewer than taskcount_max() are
 * (a thread the tool saw start).  0 (also when tid is counted already
 * or covered),
 * or -1 with errno: ENOSPC when full, or the open's (ESRCH, EMFILE...).
 */
int taskcount_add(struct taskcount *tc, pid_t tid);

/*
 * Task tid was started by thread ptid (a FORK record's tid and ptid).
 * With opts.inherit, when ptid is counted, or covered itself, tid is
 * counted in the same thread's counters from its start: it is covered
 * (taskcount_covered()) until that thread's counters close or
 * taskcount_gone(tid).  1 when covered, 0 when not, -1 with errno
 * ENOMEM.  (A start told after its counting thread's counters opened
 * but before they did is taken as covered: the tool tells of starts
 * as its records arrive, after the counters it opened at attach.)
 */
int taskcount_started(struct taskcount *tc, pid_t ptid, pid_t tid);

/* The counted thread whose counters count tid by inheritance, or 0. */
pid_t taskcount_covered(const struct taskcount *tc, pid_t tid);

/* Task tid exited: no longer covered (its tid may come back). */
void taskcount_gone(struct taskcount *tc, pid_t tid);

/* Whether tid is counted; whether its counters opened since the last
   taskcount_read() of it (their counts start from 0). */
bool taskcount_has(const struct taskcount *tc, pid_t tid);

/*
 * Read tid's counters: count[e] for each event e set in *has, cumulative
 * since they opened, scaled where a group took turns.  *fresh is true
 * once, at the first read after they opened.  0, or -1 with errno ENOENT
 * (not counted) or read(2)'s.
 */
int taskcount_read(struct taskcount *tc, pid_t tid, unsigned *has,
		   uint64_t count[TASKS_NEVENTS], bool *fresh);

/* The threads counted now, up to max of them into out; their number. */
size_t taskcount_tids(const struct taskcount *tc, pid_t *out, size_t max);

/*
 * Open every event on the calling thread and close them again, so that
 * taskcount_supported() is known before any thread is counted (which
 * columns a table has).  0, or -1 with the errno that refused them all.
 */
int taskcount_probe(struct taskcount *tc);

/* The events counted (TASKS_EV() mask), known once a thread opened or
   taskcount_probe(). */
unsigned taskcount_supported(const struct taskcount *tc);
/* Whether the kernel's part was left out (perf_event_paranoid). */
bool taskcount_user_only(const struct taskcount *tc);
/* The most threads counted at once, and how many are now. */
size_t taskcount_max(const struct taskcount *tc);
size_t taskcount_count(const struct taskcount *tc);
/* Descriptors open now. */
size_t taskcount_fds(const struct taskcount *tc);

#endif
