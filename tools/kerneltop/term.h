/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * term.h - kerneltop's terminal (term.c): curses set up and given back,
 * a line drawn cut at the width, text padded or wrapped by display width,
 * and what is said when the terminal is too small.
 */
#ifndef KERNELTOP_TERM_H
#define KERNELTOP_TERM_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

/* Die with one line unless stdout is a terminal curses can drive. */
void term_check(void);

/* The longest line drawn, in bytes. */
#define TERM_LINE 512

#define TUI_MIN_COLS 40
#define TUI_MIN_LINES 8

/* Curses on the terminal (keys from /dev/tty when stdin is not one);
   dies with one line when it cannot.  term_restore() gives the terminal
   back, and is safe to call twice. */
void term_init(void);
void term_restore(void);
/* The descriptor keys come from, to poll. */
int term_key_fd(void);
/* Print s (already safe to show) on line y, cut at the screen's width. */
void term_line(int y, const char *s, attr_t attr);
/* The screen is too small to draw: say so instead; true when it is. */
bool term_too_small(void);
/* s (visible text) padded with spaces to cols columns by display width,
   into buf; returns buf. */
const char *term_padded(char *buf, size_t size, const char *s, size_t cols);
/* text on lines from y on, below ymax, cut at spaces to the width: lead
   (ASCII) before the first line, as many spaces before the others.
   Returns the next free line. */
int term_wrapped(int y, int ymax, const char *lead, const char *text);

#endif
