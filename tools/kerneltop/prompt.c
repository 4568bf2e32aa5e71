/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prompt.c - the one line of input a screen reads on its bottom line (a
 * filter, a user): typed, edited, applied with Enter, dropped with Esc.
 */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "prompt.h"
#include "term.h"

void prompt_start(struct prompt *p, const char *label)
{
	p->on = true;
	p->label = label;
	p->len = 0;
	p->input[0] = '\0';
}

enum prompt_result prompt_key(struct prompt *p, int ch)
{
	switch (ch) {
	case 27:
		p->on = false;
		return PROMPT_CANCEL;
	case '\n': case '\r': case KEY_ENTER:
		p->on = false;
		return PROMPT_DONE;
	case KEY_BACKSPACE: case 127: case 8:
		if (p->len)
			p->len--;
		break;
	default:
		if (ch >= 32 && ch < 256 && ch != 127 &&
		    p->len < sizeof(p->input) - 1)
			p->input[p->len++] = (char)ch;
	}
	p->input[p->len] = '\0';
	return PROMPT_EDIT;
}

void prompt_draw(const struct prompt *p)
{
	char line[TERM_LINE];

	snprintf(line, sizeof(line), "%s: %.*s", p->label, (int)p->len,
		 p->input);
	term_line(LINES - 1, line, 0);
	curs_set(1);
	move(LINES - 1, (int)strlen(line) < COLS ? (int)strlen(line)
						 : COLS - 1);
}
