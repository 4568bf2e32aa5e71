/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-health.c - symbolization health (`H'): what could not be
 * resolved, grouped by cause, with the fix; a text longer than the
 * terminal scrolls with the list keys.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include "base/escape.h"
#include "symbols/pkgdb.h"
#include "screen.h"
#include "util/xmalloc.h"

#define HEALTH_ROWS 64
#define HEALTH_FIRST 3		/* title, totals, column header */

struct health_screen {
	struct list list;	/* the text's lines, scrolled */
};

/* The causes a debug package (-dbgsym) cures. */
static bool dbgsym_helps(enum sym_cause c)
{
	return c == SYM_STRIPPED || c == SYM_NO_DEBUGINFO ||
	       c == SYM_NO_SYMBOL;
}

/*
 * The text under the column header, its first line on line y (lines
 * above the screen or past it are not drawn: term_line()), as far as
 * it goes; returns the line after its last.
 *
 * The rows grouped by cause (the causes by their samples, then the files
 * by theirs), each group's fix once, wrapped; a file a Debian package
 * installed names the package whose -dbgsym would cure it, from dpkg's
 * lists (lib/symbols/pkgdb), cached for the run.  Drawn from the
 * symbols' counts each time: there is no row to act on.
 */
static int health_text(struct tui *t, int y)
{
	static struct pkgdb *pkgs;
	struct sym_unresolved u[HEALTH_ROWS];
	const char *paths[HEALTH_ROWS], *owner[HEALTH_ROWS];
	uint64_t by_cause[SYM_CAUSE_MAX] = { 0 };
	bool done[SYM_CAUSE_MAX] = { false };
	char line[KT_LINE], dso[KT_LINE], pkg[128];
	size_t n, i, np = 0;

	n = symbols_unresolved(t->kt->sym, u, HEALTH_ROWS);
	if (n > HEALTH_ROWS)
		n = HEALTH_ROWS;
	for (i = 0; i < n; i++) {
		by_cause[u[i].cause] += u[i].count;
		owner[i] = NULL;
		if (dbgsym_helps(u[i].cause) && u[i].dso[0] == '/')
			paths[np++] = u[i].dso;
	}
	if (np && !pkgs)
		pkgs = pkgdb_new(NULL, 0);
	if (np && pkgs)
		pkgdb_owners(pkgs, paths, np, owner);
	/* owner[] is in the order of paths[]: walk both alike below */
	for (;;) {
		enum sym_cause c = SYM_OK;
		size_t k, j;

		for (k = 1; k < SYM_CAUSE_MAX; k++)
			if (!done[k] && by_cause[k] &&
			    (c == SYM_OK || by_cause[k] > by_cause[c]))
				c = (enum sym_cause)k;
		if (c == SYM_OK)
			break;
		done[c] = true;
		for (i = j = 0; i < n; i++) {
			const char *o = NULL;

			if (dbgsym_helps(u[i].cause) && u[i].dso[0] == '/')
				o = owner[j++];
			if (u[i].cause != c)
				continue;
			esc_visible(dso, sizeof(dso), u[i].dso);
			pkg[0] = '\0';
			if (o)
				snprintf(pkg, sizeof(pkg), "  (install %s-dbgsym)",
					 o);
			snprintf(line, sizeof(line), "%10" PRIu64 "  %-16s %s%s",
				 u[i].count, symbols_cause_name(c), dso, pkg);
			term_line(y++, line, 0);
		}
		y = term_wrapped(y, INT_MAX, "            fix: ",
				 symbols_cause_advice(c));
	}
	if (!n)
		term_line(y++, "  every sample so far resolved to a function",
			  0);
	return y;
}

/* The text counted where nothing is drawn (below the screen), placed,
   then drawn scrolled; the heading over it. */
static bool health_draw(struct tui *t, struct screen *s)
{
	struct health_screen *h = s->data;
	struct feed_info in;
	char line[KT_LINE];
	size_t n;

	n = (size_t)(health_text(t, LINES) - LINES);
	list_place(&h->list, n, HEALTH_FIRST);
	/* the last page ends at the last line */
	if (n > h->list.page && h->list.top > n - h->list.page)
		h->list.top = h->list.sel = n - h->list.page;
	health_text(t, HEALTH_FIRST - (int)h->list.top);
	feed_info(t->kt->feed, &in);
	term_line(0, "Symbolization health", A_REVERSE);
	snprintf(line, sizeof(line), "%" PRIu64 " of %" PRIu64 " samples "
		 "(%.2f%%) have no function name; lost %" PRIu64
		 ", throttled %" PRIu64, in.unresolved, in.samples,
		 in.samples ? 100.0 * (double)in.unresolved /
			      (double)in.samples : 0.0, in.lost,
		 in.throttled);
	term_line(1, line, 0);
	snprintf(line, sizeof(line), "%10s  %-16s %s", "SAMPLES", "CAUSE",
		 "DSO");
	term_line(2, line, A_BOLD);
	return false;
}

static const struct screen_key health_keys[] = {
	{ "H", { 'H' }, "back to the table", NULL, FOOT_NEVER,
	  screen_back_key },
};

static int health_open(struct tui *t, struct screen *s, const void *arg)
{
	struct health_screen *h = xcalloc(1, sizeof(*h));

	(void)t;
	(void)arg;
	h->list.scroll_only = true;
	s->data = h;
	return 0;
}

static void health_close(struct screen *s)
{
	free(s->data);
}

static struct list *health_list(struct screen *s)
{
	struct health_screen *h = s->data;

	return &h->list;
}

const struct screen_type screen_health = {
	.name = "health",
	.open = health_open,
	.close = health_close,
	.draw = health_draw,
	.keys = health_keys,
	.nkeys = sizeof(health_keys) / sizeof(health_keys[0]),
	.list = health_list,
};
