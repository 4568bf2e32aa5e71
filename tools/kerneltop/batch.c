/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.c - kerneltop -b: a plain-text frame every refresh on stdout (as
 * top -b), N of them with -n, until a signal otherwise.
 */
#include "config.h"

#include <errno.h>

#include "base/clock.h"
#include "annotate.h"
#include "batch.h"
#include "exports.h"
#include "frame.h"
#include "kt.h"
#include "session.h"
#include "tasks-table.h"
#include "view.h"
#include "util/die.h"
#include "util/xmalloc.h"

/* A frame of what came since the last one, for batch_run(). */
static void frame_out(struct kt *kt, const struct kt_view *v,
		      double interval)
{
	struct kt_table tb = { .rows = NULL };

	session_tick(kt, interval);
	if (kt->opt.tasks) {
		if (tasks_table_print(kt, &TASKS_VIEW(
			.order = kt->opt.tasks_order,
			.processes = kt->opt.tasks_processes), stdout,
			kt->opt.entries, kt->opt.tasks_raw) != 0)
			die_errno("cannot write to standard output");
		session_age(kt);
		return;
	}
	if (table_take(&tb, kt, v) != 0)
		die_nomem();
	if (frame_print(kt, &tb, stdout, kt->opt.entries) != 0 ||
	    (kt->opt.sym_annotate &&
	     annotate_print(kt, &tb, kt->opt.sym_annotate, stdout) != 0))
		die_errno("cannot write to standard output");
	table_release(&tb);
	session_age(kt);
}

int batch_run(struct kt *kt)
{
	double start = clock_s(CLOCK_MONOTONIC), last = start;
	double next = start + kt->opt.delay;
	struct kt_view view;
	bool behind = false;
	char msg[KT_LINE];

	view_init(&view, kt);
	/* notices go to stderr, so that stdout holds frames only */
	if (kt->notice[0])
		warn_msg("%s", kt->notice);
	while (!kt_stop) {
		double t = clock_s(CLOCK_MONOTONIC), wait = next - t;

		if (wait > 0.1)
			wait = 0.1;
		/* behind: what is left is read at once */
		if (wait > 0 && !behind &&
		    feed_poll(kt->feed, (int)(wait * 1000) + 1) < 0)
			die_errno("cannot wait for samples");
		if (kt_stop)
			break;
		behind = session_drain(kt);
		behind |= session_background(kt);
		if (kt_exports_tick(kt, false, msg, sizeof(msg)) != 0)
			warn_msg("%s", msg);
		t = clock_s(CLOCK_MONOTONIC);
		if (t < next && !kt->ended)
			continue;
		frame_out(kt, &view, t - last);
		last = t;
		if (kt->failed[0])
			break;
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
	/* stopped by a signal: the samples since the last frame are shown,
	   not dropped (at least one frame is, as top -b shows one) */
	if (kt_stop) {
		session_drain(kt);
		feed_info(kt->feed, &kt->info);
		if (!kt->frames || kt->info.samples != kt->info_prev.samples)
			frame_out(kt, &view, clock_s(CLOCK_MONOTONIC) - last);
	}
	session_lost_say(kt);
	return 0;
}
