/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.h - the list widget of kerneltop's screens (list.c).
 */
#ifndef KERNELTOP_LIST_H
#define KERNELTOP_LIST_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * n rows shown from line y down to the footer, one selected (or, for a
 * text that only scrolls, none: the first shown is the selection).  The
 * one place that selection, scrolling and paging are written.
 */
struct list {
	size_t n;		/* rows */
	size_t sel;		/* the selected row (< n, or 0) */
	size_t top;		/* the first row shown */
	size_t page;		/* rows that fit */
	int y;			/* the line of the first row shown */
	bool scroll_only;	/* no selection bar: sel is top */
};

/* Lay l out for n rows from line y to the line above the footer:
   the selection kept within the rows and on the screen. */
void list_place(struct list *l, size_t n, int y);
/* A navigation key (Up Down j k PgUp PgDn Home End g G) moves the
   selection; true when ch was one. */
bool list_key(struct list *l, int ch);
/* Back to the first row. */
void list_reset(struct list *l);
/* The rows shown: from l->top below list_end(l); row i goes on line
   list_y(l, i), with list_attr(l, i) (the bar on the selection). */
size_t list_end(const struct list *l);
int list_y(const struct list *l, size_t i);
attr_t list_attr(const struct list *l, size_t i);

#endif
