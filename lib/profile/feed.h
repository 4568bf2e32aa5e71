/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed.h - the sampling feed: counters opened on a target, their ring
 * buffers drained, and every sample handed to the tool resolved.
 *
 * The feed is the one place that turns rings into resolved samples: it
 * opens one sampling counter per event on the target (one task, the
 * threads of processes, a user's tasks, or every task per CPU), gathers
 * their records through one ring per CPU (or one ring for a single task),
 * feeds MMAP2/COMM/FORK/EXIT to lib/symbols as plain data, decides
 * kernel/user/hypervisor from the record's cpumode, counts LOST and
 * THROTTLE, and calls the tool back with each sample.  A tool never
 * drains a ring itself.
 *
 * The library never prints, never exits.  Functions that can fail return
 * -1 (or NULL) with errno set; feed_open() also says which counter failed
 * (struct feed_failure) so that the tool can explain it with
 * pc_strerror().
 *
 * With a call graph (opts.callgraph), each sample also carries its chain
 * of frames, leaf first: the kernel's frames, then the user's, from the
 * kernel's PERF_SAMPLE_CALLCHAIN (frame pointers) or unwound here from a
 * copy of the user stack (DWARF, lib/unwind).  Every frame is resolved
 * like the sample's own IP, inlined functions included; an unresolved
 * frame keeps its DSO, offset and cause and never ends the chain.
 *
 * Lifetime: the pointers inside a struct feed_sample (the raw record, the
 * sym_result's strings, comm, the frames and their strings) are valid
 * during the callback only.
 */
#ifndef PROFILE_FEED_H
#define PROFILE_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sysapi/sysapi.h>

#include "profile/stacks.h"
#include "symbols/symbols.h"
#include "unwind/unwind.h"

struct feed;

/* What the counters watch. */
enum feed_scope {
	FEED_SYSTEM,	/* every task on the CPUs (one counter per CPU) */
	FEED_THREADS,	/* the threads in ids, each alone */
	FEED_PROCESSES,	/* the processes in ids: all their threads, and the
			   threads and children they create later */
	FEED_USER,	/* every process of uid that exists at open time,
			   and what they create later */
};

/* Which counter could not be opened, for the tool's message. */
struct feed_failure {
	pid_t pid;		/* the task, -1 for CPU-wide */
	int cpu;		/* the CPU, -1 for any */
	unsigned event;		/* index into opts.attrs */
	int err;		/* errno of the open */
};

/* Where call chains come from. */
enum feed_callgraph {
	FEED_CG_NONE,		/* the sampled IP alone */
	FEED_CG_FP,		/* the kernel walks frame pointers (user
				   code must keep them) */
	FEED_CG_DWARF,		/* the kernel copies the user stack and
				   registers; lib/unwind follows the CFI */
};

/* The kernel's bound on a user stack copy (perf_event_attr's
   sample_stack_user must be below 65535 and a multiple of 8). */
#define FEED_STACK_MAX 65528u
#define FEED_STACK_DEFAULT 8192u
/* Frames unwound from a user stack at most (the kernel's default
   kernel.perf_event_max_stack). */
#define FEED_MAX_USER_FRAMES 127

struct feed_opts {
	size_t sz;		/* sizeof(struct feed_opts) */
	/*
	 * The events, each filled by pc_event_parse() and
	 * pc_attr_sampling(); the feed adds PERF_SAMPLE_IDENTIFIER when
	 * there are several, to tell their samples apart.  Their records
	 * share rings: their sample_type must be the same (all by
	 * frequency, or all by period), else EINVAL.
	 */
	const struct perf_event_attr *attrs;
	unsigned nattrs;
	enum feed_scope scope;
	const pid_t *ids;	/* FEED_THREADS: tids; FEED_PROCESSES: pids */
	size_t nids;
	uid_t uid;		/* FEED_USER */
	const int *cpus;	/* the CPUs to watch; NULL: every online CPU */
	size_t ncpus;
	enum pc_backend backend;
	bool enable_on_exec;	/* counters start when the target execs
				   (a command held by spawn_hold()) */
	bool user_fallback;	/* refused kernel samples (paranoid level):
				   open user space only; feed_info() says so */
	bool no_resolve;	/* hand samples over unresolved (sym NULL) */
	unsigned ring_pages;	/* data pages per ring, a power of two;
				   0: 128, halved down to 8 when the mlock
				   limit refuses */
	struct symbols *sym;	/* where mappings go and samples resolve;
				   the caller keeps ownership */
	struct feed_failure *failure; /* filled when feed_open() fails */
	enum feed_callgraph callgraph;
	uint32_t stack_size;	/* FEED_CG_DWARF: bytes of user stack
				   copied per sample, a multiple of 8 up
				   to FEED_STACK_MAX; 0: FEED_STACK_DEFAULT */
	const char *cgroup;	/* FEED_SYSTEM only: the tasks of this
				   cgroup (pc_cgroup_open()'s name) and of
				   those below it, the kernel filtering;
				   NULL: every task */
	bool no_inherit;	/* FEED_PROCESSES, FEED_USER: the threads
				   and children created after the open are
				   not followed (perf's --no-inherit) */
	unsigned max_stack;	/* a chain's frames at most, the leaf's
				   included (perf's --max-stack: the
				   callers past it are dropped); 0: all */
	/* Told of each task the target gains (a FORK record: ptid the
	   thread that started it) or loses (EXIT: ptid 0), after the
	   feed's own bookkeeping, for a tool that keeps per-task state
	   (the task table's counters); NULL: none. */
	void (*task_fn)(void *arg, pid_t pid, pid_t tid, pid_t ptid,
			bool exited);
	void *task_arg;
	bool context_switch;	/* the first event also writes the
				   kernel's switch records (attr
				   context_switch): handed to the
				   feed_on_switch() callback */
	/*
	 * attrs[0] leads a group of every attr (perf's "{a,b}:S"): it
	 * samples, reading the group at each sample (PERF_SAMPLE_READ,
	 * PERF_FORMAT_GROUP); the others count in its group (their
	 * sample_period and freq are cleared) and never sample.  Each
	 * sample carries the members' deltas (struct feed_sample).  With
	 * inherit, a kernel older than 6.12 refuses PERF_SAMPLE_READ: the
	 * feed then opens without inherit (feed_info()'s no_inherit_read),
	 * as perf does.  Not on the 2008 backend (EOPNOTSUPP).
	 */
	bool group_read;
};

#define FEED_OPTS(...) \
	((struct feed_opts){ .sz = sizeof(struct feed_opts), __VA_ARGS__ })

/* A sample, classified and resolved. */
struct feed_sample {
	const struct pc_sample *raw;	/* ip, pid, tid, time, cpu, period */
	unsigned event;			/* index into opts.attrs */
	char mode;			/* 'k' kernel, '.' user, 'h' hypervisor,
					   'g' guest */
	bool has_cpu;			/* raw->cpu is meaningful (not on the
					   2008 backend) */
	const struct sym_result *sym;	/* NULL with opts.no_resolve */
	const char *comm;		/* the thread's command name */
	const struct stk_sample_frame *frames;
					/* leaf first: kernel frames, then
					   user frames; the sample's own
					   frame(s) alone without a call
					   graph; NULL with no_resolve (the
					   chain's aggregate's own type, so
					   that it goes to stacks_add() as
					   it is) */
	unsigned nframes;
	enum unwind_stop user_stop;	/* FEED_CG_DWARF: why the user part
					   ended (UNWIND_END otherwise) */
	/*
	 * opts.group_read: member i's count (attrs[i + 1]) since the
	 * previous sample of the same stream -- the same counter, and the
	 * same thread on a per-thread counter (inherited ones included) --
	 * or since the counter started, for a stream's first sample.  A
	 * delta covers everything between the two samples: the events of
	 * whatever ran since the previous one, not only of this sample's
	 * function.  NULL (ndeltas 0) otherwise.
	 */
	const uint64_t *deltas;
	unsigned ndeltas;
	/*
	 * opts.group_read: the leader's own count over the same interval,
	 * what the sample really spans; 0 otherwise.  Not always the
	 * period: a cpu-clock timer that fires late (a host that took the
	 * CPU away) is forwarded past the periods it missed, and its one
	 * sample spans them all.
	 */
	uint64_t lead_delta;
	bool same_fn;			/* the stream's previous sample was
					   in this sample's function (by its
					   resolved start; code without a
					   symbol by its row, "[unknown]" of
					   its dso and cause: rates_fn_key();
					   the same IP with no_resolve): the
					   deltas cover an
					   interval that began and ended in
					   it, and leak nothing from another */
};

/*
 * Called for each sample; return 0 to go on, non-zero to stop the drain
 * (the value is what feed_drain() returns).
 */
typedef int (*feed_fn)(void *arg, const struct feed_sample *s);

/*
 * What off-CPU pairing (offcpu.h) needs of the records, with
 * opts.context_switch: a watched thread leaving or coming back to a CPU
 * (PERF_RECORD_SWITCH, or SWITCH_CPU_WIDE on per-CPU counters, where
 * pid/tid are the task switching), a watched thread's EXIT, and a LOST
 * record (which may have held switches: pending ones are unreliable).
 */
enum feed_switch_kind {
	FEED_SWITCH_OUT,
	FEED_SWITCH_IN,
	FEED_SWITCH_EXIT,
	FEED_SWITCH_LOST,
};

struct feed_switch {
	enum feed_switch_kind kind;
	pid_t pid, tid;		/* -1 for LOST */
	const char *comm;	/* the thread's name (NULL for LOST): valid
				   during the callback */
	uint64_t time;		/* ns, the samples' clock */
	int cpu;		/* -1 when unknown */
	bool preempted;		/* OUT while runnable (the kernel's
				   SWITCH_OUT_PREEMPT) */
	uint64_t lost;		/* LOST: the records lost */
};

/* Called in time order with the samples; non-zero stops the drain. */
typedef int (*feed_switch_fn)(void *arg, const struct feed_switch *sw);

/* Where switch records go (NULL: nowhere, the default). */
void feed_on_switch(struct feed *f, feed_switch_fn fn, void *arg);

/*
 * Open the counters for opts and map their rings.  The counters are
 * enabled unless the attrs say disabled (or enable_on_exec).  Returns the
 * feed, or NULL with errno (and *opts->failure filled when the kernel
 * refused a counter: ESRCH for a task that is gone, EACCES/EPERM for
 * permission, ENOENT/EOPNOTSUPP for an event it cannot count, EINVAL for
 * an option outside the rules, ENOTSUP for FEED_CG_DWARF in a build
 * without libunwind, EOPNOTSUPP when the backend cannot sample chains).
 */
struct feed *feed_open(const struct feed_opts *opts);

/* Close every counter and free the feed.  NULL is a no-op. */
void feed_close(struct feed *f);

/*
 * Start the counters opened disabled (attrs' disabled), and the children
 * they were inherited by: a tool that has more to prepare (the kernel's
 * symbols) opens them first, so that a target it cannot sample is said
 * at once, and starts them when ready.  Counters of the 2008 call count
 * from their open and are left alone.  Returns 0, or -1 with errno.
 */
int feed_enable(struct feed *f);

/*
 * Wait up to timeout_ms (-1 forever) for records.  Returns 1 when some
 * ring has data, 0 on time-out, on a signal (EINTR) or when every
 * watched task has exited (see feed_info()), -1 with errno otherwise.
 */
int feed_poll(struct feed *f, int timeout_ms);

/*
 * feed_poll() that also wakes when fd (a terminal's keys; -1 none) is
 * readable, and says so in *fd_ready (when not NULL).  Returns 1 when
 * some ring has data, as feed_poll(); once every watched task has
 * ended it waits for fd alone.
 */
int feed_poll_fd(struct feed *f, int fd, int timeout_ms, bool *fd_ready);

/*
 * Take every record the rings hold: mappings and task events go to the
 * symbols session, samples to fn.  Returns 0, fn's non-zero value when it
 * stopped the drain, or -1 with errno (ENOMEM: a mapping, a file's or the
 * kernel's symbols could not be loaded for want of memory, and every later
 * sample would be wrong; EBADMSG is not returned: a
 * malformed record is skipped and counted in feed_info()).
 *
 * While samples arrive faster than they are read, the rings are never
 * empty and this never returns: a tool that must also draw, read keys or
 * see a signal drains with feed_drain_some().
 */
int feed_drain(struct feed *f, feed_fn fn, void *arg);

/* Bounds on one feed_drain_some(); 0 leaves that bound out. */
struct feed_budget {
	unsigned max_records;	/* records handled (samples and others) */
	double max_ms;		/* time spent, callbacks included (looked
				   at every few dozen records) */
};

#define FEED_BUDGET(...) ((struct feed_budget){ __VA_ARGS__ })

/*
 * feed_drain() within budget (NULL: none): it stops after max_records
 * records or max_ms, whichever comes first, and returns as feed_drain()
 * does.  *more (when more is not NULL) is set true when it stopped there
 * with records left: they arrive faster than they are read, and what
 * stays unread once a ring is full the kernel drops (feed_info()'s lost);
 * feed_info()'s cut_short counts these drains.  A live tool then draws,
 * reads its keys and signals, tells that samples are being dropped and
 * that a lower rate (-F) or a longer period (-c) avoids it, and drains
 * again without waiting.  Tasks that exited are forgotten (their maps,
 * names, unwinding state) only once every record written before their
 * EXIT was read, however the drains are cut.
 */
int feed_drain_some(struct feed *f, feed_fn fn, void *arg,
		    const struct feed_budget *budget, bool *more);

/*
 * Spend about budget_ms (a few dozen lines of /proc/PID/maps over it at
 * most; four times as long while samples wait) reading the mappings of
 * processes that ran before the feed opened (system-wide and user
 * scopes), those sampled first; a large process is read over several
 * calls.  Until its maps are read, a process's samples are held by the
 * feed (feed_info()'s held) and handed over, resolved, by the first drain
 * after: they are not shown as [unknown], and no drain waits for a read
 * of /proc.  Call it between drains, without waiting while samples are
 * held.  Returns how many processes are still to read.
 */
size_t feed_background(struct feed *f, double budget_ms);

/*
 * How the counters watch a target of tasks (FEED_THREADS, FEED_PROCESSES,
 * FEED_USER), chosen at feed_open() from the threads, the CPUs, the events
 * and the descriptors left under RLIMIT_NOFILE (what is open now and a
 * reserve for the symbol files the session will open taken off), in this
 * order:
 *  - FEED_SCHEME_THREADS where one counter per thread (per CPU, per event)
 *    fits;
 *  - else one counter per CPU (per event), the kernel filtering by cgroup
 *    (FEED_SCHEME_CGROUP) where the target's processes are alone in theirs
 *    (cgroup v2, or v1's perf_event hierarchy; no child cgroups), or for
 *    every task (FEED_SCHEME_CPUS).  Either way the feed keeps only the
 *    target's records (the processes and the children their FORKs show
 *    them create; FEED_THREADS: the tids), so that other tasks' samples
 *    and mappings never reach the tool or the symbols session.  Needs
 *    CPU-wide permission (root, CAP_PERFMON, perf_event_paranoid <= 0),
 *    tried by opening; not with enable_on_exec or the 2008 backend;
 *  - else (refused) per-thread counters on as many threads as fit, the
 *    busiest first (utime + stime), each process's main thread always:
 *    FEED_SCHEME_BUSIEST; the others' samples are missed.
 * FEED_SYSTEM is always FEED_SCHEME_SYSTEM.  feed_info() gives the figures,
 * feed_scheme_str() the sentence.
 */
enum feed_scheme {
	FEED_SCHEME_SYSTEM,	/* every task: one counter per CPU */
	FEED_SCHEME_THREADS,	/* one counter per thread */
	FEED_SCHEME_CPUS,	/* one per CPU, the target's records kept */
	FEED_SCHEME_CGROUP,	/* one per CPU on the target's cgroup */
	FEED_SCHEME_BUSIEST,	/* per-thread on the busiest threads only */
};

/* What the feed has seen, for headers and summaries. */
struct feed_info {
	uint64_t samples;		/* samples handed to the tool */
	uint64_t by_mode[4];		/* kernel, user, hypervisor, guest */
	uint64_t unresolved;		/* samples without a function */
	uint64_t lost;			/* samples the kernel dropped (the
					   counters' own count where the
					   kernel keeps one, else the LOST
					   records read so far; past 64
					   counters, their count as read
					   by a drain at most 0.25 s ago) */
	uint64_t cut_short;		/* feed_drain_some() calls that left
					   records unread */
	uint64_t held;			/* samples waiting now for their
					   process's maps (feed_background()) */
	uint64_t throttled;		/* THROTTLE records */
	uint64_t malformed;		/* records skipped as garbage */
	uint64_t frames;		/* frames handed over (call graphs) */
	uint64_t frames_unresolved;	/* of them, without a function */
	uint64_t user_stops[UNWIND_STOP_MAX]; /* DWARF chains by how they
					   ended */
	unsigned counters, rings;	/* fds opened, rings mapped */
	unsigned ring_pages;		/* data pages per ring */
	enum pc_backend backend;	/* what opened the counters */
	bool user_only;			/* opts.user_fallback took effect */
	bool target_gone;		/* every watched task has exited */
	pid_t gone_pid;			/* the last target seen to exit */

	/* the sampling scheme (enum feed_scheme) and why */
	enum feed_scheme scheme;
	unsigned threads;		/* the target's threads at open */
	unsigned threads_sampled;	/* of them, with counters of their
					   own (FEED_SCHEME_BUSIEST: fewer) */
	unsigned cpus;			/* CPUs counted on (1: any CPU) */
	uint64_t fds_per_thread;	/* what per-thread counters need:
					   threads x CPUs x events */
	uint64_t fd_limit;		/* RLIMIT_NOFILE at open */
	uint64_t fd_free;		/* of it, what the counters may take
					   (open files and a reserve for the
					   symbol files taken off) */
	int cpu_wide_err;		/* FEED_SCHEME_BUSIEST: the errno
					   that refused per-CPU counters (0:
					   not tried: enable_on_exec, the
					   2008 backend, too few fds) */
	uint64_t foreign;		/* per-CPU schemes: records of other
					   tasks dropped */
	bool no_inherit_read;		/* opts.group_read: the kernel refused
					   inherit with PERF_SAMPLE_READ
					   (before 6.12): children and new
					   threads are not followed */
	uint64_t group_unread;		/* group_read samples whose counts
					   could not be matched to the
					   members (no deltas) */
};
enum { FEED_MODE_KERNEL, FEED_MODE_USER, FEED_MODE_HV, FEED_MODE_GUEST };

void feed_info(const struct feed *f, struct feed_info *out);

/*
 * The scheme in one line, for a header or a summary, as snprintf(3) does
 * (returns the length the whole line needs): "per-CPU counters filtered
 * to pid 123 (3000 threads x 2 CPUs would need 6000 descriptors; limit
 * 4096)".  Names from outside (a cgroup's) are made visible
 * (esc_visible()).
 */
size_t feed_scheme_str(const struct feed *f, char *buf, size_t size);

/* The attr of event i as opened (with what the feed added). */
const struct perf_event_attr *feed_attr(const struct feed *f, unsigned i);

/*
 * Swap a cycles event for cpu-clock where the machine has no hardware
 * PMU (the samplers' shared fallback).  Returns true when it did.
 */
bool feed_event_fallback(struct perf_event_attr *attr);

/* Whether attr counts time, its period nanoseconds of CPU: cpu-clock,
   task-clock (off-CPU's wall-clock, ns per ms rates, pprof's unit). */
bool feed_time_event(const struct perf_event_attr *attr);

#endif /* PROFILE_FEED_H */
