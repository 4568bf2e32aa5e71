/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - fork/exec or attach, wait with signals, interval ticks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/die.h"
#include "util/spawn.h"
#include "util/xmalloc.h"
#include "openmetrics.h"
#include "print.h"
#include "run.h"

/* Delivered only through sigtimedwait(): no handler runs anywhere. */
static sigset_t waitset, oldset;

void run_signals_init(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&waitset);
	sigaddset(&waitset, SIGCHLD);
	/* An ignored signal (nohup, a shell's background job) stays so. */
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction sa;

		if (sigaction(stops[i], NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_IGN)
			sigaddset(&waitset, stops[i]);
	}
	sigprocmask(SIG_BLOCK, &waitset, &oldset);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 0;
}

/* Are any of the attached tasks still there? */
static bool targets_alive(const struct config *cfg)
{
	for (size_t i = 0; i < cfg->ntids; i++)
		if (kill(cfg->tids[i], 0) == 0 || errno == EPERM)
			return true;
	return false;
}

struct waiter {
	const struct config *cfg;
	pid_t child;
	bool child_done;
	int status;
	struct rusage ru;
	bool interrupted;
};

/*
 * Wait until deadline (ns, 0 = none) or an event.  Returns true when
 * counting must end: the child exited, or (without a child) a signal came
 * or the attached tasks are gone.
 */
static bool wait_until(struct waiter *w, uint64_t deadline)
{
	for (;;) {
		uint64_t now = now_ns(), left;
		struct timespec ts;
		siginfo_t si;
		int sig;

		if (w->child > 0 && !w->child_done &&
		    wait4(w->child, &w->status, WNOHANG, &w->ru) == w->child)
			w->child_done = true;
		if (w->child_done)
			return true;
		if (w->child <= 0 && w->cfg->tids && !targets_alive(w->cfg))
			return true;
		if (deadline && now >= deadline)
			return false;
		left = deadline ? deadline - now : 1000000000u;
		/* Attached tasks are polled: nothing signals their end. */
		if (w->child <= 0 && w->cfg->tids && left > 100000000u)
			left = 100000000u;
		ts.tv_sec = (time_t)(left / 1000000000u);
		ts.tv_nsec = (long)(left % 1000000000u);
		sig = sigtimedwait(&waitset, &si, &ts);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			w->interrupted = true;
			if (w->child <= 0)
				return true;
			/* From the terminal, the child got it too. */
			if (si.si_code == SI_USER || si.si_code == SI_QUEUE)
				kill(w->child, sig);
		}
	}
}

static void stop_child(struct waiter *w)
{
	if (w->child > 0 && !w->child_done) {
		kill(w->child, SIGTERM);
		if (wait4(w->child, &w->status, 0, &w->ru) == w->child)
			w->child_done = true;
	}
}

/*
 * Interval mode: print the counts since the previous tick, and rewrite
 * the OpenMetrics file with the totals (-q silences only the former).
 */
static void tick(const struct config *cfg, struct cset *cs, struct stats *st,
		 struct pc_count *prev, uint64_t ts)
{
	cset_read(cs, cfg);
	stats_reset(st);
	stats_add_run(st, cs, prev, cfg->aggr, cfg->interval_ms * 1e6);
	if (!cfg->quiet)
		print_counts(cfg, cs, st, NULL, true, ts);
	if (cfg->openmetrics && om_write(cfg, cs) < 0)
		die("cannot write '%s': %s", cfg->openmetrics, strerror(errno));
	memcpy(prev, cs->cur, cs->nev * cs->nunits * sizeof(*prev));
}

void run_once(const struct config *cfg, struct cset *cs, struct stats *st,
	      struct run_result *res)
{
	struct waiter w = { .cfg = cfg, .child = -1 };
	struct spawn wl = { .pid = -1 };
	bool on_exec = cfg->argv && !cfg->cpus && cfg->delay_ms == 0;
	struct pc_count *prev = NULL;
	uint64_t t0, deadline = 0, next = 0, last_tick;
	unsigned nticks = 0;
	bool done = false;

	memset(res, 0, sizeof(*res));
	if (cfg->argv) {
		/* held before exec until its counters exist; the child gets
		   back the signal mask pcstat blocked for sigtimedwait() */
		if (spawn_hold(&wl, cfg->argv, &oldset))
			die_errno("cannot start '%s'", cfg->argv[0]);
		w.child = wl.pid;
		if (cfg->backend == PC_BACKEND_LEGACY)
			spawn_park(&wl);
	}
	cset_init(cs, cfg, w.child);
	cset_open(cs, cfg, on_exec);
	if (!on_exec && cfg->delay_ms == 0)
		cset_enable(cs, cfg);
	t0 = now_ns();
	if (cfg->argv) {
		int e = spawn_release(&wl);

		if (e) {
			waitpid(wl.pid, NULL, 0);
			die_status(e == ENOENT ? 127 : 126, "cannot run '%s': %s",
				   cfg->argv[0], strerror(e));
		}
	}
	if (cfg->timeout_ms)
		deadline = t0 + cfg->timeout_ms * 1000000ull;
	if (cfg->delay_ms) {
		uint64_t until = t0 + cfg->delay_ms * 1000000ull;

		done = wait_until(&w, deadline && deadline < until ? deadline
								  : until);
		cset_enable(cs, cfg);
	}
	last_tick = now_ns();
	if (cfg->interval_ms) {
		prev = xcalloc(cs->nev * cs->nunits, sizeof(*prev));
		next = last_tick + cfg->interval_ms * 1000000ull;
	}
	while (!done) {
		uint64_t until = deadline;

		if (next && (!until || next < until))
			until = next;
		done = wait_until(&w, until);
		if (done)
			break;
		if (w.interrupted) {
			/* The child got the signal too: let it end as it
			   chooses, as perf does; only --timeout still cuts
			   it short (-I would SIGTERM a child that takes
			   longer than one interval to exit). */
			if (w.child > 0)
				wait_until(&w, deadline);
			break;
		}
		if (deadline && now_ns() >= deadline)
			break;
		if (next && now_ns() >= next) {
			tick(cfg, cs, st, prev, next - t0);
			last_tick = next;
			next += cfg->interval_ms * 1000000ull;
			if (cfg->interval_count && ++nticks >= cfg->interval_count)
				break;
		}
	}
	stop_child(&w);
	res->wall_ns = (double)(now_ns() - t0);
	if (cfg->interval_ms) {
		/* The last part of an interval, as perf prints it. */
		if (!(cfg->interval_count && nticks >= cfg->interval_count) &&
		    now_ns() > last_tick)
			tick(cfg, cs, st, prev, now_ns() - t0);
		free(prev);
	} else {
		cset_read(cs, cfg);
	}
	res->interrupted = w.interrupted;
	if (w.child > 0) {
		/* perf stat's line for a command that a signal ended. */
		if (w.child_done && WIFSIGNALED(w.status) && !cfg->quiet)
			psignal(WTERMSIG(w.status), cfg->argv[0]);
		res->status = exit_status(w.status);
		res->ru = w.ru;
		res->have_ru = cfg->cpus == NULL;
	}
}
