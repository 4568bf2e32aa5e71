/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * countset.h - a counting set: a list of events (with its {groups})
 * counted on units, each unit a task or a CPU (or a task on one CPU), as
 * perf stat counts and libperf's evlist opens.  The set opens every event
 * on every unit, a group's members under its leader; reads a group with
 * one read() (PERF_FORMAT_GROUP), so that its counts are of the same
 * moment; drops a task that is gone; and, at perf_event_paranoid 2,
 * counts user space only.  Counting, never sampling.
 *
 *	struct pc_event_list ev = { 0 };
 *	struct pc_count n[2];
 *
 *	pc_event_list_parse(&ev, "{task-clock,page-faults}", NULL);
 *	set = pc_countset_new(&ev, &PC_COUNTSET_OPTS());
 *	pc_countset_add(set, 0, -1);		the calling thread
 *	pc_countset_open(set);
 *	pc_countset_enable(set);
 *	... work ...
 *	pc_countset_disable(set);
 *	pc_countset_read(set, 0, n);		n[e]: event e on unit 0
 *	pc_countset_free(set);
 *
 * Never prints, never exits: -1 with errno, and pc_countset_failed() or
 * pc_countset_strerror() say which event on which unit and why.
 */
#ifndef SYSAPI_COUNTSET_H
#define SYSAPI_COUNTSET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <sysapi/counter.h>
#include <sysapi/event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pc_countset;

struct pc_countset_opts {
	size_t sz;		/* sizeof(struct pc_countset_opts) */
	enum pc_backend backend; /* groups only where it is not the 2008
				   call, which has none: there every event
				   counts alone */
	bool enabled;		/* count from the open; else from
				   pc_countset_enable() (or the exec) */
	bool enable_on_exec;	/* count from the task's next exec(2), as
				   perf stat counts the command it starts */
	bool inherit;		/* a task unit counts the tasks it starts
				   too, in its own counts (not on the 2008
				   call, which cannot) */
	bool user_only;		/* count user space only from the start */
	bool strict_groups;	/* perf stat's rule: a group counts all its
				   events or none.  A leader the machine
				   cannot count fails the open; a group with
				   a member it cannot count is closed on that
				   unit ("not counted").  Else a group counts
				   what the machine can: without the members
				   it cannot, left out when its leader it
				   cannot. */
};
#define PC_COUNTSET_OPTS(...) \
	((struct pc_countset_opts){ .sz = sizeof(struct pc_countset_opts), \
				    __VA_ARGS__ })

/*
 * A set that counts the events of list (copied: the list may go) on no
 * unit yet (an empty list makes units that count nothing).  An event of
 * type PC_TYPE_TOOL has no kernel counter and is never opened.  Returns
 * the set, which the caller frees with pc_countset_free(), or NULL with
 * errno EINVAL (no list),
 * E2BIG (opts from a newer library) or ENOMEM.
 */
struct pc_countset *pc_countset_new(const struct pc_event_list *list,
				    const struct pc_countset_opts *opts);

/* Close every counter and free the set.  NULL is a no-op. */
void pc_countset_free(struct pc_countset *set);

/*
 * Count event ev in a cgroup, on the CPU units opened from now: fd is its
 * directory (pc_cgroup_open()), which must stay open until then.  0, or
 * -1 with errno EINVAL (no such event).
 */
int pc_countset_cgroup(struct pc_countset *set, size_t ev, int fd);

/*
 * Add a unit, as pc_open_opts names one: pid 0 the caller, > 0 that
 * task, -1 every task; cpu -1 any CPU, else that one.  Its counters open
 * at the next pc_countset_open().  Returns the unit's index (units are
 * numbered in the order they are added, and move down when one before
 * them is removed), or -1 with errno ENOMEM.
 */
int pc_countset_add(struct pc_countset *set, pid_t pid, int cpu);

/*
 * Open the counters of every unit added since the last open, unit by
 * unit, each event in the list's order, a group's leader first:
 *
 * - a task unit whose task is gone (ESRCH) is dropped: it stays, with no
 *   counter open, so that the units keep their indices;
 * - an event the machine cannot count (pc_errno_unsupported()) is left
 *   out on the unit, and on the later units that are tasks on any CPU
 *   (what one task cannot count, none can), unless strict_groups says
 *   otherwise; pc_countset_supported() says whether it opened anywhere;
 * - refused by perf_event_paranoid 2 (pc_attr_user_only()), an event
 *   and every later one counts user space only (pc_countset_user_only()).
 *
 * Returns 0, or -1 with errno: ESRCH when every unit it tried was gone;
 * else the errno of the open that failed (EACCES, EMFILE, ...), whose
 * unit is left with no counter open and the later units unopened (a
 * later call tries them again).  pc_countset_failed() says where.
 */
int pc_countset_open(struct pc_countset *set);

/* Close the counters of unit and remove it: the units after it move
   down one.  An index past the last is a no-op. */
void pc_countset_remove(struct pc_countset *set, size_t unit);

/*
 * Start or stop counting: every leader and lone counter, on every unit.
 * The 2008 call counts from its open and cannot be enabled: there
 * pc_countset_enable() takes the counts so far as the start, so that
 * pc_countset_read() says what was counted since, and
 * pc_countset_disable() fails with EOPNOTSUPP.  Returns 0, or -1 with
 * the errno of the first that failed (the others are still done).
 */
int pc_countset_enable(struct pc_countset *set);
int pc_countset_disable(struct pc_countset *set);

/*
 * Read unit's counters: out[e] for each event e of the list, a group's
 * members from the same read() as their leader; zero where no counter
 * is open or the read failed (running 0: not counted).  A task that ended
 * keeps its last counts.  Counts are as the kernel gives them: scale
 * them with pc_count_scaled().  Returns 0, or -1 with errno: EINVAL (no
 * such unit) or the first read's that failed (the others still read).
 */
int pc_countset_read(struct pc_countset *set, size_t unit,
		     struct pc_count *out);

/* The number of units and of events. */
size_t pc_countset_units(const struct pc_countset *set);
size_t pc_countset_events(const struct pc_countset *set);

/* The counter of event ev on unit, NULL when none is open (or no such
   event or unit).  It stays the set's. */
struct pc_counter *pc_countset_counter(const struct pc_countset *set,
				       size_t ev, size_t unit);

/* Whether event ev opened on some unit since the set was made. */
bool pc_countset_supported(const struct pc_countset *set, size_t ev);

/* Whether the kernel's part is left out (opts.user_only, or the
   paranoid level made it so). */
bool pc_countset_user_only(const struct pc_countset *set);

/*
 * The errno of the last open that failed (0: none), with its event and
 * unit in *ev and *unit (when not NULL): the ESRCH of a gone task, too.
 */
int pc_countset_failed(const struct pc_countset *set, size_t *ev,
		       size_t *unit);

/*
 * Say in buf what the last failed open was, in one line: "cannot count
 * 'EVENT' on thread TID: " (or "on CPU N: ") and pc_strerror_scope()'s
 * cause and fix; a strict group's leader that cannot be counted is said
 * as such.  Returns buf; "" when nothing failed.
 */
const char *pc_countset_strerror(const struct pc_countset *set, char *buf,
				 size_t sz);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_COUNTSET_H */
