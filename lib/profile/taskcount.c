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

/* A counted thread: unit i of the set is th[i]. */
struct counted {
	pid_t tid;
	bool fresh;
};

/* A task counted in another's counters by inheritance. */
struct cover {
	pid_t tid, by;
};

struct taskcount {
	struct taskcount_opts opts;
	struct pc_countset *set;	/* the events on the counted threads */
	size_t max;
	struct counted *th;	/* max of them */
	size_t n;
	struct cover *cov;	/* opts.inherit: the covered tasks */
	size_t ncov, acov;
};

struct taskcount *taskcount_new(const struct taskcount_opts *opts)
{
	struct taskcount_opts o = TASKCOUNT_OPTS();
	struct pc_event_spec spec[TASKS_NEVENTS];
	struct pc_event_list list = { spec, TASKS_NEVENTS, TASKS_NEVENTS, 0 };
	struct taskcount *tc;
	struct rlimit rl;
	size_t max;

	if (opts && optsz_copy(&o, sizeof(o), opts) != 0)
		return NULL;
	/* The 2008 call cannot inherit: a task a counted thread starts is
	   not in its counts there, so none is taken as covered. */
	if (o.backend == PC_BACKEND_LEGACY || (o.backend == PC_BACKEND_AUTO &&
	    pc_backend_default() == PC_BACKEND_LEGACY))
		o.inherit = false;
	max = o.max_tasks ? o.max_tasks : TASKCOUNT_MAX_DEFAULT;
	/* at most half the descriptors, at every event counted */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 2 / TASKS_NEVENTS < max)
		max = rl.rlim_cur / 2 / TASKS_NEVENTS;
	if (max == 0)
		max = 1;
	memset(spec, 0, sizeof(spec));
	for (unsigned e = 0; e < TASKS_NEVENTS; e++) {
		spec[e].attr.size = sizeof(spec[e].attr);
		spec[e].attr.type = events[e].type;
		spec[e].attr.config = events[e].config;
		spec[e].leader = events[e].leader;
		if (events[e].leader)
			list.ngroups++;
		spec[e].group = list.ngroups - 1;
	}
	tc = calloc(1, sizeof(*tc));
	if (tc == NULL)
		return NULL;
	tc->th = calloc(max, sizeof(*tc->th));
	/* counting from the open (TASKS_FRESH); a group counts what the
	   machine can, the hardware one without what it cannot */
	tc->set = pc_countset_new(&list, &PC_COUNTSET_OPTS(
		.backend = o.backend, .enabled = true, .inherit = o.inherit));
	if (tc->th == NULL || tc->set == NULL) {
		int err = errno;

		taskcount_free(tc);
		errno = err;
		return NULL;
	}
	tc->opts = o;
	tc->max = max;
	return tc;
}

void taskcount_free(struct taskcount *tc)
{
	if (tc == NULL)
		return;
	pc_countset_free(tc->set);
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

/* Count tid from now, as th[tc->n] (unit tc->n of the set); 0, or -1
   with the errno that refused the thread (nothing of it left open). */
static int counted_open(struct taskcount *tc, pid_t tid)
{
	int u = pc_countset_add(tc->set, tid, -1);

	if (u < 0)
		return -1;
	if (pc_countset_open(tc->set) != 0) {
		int err = errno;

		pc_countset_remove(tc->set, (size_t)u);
		errno = err;
		return -1;
	}
	tc->th[tc->n++] = (struct counted){ tid, true };
	return 0;
}

/* Stop counting th[i]: the units after it move down, as th[] does. */
static void counted_close(struct taskcount *tc, size_t i)
{
	pc_countset_remove(tc->set, i);
	memmove(&tc->th[i], &tc->th[i + 1], (tc->n - i - 1) * sizeof(*tc->th));
	tc->n--;
}

int taskcount_keep(struct taskcount *tc, const pid_t *want, size_t n,
		   int *err)
{
	if (err)
		*err = 0;
	if (n > tc->max)
		n = tc->max;
	/* close the threads no longer wanted */
	for (size_t i = tc->n; i-- > 0;) {
		bool keep = false;

		for (size_t w = 0; w < n && !keep; w++)
			keep = want[w] == tc->th[i].tid;
		if (keep)
			continue;
		uncover(tc, 0, tc->th[i].tid);
		counted_close(tc, i);
	}
	for (size_t w = 0; w < n && tc->n < tc->max; w++) {
		if (find(tc, want[w]) || taskcount_covered(tc, want[w]))
			continue;
		if (counted_open(tc, want[w]) == 0)
			continue;
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
	return counted_open(tc, tid);
}

int taskcount_read(struct taskcount *tc, pid_t tid, unsigned *has,
		   uint64_t count[TASKS_NEVENTS], bool *fresh)
{
	struct counted *t = find(tc, tid);
	struct pc_count buf[TASKS_NEVENTS];
	size_t u;

	*has = 0;
	if (t == NULL) {
		errno = ENOENT;
		return -1;
	}
	u = (size_t)(t - tc->th);
	/* a group in one read, scaled where it took turns on the PMU */
	if (pc_countset_read(tc->set, u, buf) != 0)
		return -1;
	for (unsigned e = 0; e < TASKS_NEVENTS; e++) {
		if (!pc_countset_counter(tc->set, e, u))
			continue;
		count[e] = (uint64_t)pc_count_scaled(&buf[e], NULL);
		*has |= TASKS_EV(e);
	}
	*fresh = t->fresh;
	t->fresh = false;
	return 0;
}

int taskcount_probe(struct taskcount *tc)
{
	/* a unit past the threads', gone again at once */
	int u = pc_countset_add(tc->set, (pid_t)syscall(SYS_gettid), -1);
	int ret, err;

	if (u < 0)
		return -1;
	ret = pc_countset_open(tc->set);
	err = errno;
	pc_countset_remove(tc->set, (size_t)u);
	errno = err;
	return ret;
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
	unsigned sup = 0;

	for (unsigned e = 0; e < TASKS_NEVENTS; e++)
		if (pc_countset_supported(tc->set, e))
			sup |= TASKS_EV(e);
	return sup;
}

bool taskcount_user_only(const struct taskcount *tc)
{
	return pc_countset_user_only(tc->set);
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
			fds += pc_countset_counter(tc->set, e, i) != NULL;
	return fds;
}
