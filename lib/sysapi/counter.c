/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * counter.c - the object layer over both system calls: open a counter on
 * a task or a CPU, in a group or alone; enable, read, scale, map a ring.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>
#include <sysapi/event.h>
#include <sysapi/probe.h>
#include "base/optsz.h"
#include "sysapi-internal.h"

#define READ_FORMAT_BASE (PERF_FORMAT_TOTAL_TIME_ENABLED | \
			  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

static int counter_open_event(struct pc_counter *c,
			      const struct pc_open_opts *o)
{
	int group_fd = o->leader ? o->leader->fd : -1;

	c->attr.read_format = READ_FORMAT_BASE;
	if (!o->leader && o->group)
		c->attr.read_format |= PERF_FORMAT_GROUP;
	/* a lone sampler counts what its ring could not take */
	else if (!o->leader && c->attr.sample_period && pc_probe()->format_lost)
		c->attr.read_format |= PERF_FORMAT_LOST;
	c->fd = pc_sys_event_open(&c->attr, o->pid, o->cpu, group_fd,
				  PERF_FLAG_FD_CLOEXEC |
				  (o->cgroup ? PERF_FLAG_PID_CGROUP : 0));
	return c->fd < 0 ? -1 : 0;
}

/*
 * The 2008 call counts one event on one task or CPU, from the moment it
 * opens, and samples IPs only: anything more is refused, not faked.
 */
static int counter_open_legacy(struct pc_counter *c,
			       const struct pc_open_opts *o)
{
	const struct perf_event_attr *a = &c->attr;
	uint64_t plain = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	uint32_t record = PERF_RECORD_SIMPLE;
	int32_t type;

	if (o->leader || o->group || o->cgroup || a->inherit || a->freq ||
	    a->exclude_user || a->exclude_kernel ||
	    (a->sample_type & ~plain) || a->sample_period > UINT32_MAX) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (pc_legacy_type(a, &type))
		return -1;
	if (a->sample_period)
		record = PERF_RECORD_IRQ;
	c->fd = perf_counter_open(type, (uint32_t)a->sample_period, record,
				  o->pid, o->cpu);
	if (c->fd < 0) {
		/*
		 * The 2008 call's answer to an event the CPU cannot count is
		 * EINVAL.  Everything else it refuses with EINVAL was checked
		 * above, but for the CPU number: give it back as
		 * perf_event_open()'s ENOENT, "not supported here".
		 */
		if (errno == EINVAL && type < PERF_HW_EVENTS_MAX &&
		    o->cpu < pc_probe()->ncpus)
			errno = ENOENT;
		return -1;
	}
	/* The 2008 call takes no flags: set close-on-exec ourselves. */
	if (fcntl(c->fd, F_SETFD, FD_CLOEXEC) < 0) {
		int err = errno;

		close(c->fd);
		errno = err;
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &c->opened);
	return 0;
}

struct pc_counter *pc_counter_open(const struct perf_event_attr *attr,
				   const struct pc_open_opts *opts)
{
	struct pc_open_opts o = { .sz = sizeof(o), .cpu = -1 };
	struct pc_counter *c;
	enum pc_backend backend;
	int err, ret;

	if (optsz_copy(&o, sizeof(o), opts) != 0)
		return NULL;
	if (attr && attr->type == PC_TYPE_TOOL) {	/* no kernel counter */
		errno = ENOENT;
		return NULL;
	}
	if (!attr || (o.pid == -1 && o.cpu == -1) ||
	    (o.leader && o.group) || (o.cgroup && (o.pid < 0 || o.cpu < 0))) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->attr = *attr;
	c->attr.size = sizeof(c->attr);
	c->leader = o.leader;
	c->pid = o.pid;
	c->fd = -1;

	backend = o.backend;
	if (o.leader)
		backend = o.leader->backend;
	else if (backend == PC_BACKEND_AUTO)
		backend = pc_backend_default();
	c->backend = backend;
	ret = backend == PC_BACKEND_LEGACY ? counter_open_legacy(c, &o)
					   : counter_open_event(c, &o);
	if (ret && errno == ENOSYS && o.backend == PC_BACKEND_AUTO &&
	    backend == PC_BACKEND_EVENT && !o.leader && pc_probe()->legacy) {
		c->backend = PC_BACKEND_LEGACY;
		c->attr = *attr;
		ret = counter_open_legacy(c, &o);
	}
	if (ret) {
		err = errno;
		free(c);
		errno = err;
		return NULL;
	}
	if (o.leader)
		o.leader->nr_members++;
	return c;
}

enum pc_backend pc_backend_default(void)
{
	int err = errno;
	bool legacy = pc_legacy_wanted() && perf_counter_syscall_nr() >= 0;

	errno = err;
	return legacy ? PC_BACKEND_LEGACY : PC_BACKEND_EVENT;
}

void pc_counter_close(struct pc_counter *c)
{
	int err = errno;

	if (!c)
		return;
	pc_ring_free(c->ring);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	errno = err;
}

int pc_counter_fd(const struct pc_counter *c)
{
	return c->fd;
}

const struct perf_event_attr *pc_counter_attr(const struct pc_counter *c)
{
	return &c->attr;
}

enum pc_backend pc_counter_backend(const struct pc_counter *c)
{
	return c->backend;
}

static int counter_ioctl(struct pc_counter *c, unsigned long req)
{
	unsigned long flag = c->attr.read_format & PERF_FORMAT_GROUP ?
			     PERF_IOC_FLAG_GROUP : 0;

	if (c->backend == PC_BACKEND_LEGACY) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return ioctl(c->fd, req, flag) < 0 ? -1 : 0;
}

int pc_counter_enable(struct pc_counter *c)
{
	return counter_ioctl(c, PERF_EVENT_IOC_ENABLE);
}

int pc_counter_disable(struct pc_counter *c)
{
	return counter_ioctl(c, PERF_EVENT_IOC_DISABLE);
}

int pc_counter_reset(struct pc_counter *c)
{
	return counter_ioctl(c, PERF_EVENT_IOC_RESET);
}

static int read_full(int fd, void *buf, size_t len)
{
	ssize_t n = read(fd, buf, len);

	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/*
 * A 2008 counter: the count with its times from PERF_COUNTER_IOC_READ, so
 * that one that took turns is scaled like a perf event; on a kernel
 * without that ioctl, the count from read() and the time since the open
 * for both times.
 */
static int counter_read_legacy(struct pc_counter *c, struct pc_count *out)
{
	struct perf_counter_read r;
	struct timespec now;
	uint64_t v;

	if (c->attr.sample_period) {	/* an IRQ counter reads IPs */
		errno = EINVAL;
		return -1;
	}
	out->id = 0;
	if (!c->legacy_no_times) {
		if (ioctl(c->fd, PERF_COUNTER_IOC_READ, &r) == 0) {
			out->value = r.value;
			out->enabled = r.time_enabled;
			out->running = r.time_running;
			return 0;
		}
		if (errno != ENOTTY)
			return -1;
		c->legacy_no_times = true;
	}
	if (read_full(c->fd, &v, sizeof(v)))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	out->value = v;
	out->enabled = (uint64_t)(now.tv_sec - c->opened.tv_sec) * 1000000000u +
		       (uint64_t)now.tv_nsec - (uint64_t)c->opened.tv_nsec;
	out->running = out->enabled;
	return 0;
}

/* { value, time_enabled, time_running, id[, lost] } */
static int counter_read_one(struct pc_counter *c, uint64_t buf[5])
{
	size_t n = c->attr.read_format & PERF_FORMAT_LOST ? 5 : 4;

	buf[4] = 0;
	return read_full(c->fd, buf, n * sizeof(uint64_t));
}

int pc_counter_read(struct pc_counter *c, struct pc_count *out)
{
	uint64_t buf[5];

	if (c->backend == PC_BACKEND_LEGACY)
		return counter_read_legacy(c, out);
	if (c->attr.read_format & PERF_FORMAT_GROUP)
		return pc_group_read(c, out, 1) < 0 ? -1 : 0;
	if (counter_read_one(c, buf))
		return -1;
	out->value = buf[0];
	out->enabled = buf[1];
	out->running = buf[2];
	out->id = buf[3];
	return 0;
}

int pc_counter_lost(struct pc_counter *c, uint64_t *lost)
{
	uint64_t buf[5];

	if (c->backend == PC_BACKEND_LEGACY ||
	    !(c->attr.read_format & PERF_FORMAT_LOST)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (counter_read_one(c, buf))
		return -1;
	*lost = buf[4];
	return 0;
}

int pc_group_read(struct pc_counter *leader, struct pc_count *out, size_t n)
{
	/* { nr, time_enabled, time_running, { value, id }[nr] } */
	size_t nr = (size_t)leader->nr_members + 1, len = (3 + 2 * nr) * 8;
	uint64_t stack[3 + 2 * 16], *buf = stack;
	ssize_t got;
	int ret = -1;

	if (!(leader->attr.read_format & PERF_FORMAT_GROUP)) {
		errno = EINVAL;
		return -1;
	}
	if (len > sizeof(stack) && !(buf = malloc(len)))
		return -1;
	got = read(leader->fd, buf, len);
	if (got < 0)
		goto out;
	if (got < 24 || (size_t)got < (3 + 2 * buf[0]) * 8) {
		errno = EIO;
		goto out;
	}
	for (size_t i = 0; i < buf[0] && i < n; i++) {
		out[i].value = buf[3 + 2 * i];
		out[i].id = buf[4 + 2 * i];
		out[i].enabled = buf[1];
		out[i].running = buf[2];
		ret = (int)i + 1;
	}
	if (ret < 0)
		ret = 0;
out:
	if (buf != stack) {
		int err = errno;

		free(buf);
		errno = err;
	}
	return ret;
}

double pc_count_scaled(const struct pc_count *cnt, bool *ran)
{
	if (ran)
		*ran = cnt->running != 0;
	if (cnt->running == 0)
		return 0.0;
	if (cnt->running >= cnt->enabled)
		return (double)cnt->value;
	return (double)cnt->value * (double)cnt->enabled / (double)cnt->running;
}

struct pc_ring *pc_counter_mmap(struct pc_counter *c, size_t data_pages)
{
	if (c->ring) {
		errno = EBUSY;
		return NULL;
	}
	c->ring = pc_ring_new(c, data_pages);
	return c->ring;
}

struct pc_ring *pc_counter_ring(const struct pc_counter *c)
{
	return c->ring;
}

int pc_counter_set_output(struct pc_counter *c, struct pc_counter *target)
{
	if (c->backend == PC_BACKEND_LEGACY ||
	    target->backend == PC_BACKEND_LEGACY) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return ioctl(c->fd, PERF_EVENT_IOC_SET_OUTPUT, target->fd) < 0 ? -1 : 0;
}

void pc_attr_sampling(struct perf_event_attr *attr, uint64_t period_or_freq,
		      bool freq, uint64_t extra_sample_type)
{
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			     extra_sample_type;
	/*
	 * A fixed period is known without asking, and asking costs it: a
	 * software event (page-faults, context-switches) with
	 * PERF_SAMPLE_PERIOD and no freq is sampled at every event by the
	 * kernel's perf_swevent_event(), whatever the period.
	 */
	if (freq)
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	else
		attr->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	attr->freq = freq;
	if (freq)
		attr->sample_freq = period_or_freq;
	else
		attr->sample_period = period_or_freq;
	attr->mmap = 1;
	attr->mmap2 = 1;
	attr->comm = 1;
	attr->task = 1;
	attr->sample_id_all = 1;
}

bool pc_attr_user_only(struct perf_event_attr *attr, int err)
{
	if ((err != EACCES && err != EPERM) || attr->exclude_kernel ||
	    attr->exclude_user || geteuid() == 0 || pc_probe()->paranoid < 2)
		return false;
	attr->exclude_kernel = attr->exclude_hv = 1;
	return true;
}

void pc_attr_user_stack(struct perf_event_attr *attr, uint64_t regs_mask,
			uint32_t stack_bytes)
{
	attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr->sample_regs_user = regs_mask;
	attr->sample_stack_user = stack_bytes & ~7u;
}
