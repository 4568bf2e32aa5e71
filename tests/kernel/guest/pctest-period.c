/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctest-period.c - hw_event_period on a PERF_RECORD_SIMPLE counter: a
 * blocked read() wakes once that many events have passed since the last
 * read(), EAGAIN under O_NONBLOCK, poll() ready only then, never blocking
 * once the target has exited; period 0 never blocks.
 *
 * Ground truth: page faults of a child that touches exactly STEP fresh
 * anonymous pages per step, one fault each, with the period twice that.
 * The child runs one step before the counters open, so that its code,
 * stack and pipe paths are faulted in and every counted step is exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>

#include "pctest.h"

#define STEP	50		/* pages a step touches */
#define PERIOD	100		/* page faults between wakeups */
#define STEPS	8		/* at most, the warm-up included */
#define PAUSE_MS 300		/* the child's sleep before a delayed step */

/* The child's commands, one byte each on its command pipe. */
enum { CMD_STEP = 's', CMD_LATE_STEP = 'l', CMD_EXIT = 'x' };

struct stepper {
	pid_t pid;
	int cmd;	/* write end: commands */
	int done;	/* read end: one byte after each step */
};

/*
 * The child: STEPS * STEP pages mapped up front, each step touching the
 * next STEP of them, after a PAUSE_MS sleep for CMD_LATE_STEP.
 */
static void stepper_child(int cmd, int done)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)STEPS * STEP * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char c = CMD_STEP;
	int next = 0;

	if (p == MAP_FAILED)
		_exit(2);
	/* what a late step runs, faulted in (code, stack) before counting */
	usleep(1);
	/* the warm-up step runs unasked */
	do {
		if (c == CMD_EXIT)
			_exit(0);
		if (c == CMD_LATE_STEP)
			usleep(PAUSE_MS * 1000);
		if (next == STEPS)
			_exit(3);
		for (int i = 0; i < STEP; i++)
			p[(size_t)(next * STEP + i) * pg] = 1;
		next++;
		if (write(done, "d", 1) != 1)
			_exit(4);
	} while (read(cmd, &c, 1) == 1);
	_exit(5);
}

static int stepper_start(struct stepper *s)
{
	int c[2], d[2];
	char b;

	if (pipe(c) || pipe(d))
		return -1;
	s->pid = fork();
	if (s->pid == 0) {
		close(c[1]);
		close(d[0]);
		stepper_child(c[0], d[1]);
	}
	close(c[0]);
	close(d[1]);
	s->cmd = c[1];
	s->done = d[0];
	if (s->pid < 0)
		return -1;
	/* the warm-up step; the child then waits in read() */
	return read(s->done, &b, 1) == 1 ? 0 : -1;
}

/* Send a command; for a step, wait until the child has done it. */
static int stepper_do(struct stepper *s, char cmd)
{
	char b;

	if (write(s->cmd, &cmd, 1) != 1)
		return fail("command the child: %s", strerror(errno)), -1;
	if (cmd == CMD_EXIT)
		return 0;
	if (read(s->done, &b, 1) != 1)
		return fail("the child did not finish its step"), -1;
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* poll() with no timeout: the revents of fd. */
static int ready(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

/* A non-blocking read of fd: the count, or -1 with errno. */
static int64_t read_now(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	uint64_t v;
	ssize_t n;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	n = read(fd, &v, sizeof(v));
	fcntl(fd, F_SETFL, fl);
	return n == (ssize_t)sizeof(v) ? (int64_t)v : -1;
}

/* After a step that leaves no new period: not ready, EAGAIN. */
static void expect_blocked(int fd, const char *when)
{
	int r = ready(fd);

	if (r)
		fail("%s: poll reports %#x, expected not ready", when, r);
	if (read_now(fd) != -1 || errno != EAGAIN)
		fail("%s: a non-blocking read did not fail with EAGAIN "
		     "(%s)", when, strerror(errno));
}

/* After a step that completes a period: POLLIN, and the count is want. */
static void expect_ready(int fd, uint64_t want, const char *when)
{
	int64_t v;
	int r = ready(fd);

	if (!(r & POLLIN))
		fail("%s: poll reports %#x, expected POLLIN", when, r);
	v = read_now(fd);
	if (v < 0)
		fail("%s: read: %s", when, strerror(errno));
	else if ((uint64_t)v != want)
		fail("%s: count %lld, expected %llu", when, (long long)v,
		     (unsigned long long)want);
}

void t_simple_period(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct stepper s;
	uint64_t v = 0, plain;
	int fd, fd0, st, r;
	uint64_t t0, ms;
	ssize_t n;

	if (stepper_start(&s))
		return fail("start the child: %s", strerror(errno));
	fd = pco(PERF_COUNT_PAGE_FAULTS, PERIOD, PERF_RECORD_SIMPLE, s.pid, -1);
	fd0 = pco(PERF_COUNT_PAGE_FAULTS, 0, PERF_RECORD_SIMPLE, s.pid, -1);
	if (fd < 0 || fd0 < 0) {
		fail("open page-faults with period %d: %s", PERIOD,
		     strerror(errno));
		kill(s.pid, SIGKILL);
		waitpid(s.pid, &st, 0);
		return;
	}

	/* period 0: never blocks, and counts what the period one does */
	if (read_now(fd0) != 0)
		fail("period 0 before any step: %s", strerror(errno));
	expect_blocked(fd, "before any step");

	stepper_do(&s, CMD_STEP);		/* 50 */
	expect_blocked(fd, "after 50 faults");
	plain = rd(fd0);
	if (plain != STEP)
		fail("period 0 read %llu after one step of %d pages",
		     (unsigned long long)plain, STEP);
	stepper_do(&s, CMD_STEP);		/* 100: a period */
	expect_ready(fd, 2 * STEP, "after 100 faults");
	expect_blocked(fd, "read again at 100");
	stepper_do(&s, CMD_STEP);		/* 150 */
	expect_blocked(fd, "after 150 faults");

	/*
	 * A blocking read, with the child sleeping PAUSE_MS before its next
	 * step: it can return only after that step, with the count at 200.
	 */
	if (write(s.cmd, (char[]){ CMD_LATE_STEP }, 1) != 1)
		fail("command the child: %s", strerror(errno));
	t0 = now_ns(CLOCK_MONOTONIC);
	sigaction(SIGALRM, &sa, NULL);
	alarm(20);
	n = read(fd, &v, sizeof(v));
	alarm(0);
	ms = (now_ns(CLOCK_MONOTONIC) - t0) / 1000000;
	printf("# period %d: the blocking read returned %zd, count %llu, "
	       "after %llu ms (the step came after %d ms)\n", PERIOD, n,
	       (unsigned long long)v, (unsigned long long)ms, PAUSE_MS);
	if (n != (ssize_t)sizeof(v))
		fail("blocking read: %zd (%s)", n, strerror(errno));
	else if (v != 4 * STEP)
		fail("blocking read returned %llu, expected %d",
		     (unsigned long long)v, 4 * STEP);
	else if (ms < PAUSE_MS - 20)
		fail("blocking read returned after %llu ms, before the step",
		     (unsigned long long)ms);
	if (read(s.done, &v, 1) != 1)
		fail("the child did not finish its step");

	stepper_do(&s, CMD_STEP);		/* 250 */
	expect_blocked(fd, "after 250 faults");

	/* The target exits: no more blocking, the final count at once. */
	stepper_do(&s, CMD_EXIT);
	waitpid(s.pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("child status %#x", st);
	r = ready(fd);
	if ((r & (POLLIN | POLLHUP)) != (POLLIN | POLLHUP)) {
		/* the exit is noticed within the kernel's 250 ms recheck */
		usleep(300000);
		r = ready(fd);
	}
	if ((r & (POLLIN | POLLHUP)) != (POLLIN | POLLHUP))
		fail("after the exit: poll reports %#x, expected POLLIN|POLLHUP",
		     r);
	alarm(20);
	n = read(fd, &v, sizeof(v));
	alarm(0);
	if (n != (ssize_t)sizeof(v))
		fail("read after the exit: %zd (%s)", n, strerror(errno));
	else if (v != 5 * STEP)
		fail("read after the exit: %llu, expected %d",
		     (unsigned long long)v, 5 * STEP);
	plain = rd(fd0);
	if (plain != 5 * STEP)
		fail("period 0 read %llu at the end, expected %d",
		     (unsigned long long)plain, 5 * STEP);
	close(fd);
	close(fd0);
	close(s.cmd);
	close(s.done);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGALRM, &sa, NULL);
}
