/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen.h - kerneltop's screens: objects over the session, each with its
 * own state, a table of keys and a copy of what it drew.
 *
 * The layers, each using only those before it:
 *   term.c      the terminal: set up, given back, a line drawn, too small
 *   list.c      the one list widget: selection, scrolling, paging
 *   screen.c    the stack of screens: keys dispatched through the tables,
 *               the footer and the help's text made from them, "back"
 *   screen-*.c  one screen each (main, help, threads, annotate, health,
 *               calltree): what it shows and what its keys do
 *   tui.c       the loop that samples, refreshes and reads keys
 * Under them the session (session.c, struct kt) and the view (view.c,
 * struct kt_view): a screen reads the models through them and never
 * samples; the loop never draws a screen itself.
 *
 * A screen keeps what it drew (a struct kt_table, a tree, a list of
 * threads) and acts on that copy: a key acts on the row that is
 * highlighted, whatever arrived since, and while the view is paused no
 * key shows rows newer than those drawn.
 *
 * Adding a screen (the per-task table, an off-CPU view):
 *   1. tools/kerneltop/screen-NAME.c: its state (a struct with a struct
 *      list when it lists rows), open() that makes it from the argument
 *      it is opened with (and refuses, with t->msg, when there is
 *      nothing to show), close() that frees it, draw() that takes a
 *      fresh copy unless the view is paused and draws it, its keys as a
 *      const struct screen_key table, and the const struct screen_type
 *      that names them all.
 *   2. Its type declared below, its file in Makemodule.am.
 *   3. A row in the keys table of the screen it is opened from (usually
 *      main_keys in screen-main.c), whose fn calls screen_open().
 * The help screen, the footer and "back" (q, Esc, Left) come with it.
 */
#ifndef KERNELTOP_SCREEN_H
#define KERNELTOP_SCREEN_H

#include <curses.h>

#include "frame.h"
#include "kt.h"
#include "list.h"
#include "prompt.h"
#include "term.h"
#include "view.h"

struct tui;
struct screen;

/* When a key shows in the footer. */
enum key_footer {
	FOOT_NEVER,
	FOOT_ALWAYS,
	FOOT_CHAINS,		/* only with call chains (-g) */
	FOOT_FLAT,		/* only without */
	FOOT_OFFCPU,		/* only with --off-cpu */
};

/* One key of a screen: for dispatch, the help screen and the footer. */
struct screen_key {
	const char *label;	/* as the help screen shows it: "h ?" */
	int keys[4];		/* the codes it answers to, 0-ended */
	const char *help;	/* the help screen's line */
	const char *footer;	/* its footer item, "h help" */
	enum key_footer when;
	void (*fn)(struct tui *t, struct screen *s);
};

struct screen_type {
	const char *name;
	/* Make s->data for what arg says; 0, or -1 with t->msg set (the
	   screen is then not opened). */
	int (*open)(struct tui *t, struct screen *s, const void *arg);
	void (*close)(struct screen *s);
	/* Draw the screen whole but the footer; true when it drew the
	   bottom line itself (a prompt). */
	bool (*draw)(struct tui *t, struct screen *s);
	const struct screen_key *keys;
	size_t nkeys;
	/* Before the table: a key the screen takes whatever it is (a
	   prompt being typed, the help's "any key"); true when taken. */
	bool (*key)(struct tui *t, struct screen *s, int ch);
	/* The screen's list, for the navigation keys; NULL: none. */
	struct list *(*list)(struct screen *s);
	/* Lines of text for the help screen after the keys, or NULL. */
	const char *const *notes;
};

struct screen {
	const struct screen_type *type;
	void *data;		/* the type's own state */
};

#define TUI_DEPTH 8

struct tui {
	struct kt *kt;		/* the session */
	struct kt_view *view;	/* what the tables show */
	struct screen stack[TUI_DEPTH];	/* [0] main; the last is shown */
	size_t depth;
	bool quit;
	char msg[KT_LINE];	/* the last action's result (status line) */
};

/* Open a screen of type over the shown one; its open() decides from
   arg.  Returns 0, or -1 (t->msg says why: nothing to show, too deep). */
int screen_open(struct tui *t, const struct screen_type *type,
		const void *arg);
/* Close the shown screen: back to the one below (not the first). */
void screen_back(struct tui *t);
/* The same as a key's fn, for a screen's own back keys ('t', 'H'). */
void screen_back_key(struct tui *t, struct screen *s);
/* Close them all (at the end). */
void screen_close_all(struct tui *t);
/* The shown screen, and the one below it (NULL for the first). */
struct screen *screen_top(struct tui *t);
struct screen *screen_below(struct tui *t, const struct screen *s);
/* Draw the shown screen with its footer. */
void screen_draw(struct tui *t);
/* A key to the shown screen: its own hook, its table, its list's
   navigation, then back (q, Esc, Left) on any screen but the first. */
void screen_key(struct tui *t, int ch);
/* Whether s's key k (a row of its table) is in the footer now. */
bool screen_key_in_footer(const struct tui *t, const struct screen_key *k);
/* The help screen's lines for the keys every screen of s's kind has:
   the list's moves, back; calls fn for each (label, help). */
void screen_common_keys(const struct tui *t, const struct screen *s,
			void (*fn)(void *arg, const char *label,
				   const char *help),
			void *arg);

/* --- the screens (screen-*.c) ---------------------------------------- */

extern const struct screen_type screen_main;	/* the table */
extern const struct screen_type screen_help;	/* arg: the screen whose
						   keys it lists */
extern const struct screen_type screen_threads;	/* pick a thread */
extern const struct screen_type screen_annotate;/* arg: struct
						   annotate_arg */
extern const struct screen_type screen_health;	/* what is unresolved */
extern const struct screen_type screen_calltree;/* arg: a function id of
						   kt->stacks (uint32_t) */
extern const struct screen_type screen_tasks;	/* the task table */

struct annotate_arg {
	const char *sym, *dso;
};

#endif
