/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.c - kerneltop's live loop: sample, refresh, read keys, and have
 * the shown screen draw itself (screen.h says how the screens are made).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>

#include "base/clock.h"
#include "annotate.h"
#include "exports.h"
#include "screen.h"
#include "session.h"
#include "tui.h"
#include "util/die.h"

/* Keys waiting, each to the shown screen; true when any came. */
static bool read_keys(struct tui *t)
{
	bool any = false;
	int ch;

	while (!t->quit && (ch = getch()) != ERR) {
		any = true;
		if (ch == KEY_RESIZE)
			continue;	/* the redraw below fits the new size */
		screen_key(t, ch);
	}
	return any;
}

/*
 * --sym-annotate SYM: its annotation screen, opened at the first refresh
 * that has SYM in the table (at the start it has no samples to show).
 */
static void sym_annotate_open(struct tui *t, bool *done)
{
	struct kt_table tb = { .rows = NULL };
	const struct top_row *r;

	if (*done || !t->kt->opt.sym_annotate ||
	    table_take(&tb, t->kt, t->view) != 0)
		return;
	r = annotate_row(&tb, t->kt->opt.sym_annotate);
	if (r) {
		screen_open(t, &screen_annotate,
			    &(struct annotate_arg){ r->sym, r->dso });
		*done = true;
	}
	table_release(&tb);
}

int tui_run(struct kt *kt)
{
	struct kt_view view;
	struct tui t = { .kt = kt, .view = &view };
	double start, next, last, last_draw;
	bool behind = false, annotated = false;

	view_init(&view, kt);
	term_init();
	if (screen_open(&t, &screen_main, NULL) != 0)
		die("cannot open the main screen: %s", t.msg);
	/* --tasks: the task table first, the profile under it */
	if (kt->opt.tasks && screen_open(&t, &screen_tasks, NULL) != 0)
		die("cannot open the task table: %s", t.msg);
	start = last = last_draw = clock_s(CLOCK_MONOTONIC);
	next = start + kt->opt.delay;
	screen_draw(&t);
	while (!t.quit && !kt_stop && !kt->failed[0]) {
		double now = clock_s(CLOCK_MONOTONIC), wait = next - now;
		bool redraw;

		if (wait > 0.1)
			wait = 0.1;
		/* behind: keys are looked at, and what is left read, at once */
		if (wait < 0 || behind)
			wait = 0;
		/* keys, and the rings: a ring half full wakes the loop to
		   drain it before it overflows (tracepoints at 100,000 a
		   second fill one in tens of milliseconds) */
		if (feed_poll_fd(kt->feed, term_key_fd(), behind ? 0 :
				 (int)(wait * 1000) + 1, NULL) < 0)
			die_errno("cannot wait for keys and samples");
		/* a key redraws the screen, which keeps its rows while the
		   view is paused */
		redraw = read_keys(&t);
		if (t.quit || kt_stop)
			break;
		behind = session_drain(kt);
		behind |= session_background(kt);
		/* a failed snapshot says so on the status line */
		if (kt_exports_tick(kt, false, t.msg, sizeof(t.msg)) != 0)
			redraw = true;
		now = clock_s(CLOCK_MONOTONIC);
		if (now >= next) {
			session_tick(kt, now - last);
			last = now;
			sym_annotate_open(&t, &annotated);
			/* paused: sampling goes on, and a key that came
			   with this tick still draws its screen */
			if (!view.paused) {
				screen_draw(&t);
				last_draw = now;
				redraw = false;
			}
			/* a target that has ended leaves its last table */
			if (!kt->ended)
				session_age(kt);
			next += kt->opt.delay;
			if (next < now)
				next = now + kt->opt.delay;
		} else if (kt->frames == 0 && now - last_draw >= 0.1) {
			/* the first frame fills as the samples arrive */
			session_tick(kt, now - last);
			last = now;
			redraw = true;
		}
		if (redraw) {
			screen_draw(&t);
			last_draw = now;
		}
	}
	screen_close_all(&t);
	term_restore();
	/* q or a stop signal: the samples since the last drain count, in
	   the last snapshot and the whole-run exports, as in batch_run() */
	if (!kt->failed[0])
		session_drain(kt);
	if (kt->ended)
		warn_msg("%s", kt->ended_msg);
	session_lost_say(kt);
	return 0;
}
