/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-health.c - symbolization health (`H'): what could not be
 * resolved, grouped by cause, with the fix.
 */
#include "config.h"

#include <inttypes.h>

#include "base/escape.h"
#include "symbols/pkgdb.h"
#include "screen.h"

#define HEALTH_ROWS 64

/* The causes a debug package (-dbgsym) cures. */
static bool dbgsym_helps(enum sym_cause c)
{
	return c == SYM_STRIPPED || c == SYM_NO_DEBUGINFO ||
	       c == SYM_NO_SYMBOL;
}

/*
 * The rows grouped by cause (the causes by their samples, then the files
 * by theirs), each group's fix once, wrapped; a file a Debian package
 * installed names the package whose -dbgsym would cure it, from dpkg's
 * lists (lib/symbols/pkgdb), cached for the run.  Drawn from the
 * symbols' counts each time: there is no row to act on.
 */
static bool health_draw(struct tui *t, struct screen *s)
{
	static struct pkgdb *pkgs;
	struct sym_unresolved u[HEALTH_ROWS];
	const char *paths[HEALTH_ROWS], *owner[HEALTH_ROWS];
	uint64_t by_cause[SYM_CAUSE_MAX] = { 0 };
	bool done[SYM_CAUSE_MAX] = { false };
	char line[KT_LINE], dso[KT_LINE], pkg[128];
	struct feed_info in;
	size_t n, i, np = 0;
	int y = 3;

	(void)s;
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
		if (c == SYM_OK || y >= LINES - 2)
			break;
		done[c] = true;
		for (i = j = 0; i < n && y < LINES - 2; i++) {
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
		y = term_wrapped(y, LINES - 2, "            fix: ",
				 symbols_cause_advice(c));
	}
	if (!n)
		term_line(y, "  every sample so far resolved to a function", 0);
	return false;
}

static const struct screen_key health_keys[] = {
	{ "H", { 'H' }, "back to the table", NULL, FOOT_NEVER,
	  screen_back_key },
};

const struct screen_type screen_health = {
	.name = "health",
	.draw = health_draw,
	.keys = health_keys,
	.nkeys = sizeof(health_keys) / sizeof(health_keys[0]),
};
