/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - fork/exec or attach, wait with signals, interval ticks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "util/die.h"
#include "util/esc-print.h"
#include "util/output.h"
#include "util/spawn.h"
#include "util/stop-signals.h"
#include "util/xmalloc.h"
#include "control.h"
#include "openmetrics.h"
#include "print.h"
#include "run.h"
#include "ticks.h"

/* Delivered only through sigfd: no handler runs anywhere. */
static sigset_t waitset, oldset;
static int sigfd = -1;

void run_signals_init(void)
{
	sigemptyset(&waitset);
	sigaddset(&waitset, SIGCHLD);
	/* the tools' one rule: see util/stop-signals.h */
	stop_signals_fill(&waitset);
	sigprocmask(SIG_BLOCK, &waitset, &oldset);
	/* Read through a signalfd, so that one ppoll() also hears the
	   --control fifo. */
	sigfd = signalfd(-1, &waitset, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0)
		die_errno("cannot create a signalfd");
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
	unsigned nsignals;	/* stop signals so far */
	bool stopped;		/* pcstat itself ended the command */
	struct control *ctl;	/* --control, heard while waiting */
	struct cset *cs;
};

/*
 * Wait until deadline (ns, 0 = none) or an event.  Returns true when
 * counting must end: the child exited, or (without a child) a signal came
 * or the attached tasks are gone.
 */
static bool wait_until(struct waiter *w, uint64_t deadline)
{
	for (;;) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC), left;
		struct timespec ts;
		struct signalfd_siginfo si;
		struct pollfd pfd[2] = { { .fd = sigfd, .events = POLLIN },
					 { .fd = -1, .events = POLLIN } };

		if (w->child > 0 && !w->child_done &&
		    wait4(w->child, &w->status, WNOHANG, &w->ru) == w->child)
			w->child_done = true;
		if (w->child_done)
			return true;
		if (w->child <= 0 && w->cfg->tids && !targets_alive(w->cfg))
			return true;
		/*
		 * Past the deadline the signals are still read (without
		 * waiting): -I behind its intervals (a slow reader of the
		 * output, a busy machine) comes back here at once, for ever,
		 * and would never see a stop signal.
		 */
		left = !deadline ? 1000000000u : now < deadline ?
			deadline - now : 0;
		/* Attached tasks are polled: nothing signals their end. */
		if (w->child <= 0 && w->cfg->tids && left > 100000000u)
			left = 100000000u;
		ts.tv_sec = (time_t)(left / 1000000000u);
		ts.tv_nsec = (long)(left % 1000000000u);
		pfd[1].fd = w->ctl ? w->ctl->ctl : -1;
		ppoll(pfd, 2, &ts, NULL);
		if (w->ctl)
			control_process(w->ctl, w->cs, w->cfg);
		while (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			int sig = (int)si.ssi_signo;

			if (!is_stop_signal(sig))
				continue;
			w->interrupted = true;
			if (w->child <= 0)
				return true;
			/* From the terminal, the child got it too; a second
			   one ends a child that ignores the first. */
			stop_signal_pass(w->child, sig, si.ssi_code,
					 ++w->nsignals);
		}
		if (deadline && clock_ns(CLOCK_MONOTONIC) >= deadline)
			return false;
	}
}

static void stop_child(struct waiter *w)
{
	if (w->child > 0 && !w->child_done) {
		kill(w->child, SIGTERM);
		if (wait4(w->child, &w->status, 0, &w->ru) == w->child)
			w->child_done = true;
		w->stopped = true;
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
	cset_tools(cs, cfg, ts, NULL);
	if (st->ticks && st->ticks->active)
		ticks_add(st->ticks, cs);
	stats_reset(st);
	stats_add_run(st, cs, prev, cfg->aggr, cfg->interval_ms * 1e6);
	if (!cfg->quiet)
		print_counts(cfg, cs, st, NULL, true, ts);
	if (cfg->openmetrics && om_write(cfg, cs) < 0)
		die("cannot write '%s': %s%s", cfg->openmetrics,
		    output_strerror(errno), output_path_fix(errno));
	if (st->ticks)
		ticks_interval_done(st->ticks);
	memcpy(prev, cs->cur, cs->nev * cs->nunits * sizeof(*prev));
}

/*
 * Does this run read its counters at ticks, for the multiplexing
 * intervals?  Not with --no-scale (no estimate to qualify), nor
 * --mux-tick 0, nor where no counter can be multiplexed.
 */
static bool ticked(const struct config *cfg, const struct cset *cs,
		   const struct stats *st)
{
	return st->ticks && cfg->mux_tick_ms && !cfg->no_scale &&
	       ticks_wanted(cs, cfg);
}

/* The clocks of one run (ns, CLOCK_MONOTONIC) and -I's state. */
struct timing {
	uint64_t t0;		/* taken before the counters were enabled */
	uint64_t t_count;	/* where elapsed time and --timeout start */
	uint64_t deadline;	/* --timeout, 0 = none */
	uint64_t next;		/* the next -I tick, 0 = none */
	uint64_t last_tick;
	uint64_t next_mux;	/* the next multiplexing tick, 0 = none */
	uint64_t mux_ns;
	unsigned nticks;	/* -I ticks printed */
	struct pc_count *prev;	/* -I: the counts at the last tick */
};

/* Start the command, held before exec until its counters exist. */
static void command_hold(const struct config *cfg, struct spawn *wl,
			 struct waiter *w)
{
	/* held before exec until its counters exist; the child gets
	   back the signal mask pcstat blocked for its signalfd */
	if (spawn_hold(wl, cfg->argv, &oldset)) {
		char why[512];

		die("cannot start '%s': %s", cfg->argv[0],
		    spawn_strerror(wl, errno, why, sizeof(why)));
	}
	w->child = wl->pid;
	if (cfg->backend == PC_BACKEND_LEGACY)
		spawn_park(wl);
}

/* Let the held command exec; stop if it could not. */
static void command_release(const struct config *cfg, struct spawn *wl)
{
	int e = spawn_release(wl);

	if (e) {
		char why[512];

		waitpid(wl->pid, NULL, 0);
		die_status(spawn_exit_status(wl, e), "cannot run '%s': "
			   "%s", cfg->argv[0],
			   spawn_strerror(wl, e, why, sizeof(why)));
	}
}

/* -D: wait, then enable the counters.  Returns true when counting ends. */
static bool delay_start(const struct config *cfg, struct cset *cs,
			struct waiter *w, uint64_t t0)
{
	bool done;

	/* perf's messages, on stderr whatever -o says. */
	if (!cfg->quiet)
		fputs("Events disabled\n", stderr);
	done = wait_until(w, t0 + cfg->delay_ms * 1000000ull);
	cset_enable(cs, cfg);
	if (!cfg->quiet)
		fputs("Events enabled\n", stderr);
	return done;
}

/* Set the clocks once the counters count: --timeout, -I, the mux ticks. */
static void timing_start(const struct config *cfg, const struct cset *cs,
			 struct stats *st, struct timing *t)
{
	/* As perf: elapsed time and --timeout run from the enable (t0,
	   taken before the command was let go, without -D). */
	t->last_tick = clock_ns(CLOCK_MONOTONIC);
	t->t_count = cfg->delay_ms ? t->last_tick : t->t0;
	if (cfg->timeout_ms)
		t->deadline = t->t_count + cfg->timeout_ms * 1000000ull;
	if (cfg->interval_ms) {
		t->prev = xcalloc(cs->nev * cs->nunits, sizeof(*t->prev));
		t->next = t->last_tick + cfg->interval_ms * 1000000ull;
	}
	if (st->ticks)
		ticks_run_start(st->ticks, cs, ticked(cfg, cs, st));
	/* a tick reads every counter: beyond 64 of them (-a on a big
	   machine, -d) it comes as much less often */
	if (cs->nev * cs->nunits > 64)
		t->mux_ns *= (cs->nev * cs->nunits + 63) / 64;
	if (st->ticks && st->ticks->active)
		t->next_mux = t->last_tick + t->mux_ns;
}

/* The earliest of --timeout, the next -I tick and the next mux tick. */
static uint64_t next_wakeup(const struct timing *t)
{
	uint64_t until = t->deadline;

	if (t->next && (!until || t->next < until))
		until = t->next;
	if (t->next_mux && (!until || t->next_mux < until))
		until = t->next_mux;
	return until;
}

/*
 * The -I tick, when it is due.  Returns true when counting ends: that was
 * the last tick of --interval-count.
 */
static bool interval_due(const struct config *cfg, struct cset *cs,
			 struct stats *st, struct waiter *w, struct timing *t)
{
	if (t->next && clock_ns(CLOCK_MONOTONIC) >= t->next) {
		tick(cfg, cs, st, t->prev, t->next - t->t0);
		t->last_tick = t->next;
		t->next += cfg->interval_ms * 1000000ull;
		/* that read was a tick too: none of zero length */
		if (t->next_mux)
			t->next_mux = clock_ns(CLOCK_MONOTONIC) + t->mux_ns;
		if (cfg->interval_count && ++t->nticks >= cfg->interval_count) {
			/* As perf: the counting ends, the command
			   runs on to its end or to --timeout. */
			if (w->child > 0)
				wait_until(w, t->deadline);
			return true;
		}
	}
	return false;
}

/* The multiplexing tick, when it is due: a read for the intervals. */
static void mux_due(const struct config *cfg, struct cset *cs,
		    struct stats *st, struct timing *t)
{
	if (t->next_mux && clock_ns(CLOCK_MONOTONIC) >= t->next_mux) {
		cset_read(cs, cfg);
		ticks_add(st->ticks, cs);
		/* behind (a busy machine): the next a period on */
		t->next_mux += t->mux_ns;
		if (t->next_mux <= clock_ns(CLOCK_MONOTONIC))
			t->next_mux = clock_ns(CLOCK_MONOTONIC) + t->mux_ns;
	}
}

/*
 * Count, with the ticks on the way, until the command ends, a stop
 * signal, --timeout or the last tick of --interval-count.
 */
static void count(const struct config *cfg, struct cset *cs,
		  struct stats *st, struct waiter *w, struct timing *t)
{
	for (;;) {
		if (wait_until(w, next_wakeup(t)))
			break;
		if (w->interrupted) {
			/* The child got the signal too: let it end as it
			   chooses, as perf does; only --timeout still cuts
			   it short (-I would SIGTERM a child that takes
			   longer than one interval to exit). */
			if (w->child > 0)
				wait_until(w, t->deadline);
			break;
		}
		if (t->deadline && clock_ns(CLOCK_MONOTONIC) >= t->deadline)
			break;
		if (interval_due(cfg, cs, st, w, t))
			break;
		mux_due(cfg, cs, st, t);
	}
}

/* Stop the counters and take the last counts: res->wall_ns, the tools. */
static void count_end(const struct config *cfg, struct cset *cs,
		      struct stats *st, struct waiter *w, struct timing *t,
		      struct run_result *res)
{
	/* As perf: the counters stop before the clock is read, so that
	   none runs longer than the elapsed time its rate divides by
	   (-a would count 1.001 CPUs utilized of one CPU). */
	if (!cfg->interval_ms && cfg->backend != PC_BACKEND_LEGACY)
		cset_disable(cs, cfg);
	res->wall_ns = (double)(clock_ns(CLOCK_MONOTONIC) - t->t_count);
	if (cfg->interval_ms) {
		/* The last part of an interval, as perf prints it. */
		if (!(cfg->interval_count &&
		      t->nticks >= cfg->interval_count) &&
		    clock_ns(CLOCK_MONOTONIC) > t->last_tick)
			tick(cfg, cs, st, t->prev,
			     clock_ns(CLOCK_MONOTONIC) - t->t0);
		free(t->prev);
	} else {
		cset_read(cs, cfg);
		/* the last tick: the ticks add up to the counts printed */
		if (st->ticks && st->ticks->active)
			ticks_add(st->ticks, cs);
		/* the command's times once it is reaped, as perf takes them */
		cset_tools(cs, cfg, (uint64_t)res->wall_ns,
			   w->child_done ? &w->ru : NULL);
	}
}

/* The command's end into res: its status and rusage, perf's signal line. */
static void child_result(const struct config *cfg, const struct waiter *w,
			 bool target, struct run_result *res)
{
	/* perf stat's line for a command that a signal ended
	   (psignal()'s, the name shown, never run) */
	if (w->child_done && WIFSIGNALED(w->status) && !cfg->quiet) {
		esc_print_visible(stderr, cfg->argv[0]);
		fprintf(stderr, ": %s\n", strsignal(WTERMSIG(w->status)));
	}
	/* --timeout ended it: the measurement's end, not the
	   command's failure (perf exits 0 too). */
	res->status = w->stopped ? 0 : exit_status(w->status);
	res->ru = w->ru;
	res->have_ru = !target;
}

void run_once(const struct config *cfg, struct cset *cs, struct stats *st,
	      struct run_result *res)
{
	struct waiter w = { .cfg = cfg, .child = -1, .cs = cs };
	struct control ctl;
	struct spawn wl = { .pid = -1 };
	/* With -p/-t/-a/-C the command only says how long to count. */
	bool target = cfg->cpus || cfg->tids;
	bool on_exec = cfg->argv && !target && cfg->delay_ms == 0 &&
		       !cfg->start_disabled;
	struct timing t = { .mux_ns = cfg->mux_tick_ms * 1000000ull };
	bool done = false;

	memset(res, 0, sizeof(*res));
	if (cfg->argv)
		command_hold(cfg, &wl, &w);
	cset_init(cs, cfg, target ? -1 : w.child);
	cset_open(cs, cfg, on_exec);
	/* the clock starts before the counters, as perf's, so that none
	   counts longer than the elapsed time */
	t.t0 = clock_ns(CLOCK_MONOTONIC);
	if (!on_exec && cfg->delay_ms == 0 && !cfg->start_disabled)
		cset_enable(cs, cfg);
	control_open(&ctl, cfg->control);
	if (cfg->control)
		w.ctl = &ctl;
	if (cfg->start_disabled && !cfg->quiet)
		fputs("Events disabled\n", stderr);
	if (cfg->argv)
		command_release(cfg, &wl);
	if (cfg->delay_ms)
		done = delay_start(cfg, cs, &w, t.t0);
	timing_start(cfg, cs, st, &t);
	if (!done)
		count(cfg, cs, st, &w, &t);
	stop_child(&w);
	count_end(cfg, cs, st, &w, &t, res);
	control_close(&ctl);
	res->interrupted = w.interrupted;
	if (w.child > 0)
		child_result(cfg, &w, target, res);
}

int run_hook(char *const argv[])
{
	struct spawn sp = { .pid = -1 };
	int status, e;

	/* argv as the user split it (words_split()): no shell between */
	if (spawn_hold(&sp, argv, &oldset))
		return -1;
	e = spawn_release(&sp);
	while (waitpid(sp.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (e) {
		errno = e;
		return -1;
	}
	return exit_status(status);
}
