/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c - the one list widget of kerneltop's screens (perf's ui_browser,
 * htop's Panel): a selection among n rows, the rows that fit between a
 * screen's heading and its footer, scrolled to keep the selection shown,
 * moved by a line, a page or to the ends.
 */
#include "config.h"

#include "list.h"

void list_place(struct list *l, size_t n, int y)
{
	l->n = n;
	l->y = y;
	l->page = LINES > y + 1 ? (size_t)(LINES - y - 1) : 1;
	if (l->sel >= n)
		l->sel = n ? n - 1 : 0;
	if (l->scroll_only || l->sel < l->top)
		l->top = l->sel;
	else if (l->sel >= l->top + l->page)
		l->top = l->sel - l->page + 1;
}

bool list_key(struct list *l, int ch)
{
	size_t last = l->n ? l->n - 1 : 0;

	switch (ch) {
	case KEY_UP: case 'k':
		if (l->sel > 0)
			l->sel--;
		break;
	case KEY_DOWN: case 'j':
		if (l->sel < last)
			l->sel++;
		break;
	case KEY_PPAGE:
		l->sel = l->sel > l->page ? l->sel - l->page : 0;
		break;
	case KEY_NPAGE:
		l->sel = l->sel + l->page < last ? l->sel + l->page : last;
		break;
	case KEY_HOME: case 'g':
		l->sel = 0;
		break;
	case KEY_END: case 'G':
		l->sel = last;
		break;
	default:
		return false;
	}
	return true;
}

void list_reset(struct list *l)
{
	l->sel = l->top = 0;
}

size_t list_end(const struct list *l)
{
	return l->top + l->page < l->n ? l->top + l->page : l->n;
}

int list_y(const struct list *l, size_t i)
{
	return l->y + (int)(i - l->top);
}

attr_t list_attr(const struct list *l, size_t i)
{
	return !l->scroll_only && i == l->sel ? A_REVERSE : 0;
}
