/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen.c - the stack of kerneltop's screens (tmux's window modes): a
 * screen opened over another, closed back to it; keys dispatched through
 * each screen's table, then its list's moves, then "back"; the footer
 * made from the same tables.
 */
#include "config.h"

#include <string.h>

#include "base/strbuf.h"
#include "screen.h"

/* Back, the same on every screen but the first, which has nothing behind
   it (there q is its own key, quit). */
static const int back_keys[] = { 'q', 27, KEY_LEFT };

struct screen *screen_top(struct tui *t)
{
	return t->depth ? &t->stack[t->depth - 1] : NULL;
}

struct screen *screen_below(struct tui *t, const struct screen *s)
{
	return s > t->stack && s < t->stack + t->depth ? (struct screen *)s - 1
						       : NULL;
}

int screen_open(struct tui *t, const struct screen_type *type,
		const void *arg)
{
	struct screen *s;

	if (t->depth == TUI_DEPTH) {
		snprintf(t->msg, sizeof(t->msg), "too many screens open "
			 "(go back with q)");
		return -1;
	}
	s = &t->stack[t->depth];
	*s = (struct screen){ .type = type };
	if (type->open && type->open(t, s, arg) != 0)
		return -1;
	t->depth++;
	return 0;
}

static void close_top(struct tui *t)
{
	struct screen *s = &t->stack[--t->depth];

	if (s->type->close)
		s->type->close(s);
	*s = (struct screen){ .type = NULL };
}

void screen_back(struct tui *t)
{
	if (t->depth > 1)
		close_top(t);
}

void screen_back_key(struct tui *t, struct screen *s)
{
	(void)s;
	screen_back(t);
}

void screen_close_all(struct tui *t)
{
	while (t->depth)
		close_top(t);
}

bool screen_key_in_footer(const struct tui *t, const struct screen_key *k)
{
	switch (k->when) {
	case FOOT_ALWAYS:
		return k->footer != NULL;
	case FOOT_CHAINS:
		return k->footer && profile_chains(t->kt->prof[KT_ON_CPU]);
	case FOOT_FLAT:
		return k->footer && !profile_chains(t->kt->prof[KT_ON_CPU]);
	case FOOT_OFFCPU:
		return k->footer && t->kt->oc.m;
	default:
		return false;
	}
}

/* The bottom line: the footer items of the screen's keys, then back. */
static void footer(struct tui *t, const struct screen *s)
{
	char line[KT_LINE] = "";
	size_t i;

	for (i = 0; i < s->type->nkeys; i++)
		if (screen_key_in_footer(t, &s->type->keys[i]))
			str_join(line, sizeof(line), "  ",
				 s->type->keys[i].footer);
	if (s != t->stack)
		str_join(line, sizeof(line), "  ", "q/Esc back");
	term_line(LINES - 1, line, A_REVERSE);
}

void screen_draw(struct tui *t)
{
	struct screen *s = screen_top(t);

	erase();
	if (!term_too_small() && s && !s->type->draw(t, s))
		footer(t, s);
	refresh();
}

void screen_common_keys(const struct tui *t, const struct screen *s,
			void (*fn)(void *arg, const char *label,
				   const char *help),
			void *arg)
{
	if (s->type->list) {
		fn(arg, "Up Down j k", "move the selection");
		fn(arg, "PgUp PgDn Home End g G",
		   "move by a page, to the ends");
	}
	if (s != t->stack)
		fn(arg, "q Esc Left", "back to the screen before");
}

/* The row of s's table that answers to ch, or NULL. */
static const struct screen_key *key_find(const struct screen *s, int ch)
{
	size_t i, k;

	for (i = 0; i < s->type->nkeys; i++)
		for (k = 0; k < 4 && s->type->keys[i].keys[k]; k++)
			if (s->type->keys[i].keys[k] == ch &&
			    s->type->keys[i].fn)
				return &s->type->keys[i];
	return NULL;
}

void screen_key(struct tui *t, int ch)
{
	struct screen *s = screen_top(t);
	const struct screen_key *k;
	struct list *l;
	size_t i;

	if (!s || (s->type->key && s->type->key(t, s, ch)))
		return;
	t->msg[0] = '\0';
	k = key_find(s, ch);
	if (k) {
		k->fn(t, s);
		return;
	}
	l = s->type->list ? s->type->list(s) : NULL;
	if (l && list_key(l, ch))
		return;
	for (i = 0; i < sizeof(back_keys) / sizeof(back_keys[0]); i++)
		if (ch == back_keys[i])
			screen_back(t);
}
