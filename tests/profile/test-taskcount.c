/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-taskcount.c - the task table's counters (lib/profile/taskcount)
 * through the real kernel, by what they cost: a counted thread holds one
 * descriptor per event the machine counts, as taskcount_fds() says and
 * /proc/self/fd shows; a thread that exited keeps its counters until
 * taskcount_keep() drops it; taskcount_free() gives every one back.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "profile/taskcount.h"
#include "../check.h"

/* Descriptors open in this process (opendir()'s own among them, the
   same in every call: only differences are compared). */
static size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A second thread: says its tid on tid_pipe, exits once main() lets go
   of hold (no descriptor opens or closes while the test counts them). */
static int tid_pipe[2];
static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;

static void *second(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	(void)arg;
	if (write(tid_pipe[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	pthread_mutex_lock(&hold);
	pthread_mutex_unlock(&hold);
	return NULL;
}

int main(void)
{
	struct taskcount *tc;
	pthread_t th;
	pid_t self = (pid_t)syscall(SYS_gettid), other = 0;
	size_t before, base, ev;
	int err = 0;

	if (!pc_probe()->perf_event)
		SKIP("perf_event_open does not work here");
	pthread_mutex_lock(&hold);
	if (pipe(tid_pipe) || pthread_create(&th, NULL, second, NULL) ||
	    read(tid_pipe[0], &other, sizeof(other)) != sizeof(other))
		SKIP("no second thread: %s", strerror(errno));

	before = open_fds();
	tc = taskcount_new(&TASKCOUNT_OPTS(.backend = PC_BACKEND_EVENT));
	CHECK(tc != NULL, "taskcount_new: %s", strerror(errno));
	if (!tc)
		return check_done();
	base = open_fds();
	CHECK(taskcount_fds(tc) == 0, "%zu descriptors before any thread",
	      taskcount_fds(tc));

	CHECK(taskcount_keep(tc, &self, 1, &err) == 1, "count this thread: %s",
	      strerror(err));
	ev = (size_t)__builtin_popcount(taskcount_supported(tc));
	/* the software events count on any machine (hardware ones where
	   the PMU has them) */
	CHECK(ev >= 1 && ev <= TASKS_NEVENTS, "%zu events counted", ev);
	CHECK(taskcount_fds(tc) == ev && open_fds() - base == ev,
	      "one thread: taskcount_fds() %zu, %zu opened, %zu events",
	      taskcount_fds(tc), open_fds() - base, ev);

	CHECK(taskcount_add(tc, other) == 0, "count the second thread: %s",
	      strerror(errno));
	CHECK(taskcount_fds(tc) == 2 * ev && open_fds() - base == 2 * ev,
	      "two threads: taskcount_fds() %zu, %zu opened, %zu events",
	      taskcount_fds(tc), open_fds() - base, ev);

	/* the second thread exits: its counters stay until dropped */
	pthread_mutex_unlock(&hold);
	pthread_join(th, NULL);
	CHECK(taskcount_fds(tc) == 2 * ev && open_fds() - base == 2 * ev,
	      "a thread gone: taskcount_fds() %zu, %zu opened, %zu events",
	      taskcount_fds(tc), open_fds() - base, ev);
	CHECK(taskcount_keep(tc, &self, 1, &err) == 1, "keep this thread: %s",
	      strerror(err));
	CHECK(taskcount_fds(tc) == ev && open_fds() - base == ev,
	      "dropped: taskcount_fds() %zu, %zu opened, %zu events",
	      taskcount_fds(tc), open_fds() - base, ev);

	taskcount_free(tc);
	CHECK(open_fds() == before, "%zu descriptors after taskcount_free(), "
	      "%zu before taskcount_new()", open_fds(), before);
	return check_done();
}
