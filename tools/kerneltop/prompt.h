/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prompt.h - a line of input on a screen's bottom line (prompt.c).
 */
#ifndef KERNELTOP_PROMPT_H
#define KERNELTOP_PROMPT_H

#include <stdbool.h>
#include <stddef.h>

struct prompt {
	bool on;		/* reading: the screen gives it every key */
	const char *label;	/* "filter" */
	char input[128];	/* what was typed, NUL-ended */
	size_t len;
};
enum prompt_result { PROMPT_EDIT, PROMPT_DONE, PROMPT_CANCEL };

/* Start reading, empty, under label (a string that outlives it). */
void prompt_start(struct prompt *p, const char *label);
/* A key while p->on: edited, or PROMPT_DONE (Enter: p->input is the
   answer) or PROMPT_CANCEL (Esc); both end the reading. */
enum prompt_result prompt_key(struct prompt *p, int ch);
/* "label: input" on the bottom line, the cursor after it. */
void prompt_draw(const struct prompt *p);

#endif
