/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frame.c - the text of a frame: two header lines that say what is
 * measured and how well, the column header, one line per row.  Batch
 * mode, the TUI and the `P` snapshot all print these same lines.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "chains.h"
#include "frame.h"
#include "kt.h"
#include "offcpu.h"
#include "options.h"
#include "view.h"
#include "util/xmalloc.h"

/* The widths of the -s parent and -s srcline columns (longer values
   push the rest of their row right). */
#define PARENT_COLS 16
#define SRCLINE_COLS 24
/* -s trace with keys after it: the record's text padded to this */
#define TRACE_COLS 60

/* The digits -d needs, one to three: 0.5 as 0.5, 0.01 as 0.01, never 0.0. */
static int delay_digits(double d)
{
	int p = 1;
	double scale = 10, off;

	for (;;) {
		off = (double)(long long)(d * scale + 0.5) / scale - d;
		if (p == 3 || (off < 1e-9 && off > -1e-9))
			return p;
		p++;
		scale *= 10;
	}
}

/* A string from a target (symbol, path, comm), made safe to show. */
static const char *visible(const char *s, char *tmp, size_t size)
{
	esc_visible(tmp, size, s ? s : "");
	return tmp;
}

static void header_rate(const struct perf_event_attr *a, char *buf,
			size_t size, size_t *len)
{
	str_append(buf, size, len, a->freq ? " %" PRIu64 " Hz" : " every %"
		   PRIu64, (uint64_t)a->sample_period);
}

/* The events and their rate, once when they share it (tracepoints are
   sampled at each occurrence beside the others' frequency). */
static void header_events(const struct kt *kt, char *buf, size_t size,
			  size_t *len)
{
	const struct perf_event_attr *a = kt->attrs;
	bool same = true;
	unsigned i;

	for (i = 1; i < kt->nevents; i++)
		same &= a[i].freq == a[0].freq &&
			a[i].sample_period == a[0].sample_period;
	for (i = 0; i < kt->nevents; i++) {
		str_append(buf, size, len, "%s%s", i ? "," : "", kt->names[i]);
		if (!same)
			header_rate(&a[i], buf, size, len);
	}
	if (same && kt->nevents)
		header_rate(&a[0], buf, size, len);
}

static void header_target(const struct kt *kt, char *buf, size_t size,
			  size_t *len)
{
	const struct kt_options *o = &kt->opt;
	size_t i;

	switch (kt->scope) {
	case FEED_SYSTEM:
		if (o->cgroup) {
			char cg[256];

			esc_visible(cg, sizeof(cg), o->cgroup);
			str_append(buf, size, len, "cgroup %s", cg);
			break;
		}
		str_append(buf, size, len, "all tasks");
		break;
	case FEED_USER:
		if (o->scope == FEED_USER)
			str_append(buf, size, len, "user %s", o->user);
		else
			str_append(buf, size, len, "your tasks (uid %d)",
			    (int)getuid());
		break;
	default:
		str_append(buf, size, len, "%s ",
		    o->scope == FEED_THREADS ? "tid" : "pid");
		for (i = 0; i < o->nids; i++)
			str_append(buf, size, len, "%s%d", i ? "," : "",
			    (int)o->ids[i]);
	}
	str_append(buf, size, len, " on CPUs %s", kt->cpu_list);
}

void frame_target(const struct kt *kt, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	header_target(kt, buf, size, &len);
}

void frame_header(const struct kt *kt, enum kt_measure m, unsigned line,
		  char *buf, size_t size)
{
	const struct feed_info *in = &kt->info;
	char tmp[KT_LINE];
	size_t len = 0;

	buf[0] = '\0';
	if (line == 0) {
		str_append(buf, size, &len, "kerneltop: %.0f samples/s  ", kt->rate);
		offcpu_header(kt, m, buf, size, &len);
		/* first: a screen cuts the line at its width */
		if (kt->overload[0])
			str_append(buf, size, &len, "[%s]  ", kt->overload);
		header_events(kt, buf, size, &len);
		str_append(buf, size, &len, "  kernel %.1f%%  user %.1f%%  lost %"
		    PRIu64 "  throttled %" PRIu64, kt->kernel_pct,
		    kt->user_pct, in->lost, in->throttled);
		return;
	}
	str_append(buf, size, &len, "target: ");
	header_target(kt, buf, size, &len);
	str_append(buf, size, &len, "   unresolved %.1f%%   refresh %.*fs (%s)",
	    in->samples ? 100.0 * (double)in->unresolved /
			  (double)in->samples : 0.0,
	    delay_digits(kt->opt.delay), kt->opt.delay,
	    kt->opt.zero ? "zero" : "decay");
	/* the filters, as perf names them: one name is a column less */
	if (kt->opt.comms && *kt->opt.comms)
		str_append(buf, size, &len, "   comm: %s",
			   visible(kt->opt.comms, tmp, sizeof(tmp)));
	if (kt->opt.dsos && *kt->opt.dsos)
		str_append(buf, size, &len, "   dso: %s",
			   visible(kt->opt.dsos, tmp, sizeof(tmp)));
	if (kt->opt.symbols && *kt->opt.symbols)
		str_append(buf, size, &len, "   symbol: %s",
			   visible(kt->opt.symbols, tmp, sizeof(tmp)));
	/* how a target's tasks are sampled: its threads may be too many
	   for a counter each (feed.h's enum feed_scheme) */
	if (kt->scope != FEED_SYSTEM && kt->feed) {
		char scheme[KT_LINE];

		feed_scheme_str(kt->feed, scheme, sizeof(scheme));
		str_append(buf, size, &len, "   sampling: %s", scheme);
	}
}

/*
 * The width of the symbol column: 40 in batch; on a screen, about half of
 * what the figures leave (the DSO gets the rest), 20 to 60.  used is in
 * columns.
 */
static int sym_width(int width, size_t used)
{
	int w = width > 0 ? (width - (int)used - 8) * 55 / 100 : 40;

	return w < 20 ? 20 : w > 60 ? 60 : w;
}

/*
 * Append s (visible text) and spaces up to cols columns -- by display
 * width, not bytes, so that a column after a name of wide or multibyte
 * characters stays aligned.  s is not cut.
 */
static void put_padded(char *buf, size_t size, size_t *len, const char *s,
		       size_t cols)
{
	size_t w = esc_width(s);

	str_append(buf, size, len, "%s%*s", s, w < cols ? (int)(cols - w) : 0, "");
}

/* The weight view's column of event i: 12 wide, or its name's width
   (sched:sched_switch), so that the name is never cut. */
static int event_cols(const struct kt *kt, unsigned i)
{
	size_t w = strlen(kt->names[i]);

	return w > 12 ? (int)w : 12;
}

/* Whether the Shared Object column is shown: with sym or dso keys,
   unless --dsos names one. */
static bool so_shown(const struct kt_table *tb)
{
	return (tb->keys & (TOP_KEY_SYM | TOP_KEY_DSO)) &&
	       !(tb->elide & TOP_KEY_DSO);
}

/* The width of the -s trace columns: their own (none) when last, else
   at least TRACE_COLS, so that the keys after them line up. */
static size_t trace_cols(const struct kt *kt, unsigned keys)
{
	size_t w = esc_width(kt->trace_head);

	if (!(keys & (TOP_KEY_PARENT | TOP_KEY_SRCLINE | TOP_KEY_SYM |
		      TOP_KEY_DSO)))
		return 0;
	return w > TRACE_COLS ? w : TRACE_COLS;
}

/* The columns a string from a target takes once made visible. */
static size_t visible_width(const char *s)
{
	char tmp[KT_LINE];

	return esc_width(visible(s, tmp, sizeof(tmp)));
}

/*
 * s made visible in tmp, cut to its longest start of whole characters
 * whose visible form fits cols columns (never inside an escape).
 */
static void visible_cut(const char *s, size_t cols, char *tmp, size_t size)
{
	char part[KT_LINE];
	size_t n = 0, next;

	s = s ? s : "";
	tmp[0] = '\0';
	while (s[n] && n + 8 < sizeof(part)) {
		next = n + 1;
		while (((unsigned char)s[next] & 0xc0) == 0x80)
			next++;
		memcpy(part, s, next);
		part[next] = '\0';
		if (visible_width(part) > cols)
			break;
		n = next;
	}
	memcpy(part, s, n);
	part[n] = '\0';
	visible(part, tmp, size);
}

/*
 * Append a path cut to fit room columns (0: no limit), keeping its end --
 * the file name is what tells DSOs apart: "...ld/tests/kt-helper".
 */
static void put_dso(char *buf, size_t size, size_t *len, const char *path,
		    int room)
{
	char tmp[KT_LINE];
	const char *p = path;

	if (room <= 0 || visible_width(path) <= (size_t)room) {
		str_append(buf, size, len, "%s", visible(path, tmp, sizeof(tmp)));
	} else if (room > 3) {
		/* cut the path's own characters, before escaping, so that the
		   cut never starts inside an escape or a UTF-8 sequence */
		while (*p && visible_width(p) > (size_t)room - 3) {
			p++;
			while (((unsigned char)*p & 0xc0) == 0x80)
				p++;
		}
		str_append(buf, size, len, "...%s", visible(p, tmp, sizeof(tmp)));
	}
}

/* --fields threads: the distinct threads of r's function, "-" in a
   table of other keys. */
static void threads_cell(const struct kt_table *tb, const struct top_row *r,
			 char *buf, size_t size, size_t *len)
{
	char n[16] = "-";

	if (tb->keys & TOP_KEY_SYM)
		snprintf(n, sizeof(n), r->threads > FNTHREADS_MAX ? "%u+" : "%u",
			 r->threads > FNTHREADS_MAX ? FNTHREADS_MAX : r->threads);
	str_append(buf, size, len, "%s%7s", *len ? " " : "", n);
}

/* -e '{a,b}:S': the --metric rates of row r (NULL: their heads), all of
   them or the one the view shows: the row's own, as it was read. */
static void metric_cells(const struct kt *kt, const struct kt_table *tb,
			 const struct top_row *r, char *buf, size_t size,
			 size_t *len)
{
	const struct rates_est none = { .valid = false };
	char cell[64];

	/* rates are per function: a table of other keys shows none */
	if (!kt->group_read || !(tb->keys & TOP_KEY_SYM))
		return;
	for (unsigned i = 0; i < kt->metrics.n; i++)
		if (tb->metric < 0 || (unsigned)tb->metric == i)
			str_append(buf, size, len, "%s%s", *len ? " " : "",
				   metrics_cell(&kt->metrics, i, !r ? NULL :
						i < r->nrates ? &r->rates[i] :
						&none, cell, sizeof(cell)));
}

void frame_columns(const struct kt *kt, const struct kt_table *tb,
		   char *buf, size_t size, int width)
{
	unsigned keys = tb->keys, i;
	size_t len = 0;

	buf[0] = '\0';
	if (tb->event < 0) {		/* the weight view */
		str_append(buf, size, &len, "%10s", "Weight");
		for (i = 0; i < kt->nevents; i++)
			str_append(buf, size, &len, " %*s",
			    event_cols(kt, i), kt->names[i]);
	} else {
		if (tb->children)
			str_append(buf, size, &len, "%8s %8s", "Children",
			    "Self");
		else if (tb->group)	/* the first, then the others' names */
			for (i = 0; i < kt->nevents; i++)
				str_append(buf, size, &len, "%s%8.8s",
				    i ? " " : "", i ? kt->names[i] :
				    "Overhead");
		else if (tb->cols & KT_COL_OVERHEAD)
			str_append(buf, size, &len, "%8s", "Overhead");
		if (tb->cols & KT_COL_SAMPLES)
			str_append(buf, size, &len, "%s%10s", len ? " " : "",
			    "Samples");
		/* the chains keep no periods */
		if ((tb->cols & KT_COL_PERIOD) && !tb->children)
			str_append(buf, size, &len, "%s%14s", len ? " " : "",
			    "Period");
		if (tb->cols & KT_COL_THREADS)
			str_append(buf, size, &len, "%s%7s", len ? " " : "",
			    "Threads");
		metric_cells(kt, tb, NULL, buf, size, &len);
	}
	if (tb->baseline)
		str_append(buf, size, &len, " %7s", "Delta");
	if ((keys & TOP_KEY_COMM) && !(tb->elide & TOP_KEY_COMM))
		str_append(buf, size, &len, "  %-15.15s", "Command");
	if (keys & TOP_KEY_PID)
		str_append(buf, size, &len, "  %7s", "Pid");
	if (keys & TOP_KEY_TID)
		str_append(buf, size, &len, "  %7s", "Tid");
	/* perf's headers and widths for these */
	if (keys & TOP_KEY_CPU)
		str_append(buf, size, &len, "  %3s", "CPU");
	if (keys & TOP_KEY_SOCKET)
		str_append(buf, size, &len, "  %6s", "Socket");
	/* the record's columns are laid out by trace-keys.c; last of the
	   keys, they are not padded unless more follow */
	if (keys & TOP_KEY_TRACE) {
		str_append(buf, size, &len, "  ");
		put_padded(buf, size, &len, kt->trace_head,
			   trace_cols(kt, keys));
	}
	if (keys & TOP_KEY_PARENT)
		str_append(buf, size, &len, "  %-*s", PARENT_COLS,
		    "Parent symbol");
	if (keys & TOP_KEY_SRCLINE)
		str_append(buf, size, &len, "  %-*s", SRCLINE_COLS,
		    "Source:Line");
	if ((keys & TOP_KEY_SYM) && !(tb->elide & TOP_KEY_SYM))
		str_append(buf, size, &len, "  %-*s",
		    so_shown(tb) ? sym_width(width, esc_width(buf)) + 4 : 0,
		    "Symbol");
	if (so_shown(tb))
		str_append(buf, size, &len, "  %s", "Shared Object");
}

void frame_row(const struct kt *kt, const struct kt_table *tb,
	       const struct top_row *r, char *buf, size_t size, int width)
{
	unsigned keys = tb->keys, i;
	char tmp[KT_LINE];
	size_t len = 0;

	buf[0] = '\0';
	if (tb->event < 0) {
		str_append(buf, size, &len, "%10.1f", r->weight);
		for (i = 0; i < kt->nevents; i++)
			str_append(buf, size, &len, " %*" PRIu64,
			    event_cols(kt, i), r->count[i]);
	} else {
		unsigned ev = r->has_children ? 0 : (unsigned)tb->event;

		if (r->has_children)
			str_append(buf, size, &len, "%7.2f%% %7.2f%%",
			    r->children_share, r->share);
		else if (tb->group)
			for (i = 0; i < kt->nevents; i++)
				str_append(buf, size, &len, "%s%7.2f%%",
				    i ? " " : "", tb->total[i] ? 100.0 *
				    (double)r->count[i] /
				    (double)tb->total[i] : 0.0);
		else if (tb->cols & KT_COL_OVERHEAD)
			str_append(buf, size, &len, "%7.2f%%", r->share);
		if (tb->cols & KT_COL_SAMPLES)
			str_append(buf, size, &len, "%s%10" PRIu64,
			    len ? " " : "", r->count[ev]);
		if ((tb->cols & KT_COL_PERIOD) && !r->has_children)
			str_append(buf, size, &len, "%s%14" PRIu64,
			    len ? " " : "", r->period[ev]);
		if (tb->cols & KT_COL_THREADS)
			threads_cell(tb, r, buf, size, &len);
		metric_cells(kt, tb, r, buf, size, &len);
	}
	if (r->has_delta)
		str_append(buf, size, &len, " %+7.2f", r->delta);
	else if (tb->baseline)
		str_append(buf, size, &len, " %7s", "");
	if ((keys & TOP_KEY_COMM) && !(tb->elide & TOP_KEY_COMM)) {
		/* 15 columns, cut on a whole escape or character */
		visible_cut(r->comm, 15, tmp, sizeof(tmp));
		str_append(buf, size, &len, "  ");
		put_padded(buf, size, &len, tmp, 15);
	}
	if (keys & TOP_KEY_PID)
		str_append(buf, size, &len, "  %7d", (int)r->pid);
	if (keys & TOP_KEY_TID)
		str_append(buf, size, &len, "  %7d", (int)r->tid);
	if (keys & TOP_KEY_CPU)
		str_append(buf, size, &len, "  %03d", r->cpu);
	if (keys & TOP_KEY_SOCKET)
		str_append(buf, size, &len, "  %6.3d", r->socket);
	if (keys & TOP_KEY_TRACE) {
		str_append(buf, size, &len, "  ");
		put_padded(buf, size, &len, visible(r->trace, tmp,
			   sizeof(tmp)), trace_cols(kt, keys));
	}
	if (keys & TOP_KEY_PARENT) {
		str_append(buf, size, &len, "  ");
		put_padded(buf, size, &len, visible(r->parent, tmp,
			   sizeof(tmp)), PARENT_COLS);
	}
	if (keys & TOP_KEY_SRCLINE) {
		str_append(buf, size, &len, "  ");
		put_padded(buf, size, &len, visible(r->srcline, tmp,
			   sizeof(tmp)), SRCLINE_COLS);
	}
	if ((keys & TOP_KEY_SYM) && !(tb->elide & TOP_KEY_SYM)) {
		int w = sym_width(width, esc_width(buf));

		str_append(buf, size, &len, "  [%c] ", r->mode ? r->mode : '.');
		put_padded(buf, size, &len, visible(r->sym, tmp, sizeof(tmp)),
			   so_shown(tb) ? (size_t)w : 0);
	}
	if (so_shown(tb)) {
		str_append(buf, size, &len, "  ");
		put_dso(buf, size, &len, r->dso ? r->dso : "",
			width > 0 ? width - (int)esc_width(buf) : 0);
	}
}

/* --- --hierarchy ----------------------------------------------------- */

/* The header of each key, perf's. */
static const struct key_name {
	unsigned key;
	const char *name;
} key_names[] = {
	{ TOP_KEY_SYM, "Symbol" }, { TOP_KEY_DSO, "Shared Object" },
	{ TOP_KEY_COMM, "Command" }, { TOP_KEY_PID, "Pid" },
	{ TOP_KEY_TID, "Tid" }, { TOP_KEY_CPU, "CPU" },
	{ TOP_KEY_SOCKET, "Socket" }, { TOP_KEY_SRCLINE, "Source:Line" },
	{ TOP_KEY_PARENT, "Parent symbol" }, { TOP_KEY_TRACE, "Trace output" },
};

static const char *key_name(unsigned key)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(*key_names); i++)
		if (key_names[i].key == key)
			return key_names[i].name;
	return "?";
}

/* Whether rows a and b have the same value of key (strings are the
   model's, interned: equal strings are equal pointers). */
static bool key_same(unsigned key, const struct top_row *a,
		     const struct top_row *b)
{
	switch (key) {
	case TOP_KEY_SYM:
		return a->sym == b->sym && a->dso == b->dso &&
		       a->mode == b->mode;
	case TOP_KEY_DSO: return a->dso == b->dso;
	case TOP_KEY_COMM: return a->comm == b->comm;
	case TOP_KEY_PID: return a->pid == b->pid;
	case TOP_KEY_TID: return a->tid == b->tid;
	case TOP_KEY_CPU: return a->cpu == b->cpu;
	case TOP_KEY_SOCKET: return a->socket == b->socket;
	case TOP_KEY_SRCLINE: return a->srcline == b->srcline;
	case TOP_KEY_TRACE: return a->trace == b->trace;
	default: return a->parent == b->parent;
	}
}

/* r's value of key as a level of --hierarchy shows it. */
static void key_text(unsigned key, const struct top_row *r, char *buf,
		     size_t size)
{
	char tmp[KT_LINE];

	switch (key) {
	case TOP_KEY_SYM:
		snprintf(buf, size, "[%c] %s", r->mode ? r->mode : '.',
			 visible(r->sym, tmp, sizeof(tmp)));
		break;
	case TOP_KEY_DSO:
		snprintf(buf, size, "%s", visible(r->dso, tmp, sizeof(tmp)));
		break;
	case TOP_KEY_COMM:
		snprintf(buf, size, "%s", visible(r->comm, tmp, sizeof(tmp)));
		break;
	case TOP_KEY_PID: snprintf(buf, size, "%d", (int)r->pid); break;
	case TOP_KEY_TID: snprintf(buf, size, "%d", (int)r->tid); break;
	case TOP_KEY_CPU: snprintf(buf, size, "%03d", r->cpu); break;
	case TOP_KEY_SOCKET: snprintf(buf, size, "%03d", r->socket); break;
	case TOP_KEY_SRCLINE:
		snprintf(buf, size, "%s", visible(r->srcline, tmp,
						  sizeof(tmp)));
		break;
	case TOP_KEY_TRACE:
		snprintf(buf, size, "%s", visible(r->trace, tmp,
						  sizeof(tmp)));
		break;
	default:
		snprintf(buf, size, "%s", visible(r->parent, tmp,
						  sizeof(tmp)));
	}
}

/* One group of a level: its rows' sums, and its rows. */
struct hgroup {
	const struct top_row *first;
	double share;
	uint64_t count, period;
	const struct top_row **rows;
	size_t n;
};

static int hgroup_cmp(const void *pa, const void *pb)
{
	const struct hgroup *a = pa, *b = pb;

	/* rows come in share order: ties keep the first row's place */
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return (a->first > b->first) - (a->first < b->first);
}

/* The lines of --hierarchy being made. */
struct hier {
	const struct kt *kt;
	const struct kt_table *tb;
	bool (*open)(const char *path, void *arg);
	void *arg;
	struct kt_hline *lines;
	size_t n, alloc;
};

static void hier_add(struct hier *h, const char *text, const char *path,
		     unsigned lvl, const struct top_row *row)
{
	struct kt_hline *l;

	if (h->n == h->alloc) {
		h->alloc = h->alloc ? 2 * h->alloc : 64;
		h->lines = xrealloc(h->lines, h->alloc * sizeof(*h->lines));
	}
	l = &h->lines[h->n++];
	l->text = xstrdup(text);
	l->path = xstrdup(path);
	l->level = lvl;
	l->row = row;
	l->open = false;
}

/*
 * Level lvl of --hierarchy over rows[0..n) (grouped by every key, in
 * order), under the group at path: a line per value of the lvl-th key,
 * largest first, its share the sum of its rows', each followed by its
 * next level when h->open says so (always without h->open), indented
 * by 3 as perf's.  On a screen (h->open) a group is marked + (closed)
 * or - (open).  The last level's lines are the rows, one each.
 */
static void hier_level(struct hier *h, const struct top_row **rows,
		       size_t n, unsigned lvl, const char *path)
{
	const struct kt *kt = h->kt;
	const struct kt_table *tb = h->tb;
	unsigned key = kt->opt.key_order[lvl], ev = (unsigned)tb->event;
	bool last = lvl + 1 >= kt->opt.nkey_order;
	struct hgroup *g = xcalloc(n ? n : 1, sizeof(*g));
	const struct top_row **all = xcalloc(n ? n : 1, sizeof(*all));
	char line[KT_LINE], text[KT_LINE], sub[KT_LINE];
	size_t ng = 0, i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < ng && !key_same(key, g[j].first, rows[i]); j++)
			;
		if (j == ng)
			g[ng++].first = rows[i];
		g[j].share += rows[i]->share;
		g[j].count += rows[i]->count[ev];
		g[j].period += rows[i]->period[ev];
		g[j].n++;
	}
	for (j = 0; j < ng; j++) {	/* each group's rows, in order */
		g[j].rows = all + k;
		k += g[j].n;
		g[j].n = 0;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < ng; j++)
			if (key_same(key, g[j].first, rows[i])) {
				g[j].rows[g[j].n++] = rows[i];
				break;
			}
	qsort(g, ng, sizeof(*g), hgroup_cmp);
	for (j = 0; j < ng; j++) {
		size_t len = 0;
		bool open;

		line[0] = '\0';
		if (tb->cols & KT_COL_OVERHEAD)
			str_append(line, sizeof(line), &len, "%7.2f%%",
			    g[j].share);
		if (tb->cols & KT_COL_SAMPLES)
			str_append(line, sizeof(line), &len, "%s%10" PRIu64,
			    len ? " " : "", g[j].count);
		if (tb->cols & KT_COL_PERIOD)
			str_append(line, sizeof(line), &len, "%s%14" PRIu64,
			    len ? " " : "", g[j].period);
		key_text(key, g[j].first, text, sizeof(text));
		/* the path: the key values from the top, a unit separator
		   between (no key value holds one: visible() escapes it) */
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "\x1f" : "",
			 text);
		open = !last && (!h->open || h->open(sub, h->arg));
		str_append(line, sizeof(line), &len, "%*s  %s%s",
			   (int)(3 * lvl), "", !h->open ? "" : last ? "  " :
			   open ? "- " : "+ ", text);
		hier_add(h, line, sub, lvl, last ? g[j].first : NULL);
		h->lines[h->n - 1].open = open;
		if (open)
			hier_level(h, g[j].rows, g[j].n, lvl + 1, sub);
	}
	free(all);
	free(g);
}

size_t frame_hier_lines(const struct kt *kt, const struct kt_table *tb,
			size_t max_rows,
			bool (*open)(const char *path, void *arg), void *arg,
			struct kt_hline **lines)
{
	struct hier h = { .kt = kt, .tb = tb, .open = open, .arg = arg };
	size_t n = max_rows && tb->n > max_rows ? max_rows : tb->n, i;
	const struct top_row **rows = xcalloc(n ? n : 1, sizeof(*rows));

	for (i = 0; i < n; i++)
		rows[i] = &tb->rows[i];
	if (kt->opt.nkey_order)
		hier_level(&h, rows, n, 0, "");
	free(rows);
	*lines = h.lines;
	return h.n;
}

void frame_hier_free(struct kt_hline *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(lines[i].text);
		free(lines[i].path);
	}
	free(lines);
}

/* Whether tb is shown as --hierarchy nests it. */
bool frame_hier_shown(const struct kt *kt, const struct kt_table *tb)
{
	return kt->opt.hierarchy && kt->opt.nkey_order && tb->event >= 0 &&
	       !tb->children && !tb->group;
}

/* The column header of --hierarchy: figures, then "Command / Symbol". */
void frame_hier_columns(const struct kt *kt, const struct kt_table *tb,
			char *buf, size_t size)
{
	size_t len = 0;
	unsigned i;

	buf[0] = '\0';
	if (tb->cols & KT_COL_OVERHEAD)
		str_append(buf, size, &len, "%8s", "Overhead");
	if (tb->cols & KT_COL_SAMPLES)
		str_append(buf, size, &len, "%s%10s", len ? " " : "",
		    "Samples");
	if (tb->cols & KT_COL_PERIOD)
		str_append(buf, size, &len, "%s%14s", len ? " " : "",
		    "Period");
	for (i = 0; i < kt->opt.nkey_order; i++)
		str_append(buf, size, &len, "%s%s", i ? " / " : "  ",
		    key_name(kt->opt.key_order[i]));
}

int frame_print(const struct kt *kt, const struct kt_table *tb, FILE *out,
		size_t max_rows)
{
	char line[KT_LINE];
	size_t i;

	frame_header(kt, tb->measure, 0, line, sizeof(line));
	fprintf(out, "%s\n", line);
	frame_header(kt, tb->measure, 1, line, sizeof(line));
	fprintf(out, "%s\n", line);
	fputc('\n', out);
	if (frame_hier_shown(kt, tb)) {
		struct kt_hline *hl;
		size_t n;

		frame_hier_columns(kt, tb, line, sizeof(line));
		fprintf(out, "%s\n", line);
		n = frame_hier_lines(kt, tb, max_rows, NULL, NULL, &hl);
		for (i = 0; i < n; i++)
			fprintf(out, "%s\n", hl[i].text);
		frame_hier_free(hl, n);
		fputc('\n', out);
		return fflush(out) == 0 && !ferror(out) ? 0 : -1;
	}
	frame_columns(kt, tb, line, sizeof(line), 0);
	fprintf(out, "%s\n", line);
	for (i = 0; i < tb->n && (!max_rows || i < max_rows); i++) {
		frame_row(kt, tb, &tb->rows[i], line, sizeof(line), 0);
		fprintf(out, "%s\n", line);
		if (kt->opt.batch)
			chains_print(kt, tb, &tb->rows[i], out);
	}
	fputc('\n', out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
