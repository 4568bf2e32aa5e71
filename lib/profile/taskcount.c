/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* taskcount.c - the task table's counters, a bounded set of threads. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/array.h"
#include "base/optsz.h"
#include "profile/taskcount.h"

/* The events in enum tasks_event's order; a group starts at each leader. */
static const struct {
	uint32_t type;
	uint64_t config;
	bool leader;
} events[TASKS_NEVENTS] = {
	[TASKS_EV_TASK_CLOCK] = { PERF_TYPE_SOFTWARE,
				  PERF_COUNT_SW_TASK_CLOCK, true },
	[TASKS_EV_CTX] = { PERF_TYPE_SOFTWARE,
			   PERF_COUNT_SW_CONTEXT_SWITCHES, false },
	[TASKS_EV_MIGR] = { PERF_TYPE_SOFTWARE,
			    PERF_COUNT_SW_CPU_MIGRATIONS, false },
	[TASKS_EV_FAULTS] = { PERF_TYPE_SOFTWARE,
			      PERF_COUNT_SW_PAGE_FAULTS, false },
	[TASKS_EV_CYCLES] = { PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_CPU_CYCLES, true },
	[TASKS_EV_INSNS] = { PERF_TYPE_HARDWARE,
			     PERF_COUNT_HW_INSTRUCTIONS, false },
	[TASKS_EV_CACHE_REFS] = { PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_CACHE_REFERENCES, false },
	[TASKS_EV_CACHE_MISSES] = { PERF_TYPE_HARDWARE,
				    PERF_COUNT_HW_CACHE_MISSES, false },
	[TASKS_EV_BRANCHES] = { PERF_TYPE_HARDWARE,
				PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false },
	[TASKS_EV_BRANCH_MISSES] = { PERF_TYPE_HARDWARE,
				     PERF_COUNT_HW_BRANCH_MISSES, false },
};

struct counted {
	pid_t tid;
	bool fresh;
	struct pc_counter *c[TASKS_NEVENTS];
};

/* A task counted in another's counters by inheritance. */
struct cover {
	pid_t tid, by;
};

struct taskcount {
	struct taskcount_opts opts;
	unsigned tried;		/* events not yet found unsupported */
	unsigned supported;	/* events that opened on some thread */
	bool user_only;
	bool grouped;		/* not on the 2008 call */
	size_t max;
	struct counted *th;	/* max of them */
	size_t n;
	struct cover *cov;	/* opts.inherit: the covered tasks */
	size_t ncov, acov;
};

struct taskcount *taskcount_new(const struct taskcount_opts *opts)
{
	struct taskcount_opts o = TASKCOUNT_OPTS();
	struct taskcount *tc;
	struct rlimit rl;
	size_t max;

	if (opts && optsz_copy(&o, sizeof(o), opts) != 0)
		return NULL;
	max = o.max_tasks ? o.max_tasks : TASKCOUNT_MAX_DEFAULT;
	/* at most half the descriptors, at every event counted */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 2 / TASKS_NEVENTS < max)
		max = rl.rlim_cur / 2 / TASKS_NEVENTS;
	if (max == 0)
		max = 1;
	tc = calloc(1, sizeof(*tc));
	if (tc == NULL)
		return NULL;
	tc->th = calloc(max, sizeof(*tc->th));
	if (tc->th == NULL) {
		free(tc);
		return NULL;
	}
	tc->opts = o;
	tc->max = max;
	tc->tried = (1u << TASKS_NEVENTS) - 1;
	tc->grouped = o.backend != PC_BACKEND_LEGACY &&
		      !(o.backend == PC_BACKEND_AUTO &&
			pc_backend_default() == PC_BACKEND_LEGACY);
	return tc;
}

static void counted_close(struct counted *t)
{
	/* members before leaders */
	for (unsigned e = TASKS_NEVENTS; e-- > 0;) {
		pc_counter_close(t->c[e]);
		t->c[e] = NULL;
	}
}

void taskcount_free(struct taskcount *tc)
{
	if (tc == NULL)
		return;
	for (size_t i = 0; i < tc->n; i++)
		counted_close(&tc->th[i]);
	free(tc->th);
	free(tc->cov);
	free(tc);
}

static struct counted *find(const struct taskcount *tc, pid_t tid)
{
	for (size_t i = 0; i < tc->n; i++)
		if (tc->th[i].tid == tid)
			return &tc->th[i];
	return NULL;
}

bool taskcount_has(const struct taskcount *tc, pid_t tid)
{
	return find(tc, tid) != NULL;
}

pid_t taskcount_covered(const struct taskcount *tc, pid_t tid)
{
	for (size_t i = 0; i < tc->ncov; i++)
		if (tc->cov[i].tid == tid)
			return tc->cov[i].by;
	return 0;
}

int taskcount_started(struct taskcount *tc, pid_t ptid, pid_t tid)
{
	pid_t by = find(tc, ptid) ? ptid : taskcount_covered(tc, ptid);

	if (!tc->opts.inherit || !by || tid == ptid || find(tc, tid))
		return 0;
	taskcount_gone(tc, tid);
	if (ARRAY_GROW(tc->cov, tc->ncov + 1, tc->acov) != 0)
		return -1;
	tc->cov[tc->ncov++] = (struct cover){ tid, by };
	return 1;
}

/* Drop the covered tasks whose entry matches: tid's, or by's. */
static void uncover(struct taskcount *tc, pid_t tid, pid_t by)
{
	size_t j = 0;

	for (size_t i = 0; i < tc->ncov; i++)
		if (tc->cov[i].tid != tid && tc->cov[i].by != by)
			tc->cov[j++] = tc->cov[i];
	tc->ncov = j;
}

void taskcount_gone(struct taskcount *tc, pid_t tid)
{
	uncover(tc, tid, 0);
}

/* One event on tid, under its group's leader (NULL: it leads). */
static struct pc_counter *open_one(struct taskcount *tc, unsigned e,
				   pid_t tid, struct pc_counter *leader)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = events[e].type,
		.config = events[e].config,
		.exclude_kernel = tc->user_only,
		.exclude_hv = tc->user_only,
		.inherit = tc->opts.inherit,
	};
	struct pc_open_opts how = PC_OPEN_TASK(tid,
		.backend = tc->opts.backend,
		.leader = tc->grouped ? leader : NULL,
		.group = tc->grouped && events[e].leader);
	struct pc_counter *c = pc_counter_open(&attr, &how);

	/* paranoid 2: user space only, from now on for every thread */
	if (c == NULL && !tc->user_only && pc_attr_user_only(&attr, errno)) {
		c = pc_counter_open(&attr, &how);
		tc->user_only = c != NULL;
	}
	return c;
}

/* Open every event still tried on tid; 0, or -1 with the errno that
   refused the thread (none of its counters is left open). */
static int counted_open(struct taskcount *tc, struct counted *t, pid_t tid)
{
	struct pc_counter *leader = NULL;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->fresh = true;
	for (unsigned e = 0; e < TASKS_NEVENTS; e++) {
		int err;

		if (events[e].leader)
			leader = NULL;
		if (!(tc->tried & TASKS_EV(e)) ||
		    (!events[e].leader && tc->grouped && !leader))
			continue;
		t->c[e] = open_one(tc, e, tid, leader);
		if (t->c[e]) {
			if (events[e].leader)
				leader = t->c[e];
			tc->supported |= TASKS_EV(e);
			continue;
		}
		err = errno;
		if (pc_errno_unsupported(err) && !(tc->supported &
						   TASKS_EV(e))) {
			tc->tried &= ~TASKS_EV(e);	/* never here */
			continue;
		}
		counted_close(t);
		errno = err;
		return -1;
	}
	return 0;
}

int taskcount_keep(struct taskcount *tc, const pid_t *want, size_t n,
		   int *err)
{
	size_t i, j;

	if (err)
		*err = 0;
	if (n > tc->max)
		n = tc->max;
	/* close the threads no longer wanted */
	for (i = 0, j = 0; i < tc->n; i++) {
		bool keep = false;

		for (size_t w = 0; w < n && !keep; w++)
			keep = want[w] == tc->th[i].tid;
		if (keep) {
			tc->th[j++] = tc->th[i];
			continue;
		}
		uncover(tc, 0, tc->th[i].tid);
		counted_close(&tc->th[i]);
	}
	tc->n = j;
	for (size_t w = 0; w < n && tc->n < tc->max; w++) {
		if (find(tc, want[w]) || taskcount_covered(tc, want[w]))
			continue;
		if (counted_open(tc, &tc->th[tc->n], want[w]) == 0) {
			tc->n++;
			continue;
		}
		if (err && !*err)
			*err = errno;
		if (errno == EMFILE || errno == ENFILE)
			break;
	}
	return (int)tc->n;
}

int taskcount_add(struct taskcount *tc, pid_t tid)
{
	if (find(tc, tid) || taskcount_covered(tc, tid))
		return 0;
	if (tc->n == tc->max) {
		errno = ENOSPC;
		return -1;
	}
	if (counted_open(tc, &tc->th[tc->n], tid) != 0)
		return -1;
	tc->n++;
	return 0;
}

int taskcount_read(struct taskcount *tc, pid_t tid, unsigned *has,
		   uint64_t count[TASKS_NEVENTS], bool *fresh)
{
	struct counted *t = find(tc, tid);

	*has = 0;
	if (t == NULL) {
		errno = ENOENT;
		return -1;
	}
	for (unsigned e = 0; e < TASKS_NEVENTS; e++) {
		struct pc_count buf[TASKS_NEVENTS];
		unsigned idx[TASKS_NEVENTS], m = 0;
		int got;

		if (!t->c[e] || (tc->grouped && !events[e].leader))
			continue;
		if (!tc->grouped) {
			if (pc_counter_read(t->c[e], &buf[0]) != 0)
				return -1;
			count[e] = (uint64_t)pc_count_scaled(&buf[0], NULL);
			*has |= TASKS_EV(e);
			continue;
		}
		/* the group's counters in the order they opened */
		idx[m++] = e;
		for (unsigned f = e + 1; f < TASKS_NEVENTS &&
					 !events[f].leader; f++)
			if (t->c[f])
				idx[m++] = f;
		got = pc_group_read(t->c[e], buf, m);
		if (got < 0)
			return -1;
		for (int k = 0; k < got; k++) {
			count[idx[k]] = (uint64_t)pc_count_scaled(&buf[k], NULL);
			*has |= TASKS_EV(idx[k]);
		}
	}
	*fresh = t->fresh;
	t->fresh = false;
	return 0;
}

int taskcount_probe(struct taskcount *tc)
{
	struct counted t;

	if (counted_open(tc, &t, (pid_t)syscall(SYS_gettid)) != 0)
		return -1;
	counted_close(&t);
	return 0;
}

size_t taskcount_tids(const struct taskcount *tc, pid_t *out, size_t max)
{
	size_t i;

	for (i = 0; i < tc->n && i < max; i++)
		out[i] = tc->th[i].tid;
	return i;
}

unsigned taskcount_supported(const struct taskcount *tc)
{
	return tc->supported;
}

bool taskcount_user_only(const struct taskcount *tc)
{
	return tc->user_only;
}

size_t taskcount_max(const struct taskcount *tc)
{
	return tc->max;
}

size_t taskcount_count(const struct taskcount *tc)
{
	return tc->n;
}

size_t taskcount_fds(const struct taskcount *tc)
{
	size_t fds = 0;

	for (size_t i = 0; i < tc->n; i++)
		for (unsigned e = 0; e < TASKS_NEVENTS; e++)
			fds += tc->th[i].c[e] != NULL;
	return fds;
}
