/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * views.c - the screens beside the main one: help, the thread list,
 * annotation and symbolization health.  q or Esc goes back from each.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "base/escape.h"
#include "symbols/pkgdb.h"
#include "tui.h"

static bool is_back(int ch)
{
	return ch == 'q' || ch == 27 || ch == KEY_LEFT;
}

/* s (visible text) padded with spaces to cols columns, by display width
   (a name in UTF-8 takes fewer columns than bytes), into buf. */
static const char *padded(char *buf, size_t size, const char *s,
			  size_t cols)
{
	size_t w = esc_width(s);

	snprintf(buf, size, "%s%*s", s, w < cols ? (int)(cols - w) : 0, "");
	return buf;
}

/* --- help: every key of the main screen, from its table ---------------- */

void view_help_draw(struct tui *t)
{
	char line[KT_LINE];
	size_t i;
	int y = 2;

	(void)t;
	tui_line(0, "kerneltop help", A_REVERSE);
	for (i = 0; i < main_nkeys && y < LINES - 4; i++, y++) {
		snprintf(line, sizeof(line), "  %-20s %s", main_keys[i].label,
			 main_keys[i].help);
		tui_line(y, line, 0);
	}
	y++;
	tui_line(y++, "  Overhead: share of the samples of the event shown; "
		 "old samples decay x7/8 per refresh.", 0);
	tui_line(y++, "  Weight (several events): count1*...*count(n-1) / "
		 "(count(n)+1).", 0);
	tui_line(y++, "  Self (-g): the samples taken in the function itself.",
		 0);
	tui_line(y++, "  Children (-g): the samples with the function anywhere "
		 "in the call chain; a caller's", 0);
	tui_line(y++, "    count holds its callees', so the column sums past "
		 "100%.", 0);
	tui_line(LINES - 1, "press any key to go back", A_REVERSE);
}

void view_help_key(struct tui *t, int ch)
{
	(void)ch;
	t->screen = SCREEN_MAIN;
}

/* --- threads: pick one to zoom into ---------------------------------------- */

static const struct top_row *thread_rows(struct tui *t, size_t *n)
{
	struct top_view v = t->kt->view;
	const struct top_row *rows;

	v.keys = TOP_KEY_TID | TOP_KEY_COMM;
	v.order = TOP_BY_SHARE;
	v.tid = 0;
	v.max_rows = 0;
	v.percent_limit = 0;
	rows = top_rows(t->kt->top, &v, n);
	if (!rows)
		*n = 0;
	return rows;
}

void view_threads_draw(struct tui *t)
{
	const struct top_row *rows;
	char line[KT_LINE], comm[64];
	size_t n, i, page = LINES > 4 ? (size_t)LINES - 4 : 1;
	int ev = t->kt->view.event < 0 ? 0 : t->kt->view.event;

	tui_line(0, "Threads", A_REVERSE);
	snprintf(line, sizeof(line), "%8s  %-16s %10s %8s", "TID", "COMMAND",
		 "SAMPLES", "SHARE");
	tui_line(1, line, A_BOLD);
	rows = thread_rows(t, &n);
	tui_scroll(&t->tsel, &t->tfirst, n, page);
	for (i = t->tfirst; i < n && i < t->tfirst + page; i++) {
		char pad[96];

		esc_visible(comm, sizeof(comm), rows[i].comm);
		snprintf(line, sizeof(line), "%8d  %s %10" PRIu64
			 " %7.2f%%", (int)rows[i].tid,
			 padded(pad, sizeof(pad), comm, 16),
			 rows[i].count[ev], rows[i].share);
		tui_line(2 + (int)(i - t->tfirst), line,
			 i == t->tsel ? A_REVERSE : 0);
	}
	if (!n)
		tui_line(2, "  (no samples yet)", 0);
	tui_line(LINES - 1, "Enter: zoom into the thread  q/Esc: back",
		 A_REVERSE);
}

void view_threads_key(struct tui *t, int ch)
{
	const struct top_row *rows;
	size_t n;

	rows = thread_rows(t, &n);
	if (tui_navigate(ch, &t->tsel, n,
			 LINES > 4 ? (size_t)LINES - 4 : 1))
		return;
	if (is_back(ch) || ch == 't') {
		t->screen = SCREEN_MAIN;
	} else if ((ch == '\n' || ch == '\r' || ch == KEY_ENTER) && n) {
		t->kt->view.tid = rows[t->tsel].tid;
		snprintf(t->zoom_comm, sizeof(t->zoom_comm), "%s",
			 rows[t->tsel].comm ? rows[t->tsel].comm : "");
		t->sel = t->first = 0;
		t->screen = SCREEN_MAIN;
	}
}

/* --- annotate: samples per source line, the hottest marked --------------- */

void view_annotate_draw(struct tui *t)
{
	const struct annotation *a = &t->ann;
	char line[KT_LINE], text[KT_LINE], file[KT_LINE];
	size_t i, page = LINES > 3 ? (size_t)LINES - 3 : 1;

	tui_line(0, t->ann_title, A_REVERSE);
	snprintf(line, sizeof(line), " %7s %7s  %-24s %s", "share", "samples",
		 "file:line", "source");
	tui_line(1, line, A_BOLD);
	if (!a->n)
		tui_line(2, "  no samples with a source line yet (press H "
			 "for why lines are missing)", 0);
	if (t->afirst >= a->n)
		t->afirst = a->n ? a->n - 1 : 0;
	for (i = t->afirst; i < a->n && i < t->afirst + page; i++) {
		const struct annotate_line *l = &a->lines[i];
		const char *base = l->file ? strrchr(l->file, '/') : NULL;
		char where[KT_LINE], pad[KT_LINE];

		esc_visible(file, sizeof(file),
			    base ? base + 1 : l->file ? l->file : "??");
		esc_visible(text, sizeof(text), l->text ? l->text : "");
		snprintf(where, sizeof(where), "%s:%d", file, l->line);
		snprintf(line, sizeof(line), "%c%6.2f%% %7" PRIu64 "  %s %s",
			 i == a->hottest ? '>' : ' ',
			 a->total ? 100.0 * (double)l->count /
				    (double)a->total : 0.0,
			 l->count, padded(pad, sizeof(pad), where, 24), text);
		tui_line(2 + (int)(i - t->afirst), line,
			 i == a->hottest ? A_REVERSE | A_BOLD : 0);
	}
	tui_line(LINES - 1, "Up/Down scroll  q/Esc: back", A_REVERSE);
}

void view_annotate_key(struct tui *t, int ch)
{
	size_t page = LINES > 3 ? (size_t)LINES - 3 : 1;

	if (is_back(ch)) {
		t->screen = SCREEN_MAIN;
		return;
	}
	tui_navigate(ch, &t->afirst, t->ann.n, page);
}

/* --- health: what could not be resolved, by cause, with the fix ---------- */

#define HEALTH_ROWS 64

/* The causes a debug package (-dbgsym) cures. */
static bool dbgsym_helps(enum sym_cause c)
{
	return c == SYM_STRIPPED || c == SYM_NO_DEBUGINFO ||
	       c == SYM_NO_SYMBOL;
}

/*
 * text on lines from y on, below ymax, cut at spaces to the screen's
 * width: lead (ASCII) before the first line, as many spaces before the
 * others.  Returns the next free line.
 */
static int put_wrapped(int y, int ymax, const char *lead, const char *text)
{
	int indent = (int)strlen(lead), room = COLS - indent;
	char line[KT_LINE];
	bool first = true;

	if (room < 10)
		room = 10;
	while (*text && y < ymax) {
		size_t cut = esc_fit(text, (size_t)room, NULL), sp = cut;

		if (text[cut]) {	/* more to come: cut at the last space */
			while (sp && text[sp] != ' ')
				sp--;
			if (sp)
				cut = sp;
		}
		snprintf(line, sizeof(line), "%-*s%.*s", indent,
			 first ? lead : "", (int)cut, text);
		first = false;
		tui_line(y++, line, 0);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return y;
}

/*
 * The rows grouped by cause (the causes by their samples, then the files
 * by theirs), each group's fix once, wrapped; a file a Debian package
 * installed names the package whose -dbgsym would cure it, from dpkg's
 * lists (lib/symbols/pkgdb), cached for the run.
 */
void view_health_draw(struct tui *t)
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

	feed_info(t->kt->feed, &in);
	tui_line(0, "Symbolization health", A_REVERSE);
	snprintf(line, sizeof(line), "%" PRIu64 " of %" PRIu64 " samples "
		 "(%.2f%%) have no function name; lost %" PRIu64
		 ", throttled %" PRIu64, in.unresolved, in.samples,
		 in.samples ? 100.0 * (double)in.unresolved /
			      (double)in.samples : 0.0, in.lost,
		 in.throttled);
	tui_line(1, line, 0);
	snprintf(line, sizeof(line), "%10s  %-16s %s", "SAMPLES", "CAUSE",
		 "DSO");
	tui_line(2, line, A_BOLD);
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
			tui_line(y++, line, 0);
		}
		y = put_wrapped(y, LINES - 2, "            fix: ",
				symbols_cause_advice(c));
	}
	if (!n)
		tui_line(y, "  every sample so far resolved to a function", 0);
	tui_line(LINES - 1, "q/Esc: back", A_REVERSE);
}

void view_health_key(struct tui *t, int ch)
{
	if (is_back(ch) || ch == 'H')
		t->screen = SCREEN_MAIN;
}
