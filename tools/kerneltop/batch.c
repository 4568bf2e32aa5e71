/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.c - kerneltop -b: a plain-text frame every refresh on stdout (as
 * top -b), N of them with -n, until a signal otherwise.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>

#include "kerneltop.h"
#include "util/die.h"
#include "util/stop-signals.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	stop = 1;
}

int batch_run(struct kt *kt)
{
	double start = now_s(), next = start + kt->opt.delay, last = start;

	/* the tools' one rule (util/stop-signals.h) */
	stop_signals_catch(on_signal);
	/* notices go to stderr, so that stdout holds frames only */
	if (kt->notice[0])
		warn_msg("%s", kt->notice);
	while (!stop) {
		double t = now_s(), wait = next - t;

		if (wait > 0.1)
			wait = 0.1;
		if (wait > 0 && feed_poll(kt->feed, (int)(wait * 1000) + 1) < 0)
			die_errno("cannot wait for samples");
		session_drain(kt);
		feed_background(kt->feed, 5);
		t = now_s();
		if (t < next && !kt->ended)
			continue;
		session_tick(kt, t - last);
		last = t;
		if (frame_print(kt, stdout, kt->opt.entries) != 0)
			die_errno("cannot write to standard output");
		session_age(kt);
		if (kt->ended) {
			warn_msg("%s", kt->ended_msg);
			break;
		}
		if (kt->opt.iterations && kt->frames >= kt->opt.iterations)
			break;
		next += kt->opt.delay;
		if (next < t)		/* a slow frame: do not catch up */
			next = t + kt->opt.delay;
	}
	return 0;
}
