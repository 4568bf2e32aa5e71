/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h - the TUI's state and its screens.  Each screen is a row of
 * screens[] (tui.c): how to draw it and what its keys do.  The screens
 * only read the model's rows; sampling goes on in tui_run()'s loop.
 */
#ifndef KERNELTOP_TUI_H
#define KERNELTOP_TUI_H

#include <curses.h>

#include "kerneltop.h"

enum tui_screen { SCREEN_MAIN, SCREEN_HELP, SCREEN_THREADS, SCREEN_ANNOTATE,
	      SCREEN_HEALTH, SCREEN_CALLTREE, SCREEN_MAX };

/* A line of the call tree: a node, and its path from the root. */
struct tree_line {
	uint32_t node;
	uint64_t path;
};

struct tui {
	struct kt *kt;
	enum tui_screen screen;
	bool quit;
	size_t sel, first;		/* main: selected row, first shown */
	size_t tsel, tfirst;		/* thread list */
	size_t afirst;			/* annotate: first line shown */
	struct annotation ann;
	char ann_title[KT_LINE];
	bool prompting;			/* `/`: reading a filter */
	char input[128];
	size_t input_len;
	char filter[128];
	char zoom_dso[4096];
	char zoom_comm[32];
	char msg[KT_LINE];		/* the last action's result */
	/* the call tree (view-calltree.c) */
	uint32_t cg_func;		/* whose callers or callees */
	bool cg_callees;
	size_t cg_sel, cg_first;
	uint64_t *cg_open;		/* the paths of the open nodes */
	size_t cg_nopen, cg_aopen;
	struct tree_line *cg_vis;	/* the lines shown */
	size_t cg_avis;
};

/* One screen: draw it whole; handle a key. */
struct screen_ops {
	void (*draw)(struct tui *t);
	void (*key)(struct tui *t, int ch);
};

/* One key of the main screen, for dispatch and for the help screen. */
struct key_binding {
	const char *label;		/* as the help screen shows it */
	const int keys[4];		/* the codes it answers to, 0-ended */
	const char *help;
	void (*fn)(struct tui *t);
};
extern const struct key_binding main_keys[];
extern const size_t main_nkeys;

/* view-main.c */
void view_main_draw(struct tui *t);
void view_main_key(struct tui *t, int ch);
/* The rows of the main view as they stand now. */
const struct top_row *view_main_rows(struct tui *t, size_t *n);

/* views.c */
void view_help_draw(struct tui *t);
void view_help_key(struct tui *t, int ch);
void view_threads_draw(struct tui *t);
void view_threads_key(struct tui *t, int ch);
void view_annotate_draw(struct tui *t);
void view_annotate_key(struct tui *t, int ch);
void view_health_draw(struct tui *t);
void view_health_key(struct tui *t, int ch);

/* view-calltree.c: open the callers of func (an id of kt->stacks). */
void view_calltree_open(struct tui *t, uint32_t func);
void view_calltree_draw(struct tui *t);
void view_calltree_key(struct tui *t, int ch);

/* tui.c: helpers the screens share. */
#define TUI_MIN_COLS 40
#define TUI_MIN_LINES 8
/* Print s (already safe to show) on line y, cut at the screen's width. */
void tui_line(int y, const char *s, attr_t attr);
/* The screen is too small to draw: say so instead; true when it is. */
bool tui_too_small(void);
/* Move a selection by a navigation key; true when ch was one. */
bool tui_navigate(int ch, size_t *sel, size_t n, size_t page);
/* Keep *sel within n rows and on screen: adjust *first for a window of
   page lines. */
void tui_scroll(size_t *sel, size_t *first, size_t n, size_t page);

#endif
