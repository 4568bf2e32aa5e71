/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed.c - sampling counters on a target, their rings drained into
 * resolved samples (see feed.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array.h"
#include "base/optsz.h"
#include "profile/comm.h"
#include "profile/feed.h"
#include "profile/feed-internal.h"

/* --- opening ---------------------------------------------------------------- */

/* Add tid to the task list (tasks_unique() drops the repeated). */
static int task_add(struct feed *f, pid_t tid)
{
	if (ARRAY_GROW(f->tasks, f->ntasks + 1, f->tasks_alloc) != 0)
		return -1;
	f->tasks[f->ntasks++] = tid;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Sorted, each task once: a look-up per add took a second at 50,000. */
static void tasks_unique(struct feed *f)
{
	size_t i, j;

	if (!f->ntasks)
		return;
	qsort(f->tasks, f->ntasks, sizeof(*f->tasks), cmp_pid);
	for (i = 1, j = 1; i < f->ntasks; i++)
		if (f->tasks[i] != f->tasks[j - 1])
			f->tasks[j++] = f->tasks[i];
	f->ntasks = j;
}

/* Every thread of process pid; ESRCH when it is gone. */
static int task_add_process(struct feed *f, pid_t pid)
{
	pid_t *tids = NULL;
	int n, i, rc = 0;

	n = pc_task_threads(pid, &tids);
	if (n < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++)
		rc = task_add(f, tids[i]);
	free(tids);
	return rc;
}

/*
 * The processes running now: all of them (uid_match false), or uid's.
 * Each goes on the background list; with add_tasks, its threads become
 * targets too.
 */
static int scan_processes(struct feed *f, bool uid_match, uid_t uid,
			  bool add_tasks)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int rc = 0;

	if (!d)
		return -1;
	while (rc == 0 && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct stat st;

		if (*end || pid <= 0)
			continue;
		if (uid_match && (fstatat(dirfd(d), de->d_name, &st, 0) != 0 ||
				  st.st_uid != uid))
			continue;
		rc = feed_maps_add(f, (pid_t)pid);
		if (rc == 0 && add_tasks && task_add_process(f, (pid_t)pid) &&
		    errno != ESRCH)
			rc = -1;	/* a process that just ended is no error */
	}
	closedir(d);
	return rc;
}

static int targets_setup(struct feed *f, const struct feed_opts *o)
{
	size_t i;

	switch (o->scope) {
	case FEED_SYSTEM:
		f->per_cpu = true;
		return scan_processes(f, false, 0, false);
	case FEED_THREADS:
		for (i = 0; i < o->nids; i++)
			if (task_add(f, o->ids[i]) != 0)
				return -1;
		tasks_unique(f);
		/* one thread alone needs no per-CPU rings */
		f->per_cpu = f->ntasks > 1 || o->cpus;
		break;
	case FEED_PROCESSES:
		f->inherit = true;
		f->per_cpu = true;
		for (i = 0; i < o->nids; i++) {
			if (task_add_process(f, o->ids[i]) != 0) {
				if (o->failure && errno == ESRCH)
					*o->failure = (struct feed_failure){
						o->ids[i], -1, 0, ESRCH };
				return -1;
			}
		}
		tasks_unique(f);
		break;
	case FEED_USER:
		f->inherit = true;
		f->per_cpu = true;
		if (scan_processes(f, true, o->uid, true) != 0)
			return -1;
		tasks_unique(f);
		if (f->ntasks == 0) {
			errno = ESRCH;
			if (o->failure)
				*o->failure = (struct feed_failure){ -1, -1, 0,
								     ESRCH };
			return -1;
		}
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
	/* the targets whose end ends the feed */
	f->watch = calloc(o->nids ? o->nids : 1, sizeof(*f->watch));
	if (!f->watch)
		return -1;
	for (i = 0; i < o->nids; i++) {
		size_t j;

		for (j = 0; j < f->nwatch; j++)
			if (f->watch[j].id == o->ids[i])
				break;
		if (j == f->nwatch)
			f->watch[f->nwatch++].id = o->ids[i];
	}
	f->watch_tids = o->scope == FEED_THREADS;
	f->scope_ends = true;
	return 0;
}

static int cpus_setup(struct feed *f, const struct feed_opts *o)
{
	int *cpus = NULL, n;

	if (!f->per_cpu) {
		f->cpus = malloc(sizeof(*f->cpus));
		if (!f->cpus)
			return -1;
		f->cpus[0] = -1;
		f->ncpus = 1;
		return 0;
	}
	if (o->cpus) {
		f->cpus = malloc(o->ncpus * sizeof(*f->cpus));
		if (!f->cpus)
			return -1;
		memcpy(f->cpus, o->cpus, o->ncpus * sizeof(*f->cpus));
		f->ncpus = o->ncpus;
		return 0;
	}
	n = pc_cpus_online(&cpus);
	if (n <= 0)
		return -1;
	f->cpus = cpus;
	f->ncpus = (size_t)n;
	return 0;
}

/* Map a ring, halving its size while the mlock limit refuses it. */
static struct pc_ring *ring_map(struct feed *f, struct pc_counter *c)
{
	struct pc_ring *r;

	for (;;) {
		r = pc_counter_mmap(c, f->ring_pages);
		if (r || (errno != EPERM && errno != ENOMEM) ||
		    f->ring_pages <= 8)
			return r;
		f->ring_pages /= 2;
	}
}

static int counter_add(struct feed *f, struct pc_counter *c, unsigned event)
{
	struct pc_count cnt = { 0 };

	if (ARRAY_GROW(f->ctr, f->nctr + 1, f->ctr_alloc) != 0)
		return -1;
	/* the kernel's id tells the events' samples apart */
	if (f->nattrs > 1 && pc_counter_read(c, &cnt) != 0)
		return -1;
	f->ctr[f->nctr++] = (struct feed_counter){ c, cnt.id, event, false };
	return 0;
}

/*
 * Open every (cpu, task, event) counter, or (cpu, event) for every task
 * or the target's cgroup (the per-CPU schemes); rings on the first of
 * each CPU.
 */
static int counters_open(struct feed *f, const struct feed_opts *o)
{
	bool cpu_wide = f->info.scheme == FEED_SCHEME_CPUS ||
			f->info.scheme == FEED_SCHEME_CGROUP;
	size_t ci, ti, ntasks = cpu_wide ? 0 : f->ntasks;
	unsigned e;

	/* a second try (user space only) forgets the first one's failure:
	   a ring that will not map after it has no counter to blame */
	if (o->failure)
		*o->failure = (struct feed_failure){ .pid = -1, .cpu = -1 };
	f->cpu_wide = !ntasks;
	for (ci = 0; ci < f->ncpus; ci++) {
		struct pc_counter *owner = NULL;

		for (ti = 0; ti < ntasks || (ti == 0 && !ntasks); ti++) {
			pid_t pid = ntasks ? f->tasks[ti] : -1;
			bool cg = f->cgroup_fd >= 0;
			struct pc_counter *leader = NULL;

			for (e = 0; e < f->nattrs; e++) {
				struct pc_counter *c;

				/* group_read: members count in the group of
				   this (cpu, task)'s leader, with no ring */
				c = pc_counter_open(&f->attrs[e],
					&PC_OPEN_TASK_CPU(cg ? f->cgroup_fd : pid,
						f->cpus[ci], .cgroup = cg,
						.backend = o->backend,
						.leader = leader,
						.group = f->group_read && !e));
				if (!c && errno == ESRCH && f->inherit &&
				    ntasks > 1)
					break;	/* a thread that just ended */
				if (!c) {
					if (o->failure)
						*o->failure = (struct feed_failure){
							pid, f->cpus[ci], e, errno };
					return -1;
				}
				if (counter_add(f, c, e) != 0) {
					pc_counter_close(c);
					return -1;
				}
				if (f->group_read && e)
					continue;
				if (f->group_read)
					leader = c;
				if (owner) {
					if (pc_counter_set_output(c, owner) != 0)
						return -1;
					continue;
				}
				owner = c;
				if (ARRAY_GROW(f->rings, f->nrings + 1,
					       f->rings_alloc) != 0)
					return -1;
				if (ARRAY_GROW(f->heads, f->nrings + 1,
					       f->heads_alloc) != 0)
					return -1;
				f->heads[f->nrings].full = false;
				f->rings[f->nrings] = ring_map(f, c);
				if (!f->rings[f->nrings])
					return -1;
				f->nrings++;
			}
		}
	}
	if (!f->nctr) {		/* every thread ended before we came */
		errno = ESRCH;
		return -1;
	}
	return 0;
}

static void counters_close(struct feed *f)
{
	size_t i;

	for (i = 0; i < f->nctr; i++)
		pc_counter_close(f->ctr[i].c);
	f->nctr = 0;
	f->nrings = 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct feed_counter *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void attrs_setup(struct feed *f, const struct feed_opts *o)
{
	uint32_t stack = o->stack_size ? o->stack_size : FEED_STACK_DEFAULT;
	unsigned e;

	for (e = 0; e < f->nattrs; e++) {
		struct perf_event_attr *a = &f->attrs[e];

		if (f->nattrs > 1)
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		if (o->callgraph != FEED_CG_NONE)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (o->callgraph == FEED_CG_DWARF) {
			/* the user part comes from the stack copy */
			pc_attr_user_stack(a, unwind_regs_mask(), stack);
			a->exclude_callchain_user = 1;
		}
		a->inherit = f->inherit && !f->no_inherit;
		/* one event writes them: two would double every switch */
		a->context_switch = e == 0 && o->context_switch;
		if (o->enable_on_exec) {
			a->disabled = 1;
			a->enable_on_exec = 1;
		}
		if (f->group_read && !e) {
			/* TID: the kernel's condition for inherit */
			a->sample_type |= PERF_SAMPLE_READ | PERF_SAMPLE_TID;
		} else if (f->group_read) {
			/* a member counts while its leader does, and
			   writes nothing: no samples, no side records */
			a->sample_period = 0;
			a->freq = 0;
			a->sample_type = 0;
			a->mmap = a->mmap2 = a->comm = a->comm_exec = 0;
			a->task = a->sample_id_all = 0;
			a->disabled = a->enable_on_exec = 0;
		}
	}
}

/* Whether o asks for a feed that can be opened. */
static bool opts_valid(const struct feed_opts *o)
{
	return o->attrs && o->nattrs &&
	       (o->sym || (o->no_resolve && o->callgraph != FEED_CG_DWARF)) &&
	       (unsigned)o->callgraph <= FEED_CG_DWARF &&
	       !(o->stack_size % 8) && o->stack_size <= FEED_STACK_MAX &&
	       !((o->scope == FEED_THREADS || o->scope == FEED_PROCESSES) &&
		 !o->nids) && !(o->cgroup && o->scope != FEED_SYSTEM);
}

/* f's own copies of o's events, the group read's deltas and the
   unwinder; 0, or -1 with errno. */
static int feed_init(struct feed *f, const struct feed_opts *o)
{
	f->comms = (struct comm_table)COMM_TABLE_INIT;
	f->cgroup_fd = -1;
	f->sym = o->sym;
	f->no_resolve = o->no_resolve;
	f->no_inherit = o->no_inherit;
	f->task_fn = o->task_fn;
	f->task_arg = o->task_arg;
	f->nattrs = o->nattrs;
	f->ring_pages = o->ring_pages ? o->ring_pages : 128;
	f->attrs = calloc(o->nattrs, sizeof(*f->attrs));
	if (!f->attrs)
		return -1;
	memcpy(f->attrs, o->attrs, o->nattrs * sizeof(*f->attrs));
	f->group_read = o->group_read;
	if (f->group_read && (o->nattrs < 2 || o->nattrs > 8)) {
		errno = EINVAL;
		return -1;
	}
	if (f->group_read) {
		f->deltas = calloc(o->nattrs, sizeof(*f->deltas));
		if (!f->deltas)
			return -1;
	}
	/* one ring serves them all: their records must read alike */
	for (unsigned e = 1; e < o->nattrs && !f->group_read; e++) {
		if (f->attrs[e].sample_type != f->attrs[0].sample_type) {
			errno = EINVAL;
			return -1;
		}
	}
	f->callgraph = o->callgraph;
	f->max_stack = o->max_stack;
	if (o->callgraph == FEED_CG_DWARF) {
		f->unwind = unwind_new(o->sym);
		f->uf = malloc(FEED_MAX_USER_FRAMES * sizeof(*f->uf));
		if (!f->unwind || !f->uf)
			return -1;
	}
	return 0;
}

/*
 * The counters opened, or opened again as what the kernel refused
 * allows: every task with the feed filtering for a cgroup counter that
 * will not open, no inheritance for a group read, the busiest threads
 * for per-CPU counters, user space for the kernel.  0, or -1 with errno.
 */
static int counters_open_fallbacks(struct feed *f, const struct feed_opts *o)
{
	int rc = counters_open(f, o);

	/* A cgroup counter that will not open (not EACCES: below) may
	   still open for every task, the feed filtering. */
	if (rc != 0 && errno != EACCES && errno != EPERM &&
	    f->info.scheme == FEED_SCHEME_CGROUP) {
		counters_close(f);
		feed_scheme_release(f);
		f->info.scheme = FEED_SCHEME_CPUS;
		rc = counters_open(f, o);
	}
	/* Inherit with PERF_SAMPLE_READ refused (before Linux 6.12): the
	   tasks alone, not their children, as perf falls back */
	if (rc != 0 && errno == EINVAL && f->group_read &&
	    f->attrs[0].inherit) {
		counters_close(f);
		for (unsigned e = 0; e < f->nattrs; e++)
			f->attrs[e].inherit = 0;
		f->info.no_inherit_read = true;
		rc = counters_open(f, o);
	}
	/* Per-CPU counters refused (the paranoid level): the busiest
	   threads, as many as fit. */
	if (rc != 0 && (errno == EACCES || errno == EPERM) &&
	    (f->info.scheme == FEED_SCHEME_CPUS ||
	     f->info.scheme == FEED_SCHEME_CGROUP)) {
		counters_close(f);
		feed_scheme_refused(f, errno);
		rc = counters_open(f, o);
	}
	/* Not allowed to see the kernel: sample user space, and say so
	   (sysapi's rule, perf's and pcstat's) */
	if (rc != 0 && o->user_fallback && f->nrings == 0 &&
	    pc_attr_user_only(&f->attrs[0], errno)) {
		int err = errno;
		unsigned e;

		counters_close(f);
		for (e = 1; e < f->nattrs; e++)
			pc_attr_user_only(&f->attrs[e], err);
		f->user_only = true;
		/* a ring refused now is not the kernel's refusal before */
		if (o->failure)
			*o->failure = (struct feed_failure){ .err = 0 };
		rc = counters_open(f, o);
	}
	return rc;
}

struct feed *feed_open(const struct feed_opts *opts)
{
	struct feed_opts copy = { .sz = sizeof(copy) }, *o = &copy;
	struct feed *f;
	int saved;

	if (!opts) {
		errno = EINVAL;
		return NULL;
	}
	if (optsz_copy(&copy, sizeof(copy), opts) != 0)
		return NULL;
	if (!opts_valid(o)) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	if (feed_init(f, o) != 0 ||
	    targets_setup(f, o) != 0 || cpus_setup(f, o) != 0)
		goto fail;
	attrs_setup(f, o);
	if (feed_scheme_choose(f, o) != 0 ||
	    counters_open_fallbacks(f, o) != 0)
		goto fail;
	f->backend = pc_counter_backend(f->ctr[0].c);
	if (f->nattrs > 1)
		qsort(f->ctr, f->nctr, sizeof(*f->ctr), cmp_id);
	f->pfd = calloc(f->nctr + 1, sizeof(*f->pfd));	/* + feed_poll_fd()'s */
	if (!f->pfd)
		goto fail;
	f->npfd = f->nctr;
	return f;
fail:
	saved = errno;
	feed_close(f);
	errno = saved;
	return NULL;
}

void feed_close(struct feed *f)
{
	if (!f)
		return;
	counters_close(f);
	comm_release(&f->comms);
	free(f->ctr);
	free(f->rings);
	free(f->heads);
	free(f->pfd);
	free(f->attrs);
	free(f->tasks);
	free(f->cpus);
	free(f->watch);
	feed_scheme_release(f);
	feed_filter_release(f);
	feed_maps_release(f);
	feed_held_release(f);
	unwind_free(f->unwind);
	free(f->uf);
	free(f->fr);
	free(f->exits);
	free(f->marks);
	feed_streams_release(f);
	free(f->deltas);
	free(f);
}

int feed_enable(struct feed *f)
{
	size_t i;

	for (i = 0; i < f->nctr; i++)
		if (pc_counter_backend(f->ctr[i].c) != PC_BACKEND_LEGACY &&
		    pc_counter_enable(f->ctr[i].c) != 0)
			return -1;
	return 0;
}

const struct perf_event_attr *feed_attr(const struct feed *f, unsigned i)
{
	return i < f->nattrs ? &f->attrs[i] : NULL;
}

bool feed_event_fallback(struct perf_event_attr *attr)
{
	int err;

	if (attr->type != PERF_TYPE_HARDWARE ||
	    attr->config != PERF_COUNT_HW_CPU_CYCLES ||
	    pc_event_available(attr, &err))
		return false;
	pc_event_parse("cpu-clock", attr, NULL);
	return true;
}

bool feed_time_event(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
		attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

/* --- waiting ---------------------------------------------------------------- */

int feed_poll(struct feed *f, int timeout_ms)
{
	return feed_poll_fd(f, -1, timeout_ms, NULL);
}

int feed_poll_fd(struct feed *f, int fd, int timeout_ms, bool *fd_ready)
{
	size_t i, n = 0, k;
	bool ready = false;
	int r;

	if (fd_ready)
		*fd_ready = false;
	for (i = 0; i < f->nctr; i++) {
		if (f->ctr[i].hup)
			continue;
		f->pfd[n].fd = pc_counter_fd(f->ctr[i].c);
		f->pfd[n].events = POLLIN;
		f->pfd[n].revents = 0;
		n++;
	}
	if (n == 0)		/* every counter's task has ended */
		f->target_gone = f->scope_ends;
	if (fd >= 0)
		f->pfd[n] = (struct pollfd){ .fd = fd, .events = POLLIN };
	else if (n == 0)
		return 0;
	r = poll(f->pfd, n + (fd >= 0), timeout_ms);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (fd >= 0 && fd_ready)
		*fd_ready = f->pfd[n].revents != 0;
	if (r == 0)
		return 0;
	/*
	 * POLLHUP: the counter's task (and every child it followed) has
	 * ended; a hung-up fd polls ready for ever, so leave it out from
	 * now on.  Records of other counters sharing its ring still wake
	 * their own fds.
	 */
	for (i = 0, k = 0; i < f->nctr; i++) {
		if (f->ctr[i].hup)
			continue;
		ready |= f->pfd[k].revents != 0;
		if (f->pfd[k++].revents & POLLHUP)
			f->ctr[i].hup = true;
	}
	return ready;
}

void feed_info(const struct feed *f, struct feed_info *out)
{
	uint64_t records = 0, counted;
	size_t i;
	bool complete;

	*out = f->info;
	for (i = 0; i < f->nrings; i++)
		records += pc_ring_lost(f->rings[i]);
	/*
	 * The LOST records come late or never: the kernel writes one only
	 * when the ring has room again, so a target that ends with its ring
	 * full takes its count along.  The counters keep the whole count.
	 */
	if (f->nctr <= FEED_LOST_READ_ALL) {
		complete = feed_lost_count(f, &counted);
	} else {
		complete = f->lost_complete;
		counted = f->lost_counted;
	}
	out->lost = complete && counted > records ? counted : records;
	out->counters = (unsigned)f->nctr;
	out->rings = (unsigned)f->nrings;
	out->ring_pages = f->ring_pages;
	out->backend = f->backend;
	out->user_only = f->user_only;
	out->target_gone = f->target_gone;
	out->held = f->nheld;
	out->gone_pid = f->gone_pid;
}
