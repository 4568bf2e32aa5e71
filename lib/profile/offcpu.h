/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * offcpu.h - off-CPU time: a thread's switch-out (with the call chain it
 * left the CPU with) paired with its next switch-in, as one span weighted
 * in nanoseconds.  Pure: no I/O, no symbols, no clock -- the tool feeds
 * the feed's context-switch samples and switch records, and gets each
 * span through a callback.
 *
 * How stacks are taken: the context-switches software event sampled at
 * every switch (period 1) with the call chain gives the chain at the
 * moment a thread leaves the CPU (kernel part: the scheduler, then the
 * function it sleeps in); the attr's context_switch records give the
 * switch-out (preempted or not) and switch-in times.  Where the kernel
 * refuses the chains (perf_event_paranoid 2 without CAP_PERFMON), the
 * switch records alone give spans without a stack.
 *
 * Pairing rules, so that a span is never counted from two records that
 * do not belong together:
 *  - a stack belongs to the thread's next switch-out (a stack that
 *    arrives while the thread is out and has none is taken too);
 *  - a switch-in pairs with the thread's pending switch-out; one without
 *    a switch-out (the thread was off when sampling began, or the out
 *    was lost) is counted in unpaired and remembered, so that a
 *    switch-out read after it (rings of two CPUs read out of order) but
 *    taken before it still makes its span;
 *  - a pending switch-out whose switch-in was lost is not dropped: the
 *    thread's next record after it (its next switch-out or stack, an
 *    on-CPU sample: offcpu_seen(), its EXIT) proves it ran again, and
 *    ends the span there, marked estimated (an upper bound: the real
 *    switch-in came before).  After offcpu_lost() every pending span is
 *    suspect: it ends at its switch-in or at such a record, estimated
 *    either way (the switch-in read may be a later one's);
 *  - offcpu_exit() ends a thread's pending switch-out as above, and
 *    drops the one that follows it (the kernel writes EXIT before the
 *    task's last switch, after which it never runs again);
 *  - offcpu_flush() ends every pending span at now and starts it again
 *    there: a live view sees a thread blocked for the whole refresh.
 *
 * The library never prints and never exits.  Not thread-safe.
 */
#ifndef PROFILE_OFFCPU_H
#define PROFILE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile/stacks.h"	/* struct stk_sample_frame */

struct offcpu;

/*
 * The leaf frame a tool puts under every off-CPU stack (function and DSO
 * "[off-cpu]", mode 'k': the thread waits in the kernel), by which the
 * exports tell off-CPU time from on-CPU samples (export_func_offcpu()).
 */
#define OFFCPU_LEAF "[off-cpu]"
extern const struct stk_sample_frame offcpu_leaf;

/* Why a thread was off the CPU. */
enum offcpu_state {
	OFFCPU_BLOCKED,		/* it slept: in state's kernel function */
	OFFCPU_PREEMPTED,	/* runnable, waiting for a CPU ("R") */
};

/* A span of off-CPU time, handed to the callback. */
struct offcpu_span {
	pid_t pid, tid;
	const char *comm;	/* the thread's name at its switch-out, or
				   NULL */
	uint64_t start, ns;	/* switch-out time and length, ns */
	enum offcpu_state state;
	const char *where;	/* OFFCPU_BLOCKED: the first kernel function
				   of the chain below the scheduler
				   ("do_nanosleep", "pipe_read"), or NULL
				   without a chain */
	bool estimated;		/* its switch-in was lost (or may have
				   been): it ends at the thread's next
				   record, an upper bound */
	const struct stk_sample_frame *frames;	/* offcpu_leaf, then the
				   chain as the context-switches sample
				   gave it, leaf first; offcpu_leaf alone
				   without a stack */
	unsigned nframes;	/* 1 and more */
};

/* Return non-zero to report a failure (offcpu_in() etc. return -1). */
typedef int (*offcpu_fn)(void *arg, const struct offcpu_span *sp);

/* Counts for headers: what was paired and what was not. */
struct offcpu_stats {
	uint64_t spans;		/* spans handed over (flush pieces too) */
	uint64_t ns;		/* their total */
	uint64_t unpaired;	/* switch-ins without a switch-out */
	uint64_t dropped;	/* pending switch-outs dropped: an EXIT
				   without a time after theirs */
	uint64_t lost;		/* offcpu_lost() calls */
	uint64_t estimated;	/* spans marked estimated */
	uint64_t estimated_ns;	/* their total (part of ns) */
};

/* A model calling fn(arg, span) for each span, or NULL (ENOMEM). */
struct offcpu *offcpu_new(offcpu_fn fn, void *arg);
void offcpu_free(struct offcpu *m);

/*
 * The chain tid left the CPU with at time (the context-switches sample).
 * Frames and their strings are copied; a chain whose frames have the
 * IPs and the string addresses of the thread's last one is known as the
 * same without a copy (the feed's strings live as long as their file in
 * the symbols session, and an IP names one place).  0, or -1 with errno
 * ENOMEM.
 */
int offcpu_stack(struct offcpu *m, pid_t pid, pid_t tid, uint64_t time,
		 const struct stk_sample_frame *frames, unsigned n);

/* tid (named comm, NULL: unknown; copied) left the CPU at time.  0, or
   -1 (ENOMEM, or fn's failure). */
int offcpu_out(struct offcpu *m, pid_t pid, pid_t tid, const char *comm,
	       uint64_t time, bool preempted);

/* tid came back at time: its span is handed over.  0 or -1 as above. */
int offcpu_in(struct offcpu *m, pid_t pid, pid_t tid, uint64_t time);

/*
 * tid ran at time (an on-CPU sample): a span it has pending from before
 * ends there, estimated (its switch-in was lost).  0 or -1 as above.
 */
int offcpu_seen(struct offcpu *m, pid_t tid, uint64_t time);

/*
 * tid exited at time: a span pending from before ends there, estimated
 * (0: no time, it is dropped); the thread is forgotten after its last
 * switch-out.  0 or -1 as above.
 */
int offcpu_exit(struct offcpu *m, pid_t tid, uint64_t time);

/* Records were lost: every pending span is suspect (see above). */
void offcpu_lost(struct offcpu *m);

/*
 * Every pending span up to now handed over, and started again at now.
 * 0, or -1 with fn's failure.
 */
int offcpu_flush(struct offcpu *m, uint64_t now);

void offcpu_stats(const struct offcpu *m, struct offcpu_stats *out);

/*
 * The function a chain sleeps in: its first kernel frame that is not the
 * scheduler's own (schedule, __schedule, preempt_schedule*, ...), or
 * NULL when it has none.
 */
const char *offcpu_where(const struct stk_sample_frame *frames,
			 unsigned n);

#endif /* PROFILE_OFFCPU_H */
