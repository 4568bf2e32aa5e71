/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * counter.h - the object layer: one counter is one kernel event (one file
 * descriptor) on one task or one CPU, optionally a member of a group and
 * optionally sampling into a ring buffer (see ring.h).
 *
 * The same calls work on mainline perf_event_open and on the 2008
 * perf_counter_open of a kernel carrying pctools' patch (the "legacy"
 * backend).  The legacy call counts one event on one task or CPU and
 * samples IPs only; asking it for more fails with EOPNOTSUPP.
 */
#ifndef SYSAPI_COUNTER_H
#define SYSAPI_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pc_counter;
struct pc_ring;

enum pc_backend {
	PC_BACKEND_AUTO = 0,	/* perf_event_open; the 2008 call only where
				   it is the only one, or when the environment
				   says PCTOOLS_BACKEND=legacy */
	PC_BACKEND_EVENT,	/* perf_event_open(2) */
	PC_BACKEND_LEGACY,	/* perf_counter_open(2), pctools kernel patch */
};

struct pc_open_opts {
	size_t sz;		/* sizeof(struct pc_open_opts): lets it grow */
	pid_t pid;		/* 0 self, >0 task, -1 every task on cpu */
	int cpu;		/* -1 any CPU, else that CPU */
	struct pc_counter *leader; /* group leader, NULL to lead (or be alone) */
	enum pc_backend backend;
	bool group;		/* this leader will have members: read them
				   all in one read() (PERF_FORMAT_GROUP) */
	bool cgroup;		/* pid is the fd of a cgroup's directory
				   (pc_cgroup_open()): count the tasks in that
				   cgroup while they run on cpu, which must be
				   >= 0 (PERF_FLAG_PID_CGROUP) */
};

/*
 * Options as compound literals; further fields as designated initialisers:
 *
 *	PC_OPEN_TASK(pid)			one task (0 = the caller)
 *	PC_OPEN_TASK(0, .leader = lead)		a member of lead's group
 *	PC_OPEN_CPU(cpu)			every task on one CPU
 *	PC_OPEN_TASK_CPU(pid, cpu)		one task, only while on cpu
 *	PC_OPEN_CGROUP(fd, cpu)			a cgroup's tasks on one CPU
 *
 * (There is deliberately no macro that leaves cpu to a default: a zero
 * there would mean CPU 0, silently.)
 */
#define PC_OPEN_TASK_CPU(p, c, ...) \
	((struct pc_open_opts){ .sz = sizeof(struct pc_open_opts), \
				.pid = (p), .cpu = (c), __VA_ARGS__ })
#define PC_OPEN_TASK(p, ...) PC_OPEN_TASK_CPU(p, -1, __VA_ARGS__)
#define PC_OPEN_CPU(c, ...) PC_OPEN_TASK_CPU(-1, c, __VA_ARGS__)
#define PC_OPEN_CGROUP(fd, c, ...) \
	PC_OPEN_TASK_CPU(fd, c, .cgroup = true, __VA_ARGS__)

/*
 * Open attr (as filled by pc_event_parse() and the caller: disabled,
 * inherit, enable_on_exec, sample_* are honoured) for opts.  The library
 * adds the read_format it needs (times enabled/running, ID, and GROUP for
 * a leader with opts.group).  Members must be opened after their leader
 * and on the same pid/cpu.
 *
 * A cgroup counter (opts.cgroup) needs a cpu >= 0 and perf_event_open
 * (EINVAL otherwise; EOPNOTSUPP on the legacy backend); the kernel keeps
 * its own reference to the cgroup, so the fd may be closed once open.
 *
 * Returns a counter the caller owns (free with pc_counter_close()), or
 * NULL with errno set; pc_strerror() turns that errno into advice.
 */
struct pc_counter *pc_counter_open(const struct perf_event_attr *attr,
				   const struct pc_open_opts *opts);

/*
 * The backend PC_BACKEND_AUTO stands for here: PC_BACKEND_LEGACY when the
 * environment says PCTOOLS_BACKEND=legacy and the kernel has the 2008 call,
 * else PC_BACKEND_EVENT.  Issues no system call: a tool can learn before
 * opening anything what the counters will be able to do.
 */
enum pc_backend pc_backend_default(void);

/* Close the counter's fd, unmap its ring, free it.  NULL is a no-op. */
void pc_counter_close(struct pc_counter *c);

/* The counter's file descriptor (pollable when sampling). */
int pc_counter_fd(const struct pc_counter *c);

/* The attr as opened (read_format and all). */
const struct perf_event_attr *pc_counter_attr(const struct pc_counter *c);

/* Which system call opened it: PC_BACKEND_EVENT or PC_BACKEND_LEGACY. */
enum pc_backend pc_counter_backend(const struct pc_counter *c);

/*
 * Enable, disable or zero the counter; on a group leader, the whole group.
 * Return 0 or -1 with errno.
 */
int pc_counter_enable(struct pc_counter *c);
int pc_counter_disable(struct pc_counter *c);
int pc_counter_reset(struct pc_counter *c);

/* A count with the times that say how long the counter could run. */
struct pc_count {
	uint64_t value;		/* raw count */
	uint64_t enabled;	/* ns the counter was enabled */
	uint64_t running;	/* ns it was on the PMU (< enabled when
				   multiplexed) */
	uint64_t id;		/* kernel's event id (0 on legacy) */
};

/*
 * Read one counter.  Returns 0 or -1 with errno.  On the legacy backend,
 * enabled and running come from PERF_COUNTER_IOC_READ, so that a counter
 * that took turns (multiplexed, or under a reservation) is scaled as a
 * perf event is; on a kernel without that ioctl, both are the wall time
 * since the counter opened.
 */
int pc_counter_read(struct pc_counter *c, struct pc_count *out);

/*
 * The samples of a sampling counter (and of the children it was
 * inherited by) that the kernel dropped because the ring was full, to
 * this moment: PERF_FORMAT_LOST, asked for every sampling counter opened
 * outside a group where the kernel has it (Linux 6.0).  Unlike the LOST
 * records of pc_ring_lost(), which the kernel writes only once the ring
 * has room again (never, when the task ends first), this count is
 * complete.  Returns 0, or -1 with errno EOPNOTSUPP (an older kernel, a
 * group, the legacy backend) or read(2)'s.
 */
int pc_counter_lost(struct pc_counter *c, uint64_t *lost);

/*
 * Read a leader opened with opts.group and all its members in one read():
 * out[0] is the leader, then members in the order they were opened.  All
 * share the same enabled/running times.  Returns the number of counts
 * written (at most n), or -1 with errno.
 */
int pc_group_read(struct pc_counter *leader, struct pc_count *out, size_t n);

/*
 * The estimate of what the count would have been had the counter run the
 * whole time: value * enabled / running (value when running == 0 is
 * reported as 0 and *ran = false).
 */
double pc_count_scaled(const struct pc_count *cnt, bool *ran);

/*
 * Map a ring buffer of 1 + 2^n pages (data_pages must be a power of two)
 * for a sampling counter.  The ring belongs to the counter: it goes with
 * pc_counter_close().  Returns the ring or NULL with errno (EINVAL for a
 * size that is not a power of two, EPERM/ENOMEM past perf_event_mlock_kb).
 */
struct pc_ring *pc_counter_mmap(struct pc_counter *c, size_t data_pages);

/* The counter's ring, or NULL when not mapped. */
struct pc_ring *pc_counter_ring(const struct pc_counter *c);

/*
 * Send c's records to target's ring (PERF_EVENT_IOC_SET_OUTPUT), so that
 * one reader serves many counters with the same sample_type.
 */
int pc_counter_set_output(struct pc_counter *c, struct pc_counter *target);

/*
 * Helpers to fill attr for sampling: every period events, or freq times a
 * second when freq is true.  sample_type gets IP|TID|TIME|CPU plus
 * extra (e.g. PERF_SAMPLE_CALLCHAIN), and PERIOD with freq only: a fixed
 * period is not asked for (a software event would then be sampled at
 * every event), and the ring reader fills it in from the attr.  mmap2,
 * comm, task and sample_id_all are set so that a symbolizer can follow
 * the target's mappings.
 */
void pc_attr_sampling(struct perf_event_attr *attr, uint64_t period_or_freq,
		      bool freq, uint64_t extra_sample_type);

/*
 * perf's fallback for a refused counter: when err (the errno of opening
 * attr) is the paranoid level's refusal of its kernel part -- EACCES or
 * EPERM, attr counts the kernel and the user, the caller is not root
 * and perf_event_paranoid is 2 or more -- set attr to count user space
 * only (exclude_kernel, exclude_hv) and return true: open it again with
 * the same arguments.  Else return false, attr unchanged.
 */
bool pc_attr_user_only(struct perf_event_attr *attr, int err);

/*
 * Ask also for user registers (mask) and stack_bytes of user stack on each
 * sample, for a user-space unwinder.
 */
void pc_attr_user_stack(struct perf_event_attr *attr, uint64_t regs_mask,
			uint32_t stack_bytes);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_COUNTER_H */
