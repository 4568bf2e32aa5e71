/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* feed-internal.h - what feed.c (opening, waiting) and feed-drain.c
   (records) share.  Private to lib/profile. */
#ifndef PROFILE_FEED_INTERNAL_H
#define PROFILE_FEED_INTERNAL_H

#include <poll.h>
#include <stdio.h>

#include "base/hashtab.h"
#include "profile/comm.h"
#include "profile/feed.h"

struct feed_counter {
	struct pc_counter *c;
	uint64_t id;		/* the kernel's event id (several events) */
	unsigned event;		/* index into attrs */
	bool hup;		/* its task has ended: no longer polled */
};

/*
 * A record taken from a ring and not yet handled: feed_drain() hands the
 * rings' records over in time order.  Its pointers stay valid until the
 * next pc_ring_next() on the same ring.
 */
struct feed_head {
	struct pc_record rec;
	bool full;
};

/* A watched target (FEED_THREADS: a tid; FEED_PROCESSES: a pid). */
struct feed_watch {
	pid_t id;
	bool gone;
};

struct feed {
	struct perf_event_attr *attrs;
	unsigned nattrs;
	bool inherit, per_cpu, no_resolve, user_only;
	bool no_inherit;	/* opts.no_inherit: attrs' inherit stays 0 */
	bool nomem;		/* ENOMEM while reading maps in the background */
	void (*task_fn)(void *, pid_t, pid_t, pid_t, bool);	/* opts.task_fn */
	void *task_arg;
	/* feed_lost_read(): the counters' lost counts, with many counters
	   read by a drain now and then (a read(2) each) */
	uint64_t lost_counted;
	bool lost_complete;
	double lost_read_ms;

	pid_t *tasks;			/* the tasks counters are opened on */
	size_t ntasks, tasks_alloc;
	int *cpus;			/* -1 alone when not per CPU */
	size_t ncpus;

	struct feed_counter *ctr;	/* sorted by id when nattrs > 1 */
	size_t nctr, ctr_alloc;
	struct pc_ring **rings;
	size_t nrings, rings_alloc;
	struct feed_head *heads;	/* one per ring: its next record */
	size_t heads_alloc;
	unsigned ring_pages;
	struct pollfd *pfd;
	size_t npfd;
	enum pc_backend backend;

	struct feed_watch *watch;
	size_t nwatch;
	bool watch_tids, scope_ends, target_gone;
	pid_t gone_pid;

	/* feed-scheme.c: how the target is watched (struct feed_info) */
	enum feed_scope scope;
	uid_t uid;			/* FEED_USER */
	int cgroup_fd;			/* FEED_SCHEME_CGROUP, or FEED_SYSTEM
					   with opts.cgroup; else -1 */
	char *cgroup;			/* its path in the hierarchy */

	/*
	 * feed-filter.c: with per-CPU counters, the records kept: those of
	 * the processes in keep_pids (side records always; samples unless
	 * by tid), and the samples of the threads in keep_tids (FEED_THREADS).
	 */
	bool filter, filter_tids;
	struct hashtab keep_pids, keep_tids;	/* of struct feed_keep */

	/* feed-maps.c: the processes that ran before the feed opened */
	struct hashtab procs;		/* of struct feed_proc */
	pid_t *pending;			/* whose maps to read, */
	size_t npending, pending_alloc;
	pid_t *urgent;			/* and those sampled, first */
	size_t nurgent, urgent_alloc;
	size_t maps_left;		/* of them, not read whole yet */
	struct feed_proc *reading;	/* the one being read, */
	FILE *maps;			/* its /proc/PID/maps */
	char *line;
	size_t line_cap;
	struct feed_held *held;		/* samples waiting for their maps */
	size_t nheld, aheld, held_bytes;
	unsigned maps_gen, held_gen;	/* processes read whole, counted;
					   the count the held were last
					   looked at with */

	feed_switch_fn switch_fn;	/* feed_on_switch() */
	void *switch_arg;

	struct symbols *sym;
	struct comm_table comms;
	struct feed_info info;

	/* call graphs (feed-chain.c) */
	enum feed_callgraph callgraph;
	unsigned max_stack;		/* 0: no bound */
	struct unwind *unwind;		/* FEED_CG_DWARF */
	struct stk_sample_frame *fr;		/* the chain being built */
	size_t nfr, afr;
	struct unwind_frame *uf;	/* FEED_MAX_USER_FRAMES */

	/* opts.group_read (feed-drain.c): each stream's last counts of the
	   group, and the deltas of the sample being handed over */
	bool group_read, cpu_wide;
	struct hashtab streams;		/* of struct feed_stream */
	uint64_t *deltas;		/* nattrs: the leader's, the members' */

	/*
	 * EXIT records not yet acted on (feed-drain.c): a task is
	 * forgotten once every record written before its EXIT was read,
	 * which marks[] (each ring's written position when the first
	 * of exits[0..nmarked) was met) tell.
	 */
	struct feed_exit *exits;
	size_t nexits, aexits, nmarked;
	uint64_t *marks;		/* one per ring */
	size_t amarks;
};

/* A stream of group reads: a counter (its id), and a thread on a
   per-thread counter, with its members' counts at its last sample. */
struct feed_stream {
	uint64_t id;
	pid_t tid;
	pid_t pid;		/* and the function of its last sample: */
	uint64_t fn;		/* its resolved start, or the IP */
	uint64_t last[];	/* nattrs: the leader's, the members' */
};

/* feed-drain.c: free the streams. */
void feed_streams_release(struct feed *f);

/* A process or thread whose records the filter keeps. */
struct feed_keep {
	pid_t id;
	bool gone;		/* exited: dropped at the next sweep */
};

/* A task seen to exit, to be forgotten (see struct feed). */
struct feed_exit {
	pid_t pid, tid;
};

/* A process that ran before the feed opened (feed-maps.c). */
struct feed_proc {
	pid_t pid;
	bool done;		/* its maps read whole, or it is gone */
	bool wanted;		/* sampled: on the urgent list */
};

/* A sample held until its process's maps are read (feed-drain.c): the
   record, its callchain, registers and stack copied into copy. */
struct feed_held {
	struct pc_record rec;
	void *copy;
	size_t bytes;
};

/*
 * feed-maps.c.  feed_maps_add(): pid ran before the feed opened; its
 * maps are to be read (0, or -1 with errno ENOMEM).  feed_maps_unread():
 * pid is such a process whose maps are not read whole yet, or NULL.
 * feed_maps_want(): read p's before the others.  feed_maps_release():
 * free what the background reading holds.
 */
int feed_maps_add(struct feed *f, pid_t pid);
struct feed_proc *feed_maps_unread(struct feed *f, pid_t pid);
void feed_maps_want(struct feed *f, struct feed_proc *p);
void feed_maps_release(struct feed *f);

/*
 * feed-scheme.c.  feed_scheme_choose(): after the targets, CPUs and attrs
 * are set up, pick the scheme (struct feed_info) and prepare it (the
 * cgroup, the filter, the busiest threads); 0, or -1 with errno.
 * feed_scheme_refused(): per-CPU counters were refused with err: fall
 * back to the busiest threads.  feed_scheme_release(): free what it holds.
 */
int feed_scheme_choose(struct feed *f, const struct feed_opts *o);
void feed_scheme_refused(struct feed *f, int err);
void feed_scheme_release(struct feed *f);

/*
 * feed-filter.c.  feed_filter_add(): keep the records of pid (tid false)
 * or the samples of thread id (tid true); 0, or -1 with errno ENOMEM.
 * feed_filter_keep(): whether rec is the target's; it follows the FORKs
 * (a child of a kept process is kept; a pid reused by another's child is
 * not).  feed_filter_exit(): the task of an EXIT record whose earlier
 * records were all read is gone.  feed_filter_sweep(): drop the gone.
 */
int feed_filter_add(struct feed *f, pid_t id, bool tid);
bool feed_filter_keep(struct feed *f, const struct pc_record *rec);
void feed_filter_exit(struct feed *f, pid_t pid, pid_t tid);
void feed_filter_sweep(struct feed *f);
void feed_filter_release(struct feed *f);

/*
 * feed-drain.c.  feed_lost_count(): the counters' own lost counts added
 * up in *counted; false when one cannot be read.  Past
 * FEED_LOST_READ_ALL counters (per-thread ones on a big process)
 * feed_info() does not read them itself: feed_lost_read() does, from a
 * drain, when the last read is 0.25 s old at now (ms).
 */
#define FEED_LOST_READ_ALL 64
bool feed_lost_count(const struct feed *f, uint64_t *counted);
void feed_lost_read(struct feed *f, double now);

/* feed-drain.c: free the samples still held. */
void feed_held_release(struct feed *f);

/*
 * feed-chain.c: fill fs->frames for rec's sample, whose own IP resolved
 * to *leaf (NULL: not resolved yet).  Returns 0, or -1 with errno
 * ENOMEM.
 */
int feed_chain_build(struct feed *f, const struct pc_record *rec,
		     const struct sym_result *leaf, struct feed_sample *fs);

#endif
