/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-main.c - the main screen: header, status line, the table, and
 * its keys, one row of main_keys[] each (the help screen and the footer
 * are made from them).  The keys act on the table as drawn.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic-file.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "exports.h"
#include "offcpu.h"
#include "screen.h"
#include "tree.h"
#include "util/output.h"
#include "util/xmalloc.h"

#define FIRST_ROW 4		/* header, header, status, column header */

struct main_screen {
	struct kt_table tb;		/* the table drawn, which keys act on */
	/* --hierarchy: tb's rows nested, the groups shown open */
	struct kt_hline *hl;
	size_t nhl;
	struct tree open;		/* the groups open, by path */
	char head[2][KT_LINE];		/* and its header lines */
	bool taken;			/* tb holds a table */
	unsigned gen;			/* the view's gen it was drawn at */
	struct list list;
	struct prompt prompt;		/* `/': reading a filter */
};

/* The highlighted row of the table drawn, or NULL (with a message). */
static const struct top_row *selected(struct tui *t, struct main_screen *m)
{
	if (m->hl) {
		if (m->nhl && m->hl[m->list.sel].row)
			return m->hl[m->list.sel].row;
		snprintf(t->msg, sizeof(t->msg), "%s", m->nhl ?
			 "a group: Enter opens it, to act on a row under it" :
			 "no row selected");
		return NULL;
	}
	if (!m->tb.n) {
		snprintf(t->msg, sizeof(t->msg), "no row selected");
		return NULL;
	}
	return &m->tb.rows[m->list.sel];
}

/* --- --hierarchy -------------------------------------------------------- */

/* A group's node in m->open: a hash of its path (frame.h's, the key
   values from the top). */
static uint64_t group_path(const char *path)
{
	return tree_path(0, path, strlen(path));
}

/* Whether the group at path is shown open (frame_hier_lines()'s). */
static bool group_open(const char *path, void *arg)
{
	const struct main_screen *m = arg;

	return tree_is_open(&m->open, group_path(path));
}

/* The lines of the table drawn, as its groups are open now; none
   without --hierarchy. */
static void hier_build(struct tui *t, struct main_screen *m)
{
	frame_hier_free(m->hl, m->nhl);
	m->hl = NULL;
	m->nhl = 0;
	if (frame_hier_shown(t->kt, &m->tb))
		m->nhl = frame_hier_lines(t->kt, &m->tb, 0, group_open, m,
					  &m->hl);
	/* C closes groups between two draws: a key after it in the same
	   read must find its line */
	if (m->hl && m->list.sel >= m->nhl)
		m->list.sel = m->nhl - 1;
}

static void status_add(char *buf, size_t size, const char *s)
{
	str_join(buf, size, "  ", s);
}

/* What the view is now (even paused: the keys' effect is said at once),
   the state of the session, and the last action's result. */
static void status_line(struct tui *t, char *buf, size_t size)
{
	const struct kt *kt = t->kt;
	const struct kt_view *v = t->view;
	char item[KT_LINE], vis[KT_LINE];

	buf[0] = '\0';
	if (v->top.order != TOP_BY_SHARE) {
		snprintf(item, sizeof(item), "sort: %s",
			 view_orders[v->sort_cycle].name);
		status_add(buf, size, item);
	} else if (view_children(kt, v) && v->top.sort_self) {
		status_add(buf, size, "sort: self");
	}
	if (kt->nevents > 1) {
		snprintf(item, sizeof(item), "event: %s", v->top.event < 0 ?
			 "weight" : kt->names[v->top.event]);
		status_add(buf, size, item);
	}
	if (v->top.dso) {
		esc_visible(vis, sizeof(vis), v->top.dso);
		snprintf(item, sizeof(item), "dso: %s", vis);
		status_add(buf, size, item);
	}
	if (v->top.tid) {
		esc_visible(vis, sizeof(vis), v->zoom_comm);
		snprintf(item, sizeof(item), "thread: %d (%s)",
			 (int)v->top.tid, vis);
		status_add(buf, size, item);
	}
	if (v->top.hide_kernel)
		status_add(buf, size, "kernel hidden");
	if (v->top.hide_user)
		status_add(buf, size, "user hidden");
	if (v->top.filter) {
		esc_visible(vis, sizeof(vis), v->top.filter);
		snprintf(item, sizeof(item), "filter: %s", vis);
		status_add(buf, size, item);
	}
	if (kt->opt.zero)
		status_add(buf, size, "zero");
	if (v->paused)
		status_add(buf, size, "paused");
	if (top_baseline_active(profile_top(kt_profile(kt, v))))
		status_add(buf, size, "baseline");
	if (kt->ended)
		status_add(buf, size, kt->ended_msg);
	if (t->msg[0])
		status_add(buf, size, t->msg);
	if (kt->notice[0])
		status_add(buf, size, kt->notice);
}

/* A new table, unless the view is paused: then the one drawn stays. */
static void take(struct tui *t, struct main_screen *m)
{
	if (m->taken && t->view->paused)
		return;
	if (table_take(&m->tb, t->kt, t->view) != 0)
		die_nomem();
	frame_header(t->kt, m->tb.measure, 0, m->head[0], sizeof(m->head[0]));
	frame_header(t->kt, m->tb.measure, 1, m->head[1], sizeof(m->head[1]));
	m->taken = true;
}

static bool main_draw(struct tui *t, struct screen *s)
{
	struct main_screen *m = s->data;
	char line[KT_LINE];
	size_t i;

	if (m->gen != t->view->gen) {
		list_reset(&m->list);
		m->gen = t->view->gen;
	}
	take(t, m);
	hier_build(t, m);
	term_line(0, m->head[0], A_BOLD);
	term_line(1, m->head[1], 0);
	status_line(t, line, sizeof(line));
	term_line(2, line, A_BOLD);
	if (m->hl)
		frame_hier_columns(t->kt, &m->tb, line, sizeof(line));
	else
		frame_columns(t->kt, &m->tb, line, sizeof(line), COLS);
	term_line(3, line, A_REVERSE);
	list_place(&m->list, m->hl ? m->nhl : m->tb.n, FIRST_ROW);
	for (i = m->list.top; i < list_end(&m->list); i++) {
		if (m->hl)
			snprintf(line, sizeof(line), "%s", m->hl[i].text);
		else
			frame_row(t->kt, &m->tb, &m->tb.rows[i], line,
				  sizeof(line), COLS);
		term_line(list_y(&m->list, i), line, list_attr(&m->list, i));
	}
	if (!m->prompt.on) {
		curs_set(0);
		return false;
	}
	prompt_draw(&m->prompt);
	return true;
}

/* --- the keys ------------------------------------------------------------- */

static void key_quit(struct tui *t, struct screen *s)
{
	(void)s;
	t->quit = true;
}

static void key_help(struct tui *t, struct screen *s)
{
	screen_open(t, &screen_help, s);
}

static void key_sort(struct tui *t, struct screen *s)
{
	struct kt_view *v = t->view;

	(void)s;
	v->sort_cycle = (v->sort_cycle + 1) % (unsigned)view_norders;
	v->top.order = view_orders[v->sort_cycle].order;
	/* the status line says any order but the first */
	if (v->top.order == TOP_BY_SHARE)
		snprintf(t->msg, sizeof(t->msg), "sort: %s",
			 view_orders[v->sort_cycle].name);
}

static void key_dso(struct tui *t, struct screen *s)
{
	struct kt_view *v = t->view;
	const struct top_row *r;

	if (v->top.dso) {
		v->top.dso = NULL;
		return;
	}
	r = selected(t, s->data);
	if (!r)
		return;
	if (!r->dso) {
		snprintf(t->msg, sizeof(t->msg), "no DSO on this row "
			 "(group by sym or dso to zoom)");
		return;
	}
	snprintf(v->zoom_dso, sizeof(v->zoom_dso), "%s", r->dso);
	v->top.dso = v->zoom_dso;
	view_changed(v);
}

static void key_thread(struct tui *t, struct screen *s)
{
	(void)s;
	if (t->view->top.tid) {
		t->view->top.tid = 0;
		return;
	}
	screen_open(t, &screen_threads, NULL);
}

static void key_tasks(struct tui *t, struct screen *s)
{
	(void)s;
	screen_open(t, &screen_tasks, NULL);
}

/* Esc, Left: after the task table's Enter, back to it, unzoomed. */
static void key_tasks_back(struct tui *t, struct screen *s)
{
	struct kt_view *v = t->view;

	(void)s;
	if (!v->tasks_return)
		return;
	v->tasks_return = false;
	v->top.tid = 0;
	view_changed(v);
	screen_open(t, &screen_tasks, NULL);
}

static void key_hide_kernel(struct tui *t, struct screen *s)
{
	(void)s;
	t->view->top.hide_kernel = !t->view->top.hide_kernel;
}

static void key_hide_user(struct tui *t, struct screen *s)
{
	(void)s;
	t->view->top.hide_user = !t->view->top.hide_user;
}

static void key_filter(struct tui *t, struct screen *s)
{
	struct main_screen *m = s->data;

	(void)t;
	prompt_start(&m->prompt, "filter");
}

static void key_zero(struct tui *t, struct screen *s)
{
	(void)s;
	t->kt->opt.zero = !t->kt->opt.zero;
	snprintf(t->msg, sizeof(t->msg), "%s", t->kt->opt.zero ? "" : "decay");
}

/* `o': on-CPU, off-CPU, wall-clock (--off-cpu). */
static void key_measure(struct tui *t, struct screen *s)
{
	(void)s;
	if (!t->kt->oc.m) {
		snprintf(t->msg, sizeof(t->msg), "off-CPU and wall-clock "
			 "views need --off-cpu");
		return;
	}
	t->view->measure = measure_next(t->kt, t->view->measure);
	view_changed(t->view);
	snprintf(t->msg, sizeof(t->msg), "showing %s time",
		 kt_measure_names[t->view->measure]);
}

/* `m': the next --metric column, then all of them, then the first. */
static void key_metric(struct tui *t, struct screen *s)
{
	struct kt_view *v = t->view;
	unsigned n = t->kt->metrics.n;

	(void)s;
	if (!t->kt->group_read || !n) {
		snprintf(t->msg, sizeof(t->msg), "no rates: sample a group "
			 "read at each sample (-e '{cpu-clock,page-faults}:S')");
		return;
	}
	v->metric = v->metric < 0 ? 0 : v->metric + 1 == (int)n ? -1 :
		    v->metric + 1;
	snprintf(t->msg, sizeof(t->msg), "rate: %s", v->metric < 0 ?
		 "all" : t->kt->metrics.m[v->metric].name);
}

static void key_pause(struct tui *t, struct screen *s)
{
	(void)s;
	t->view->paused = !t->view->paused;
}

static void key_event(struct tui *t, struct screen *s)
{
	struct kt *kt = t->kt;
	struct kt_view *v = t->view;

	(void)s;
	if (kt->nevents == 1) {
		snprintf(t->msg, sizeof(t->msg), "event: %s", kt->names[0]);
		return;
	}
	/* the members of a group read take no sample: their tables
	   would be empty */
	if (kt->group_read) {
		snprintf(t->msg, sizeof(t->msg), "event: %s (a group read "
			 "samples its leader; the members' counts are the "
			 "rate columns: m)", kt->names[0]);
		return;
	}
	v->top.event = v->top.event + 1 >= (int)kt->nevents ?
		       -1 : v->top.event + 1;
}

static void key_annotate(struct tui *t, struct screen *s)
{
	const struct top_row *r = selected(t, s->data);

	if (!r)
		return;
	if (!r->sym || !r->dso) {
		snprintf(t->msg, sizeof(t->msg), "no symbol to annotate on "
			 "this row (see H for why)");
		return;
	}
	if (r->cause != SYM_OK) {
		snprintf(t->msg, sizeof(t->msg), "no symbol to annotate on "
			 "this row (%s: see H for the fix)",
			 symbols_cause_name(r->cause));
		return;
	}
	screen_open(t, &screen_annotate,
		    &(struct annotate_arg){ r->sym, r->dso });
}

/* --hierarchy's keys: a group opened or closed, or all of them. */
static bool key_fold(struct tui *t, struct main_screen *m)
{
	const struct kt_hline *h;

	if (!m->hl || !m->nhl)
		return false;
	h = &m->hl[m->list.sel];
	if (h->row)
		return false;		/* a row: Enter acts on it */
	tree_toggle(&m->open, group_path(h->path));
	hier_build(t, m);
	return true;
}

static void key_plus(struct tui *t, struct screen *s)
{
	if (!key_fold(t, s->data))
		snprintf(t->msg, sizeof(t->msg), "%s", ((struct main_screen *)
			 s->data)->hl ? "a row, not a group" :
			 "groups are of --hierarchy");
}

static void key_all(struct tui *t, struct main_screen *m, bool open)
{
	if (!m->hl) {
		snprintf(t->msg, sizeof(t->msg), "groups are of --hierarchy");
		return;
	}
	if (open)
		tree_open_all(&m->open);
	else
		tree_close_all(&m->open);
	hier_build(t, m);
}

static void key_expand(struct tui *t, struct screen *s)
{
	key_all(t, s->data, true);
}

static void key_collapse(struct tui *t, struct screen *s)
{
	key_all(t, s->data, false);
}

static void key_health(struct tui *t, struct screen *s)
{
	(void)s;
	screen_open(t, &screen_health, NULL);
}

/* Enter: with -g, the callers of the selected row's function; else
   annotate it. */
static void key_enter(struct tui *t, struct screen *s)
{
	struct stacks *chains = profile_chains(kt_profile(t->kt, t->view));
	const struct top_row *r;
	uint32_t f;

	if (key_fold(t, s->data))
		return;
	if (!chains) {
		key_annotate(t, s);
		return;
	}
	r = selected(t, s->data);
	if (!r)
		return;
	f = r->sym && r->dso && r->cause == SYM_OK ?
		stacks_func_find(chains, r->sym, r->dso) : STK_NONE;
	if (f == STK_NONE) {
		snprintf(t->msg, sizeof(t->msg), "no call chains of this row "
			 "(an unresolved row, or none sampled yet)");
		return;
	}
	screen_open(t, &screen_calltree, &f);
}

static void key_children(struct tui *t, struct screen *s)
{
	(void)s;
	if (!view_children(t->kt, t->view)) {
		snprintf(t->msg, sizeof(t->msg), "%s",
			 profile_chains(kt_profile(t->kt, t->view)) ?
			 "Children are shown by symbol only (-s sym, no thread "
			 "zoom, the first event)" :
			 "no Children without call chains: start with -g");
		return;
	}
	t->view->top.sort_self = !t->view->top.sort_self;
	view_changed(t->view);
}

static void key_snapshot(struct tui *t, struct screen *s)
{
	(void)s;
	kt_snapshot(t->kt, t->view->measure, t->msg, sizeof(t->msg));
}

static void key_baseline(struct tui *t, struct screen *s)
{
	struct top *top = profile_top(kt_profile(t->kt, t->view));

	(void)s;
	if (top_baseline_active(top))
		top_baseline_drop(top);
	else if (top_baseline_take(top) != 0)
		snprintf(t->msg, sizeof(t->msg), "cannot take a baseline: %s",
			 strerror(errno));
}

/*
 * P: the table shown as a batch frame, written whole or not at all.  The
 * directory may be shared (/tmp): the temporary is made with O_EXCL and
 * renamed over the name, so that nothing planted there (a symbolic link
 * to a file of root's) is ever written through.
 */
static void key_save(struct tui *t, struct screen *s)
{
	struct main_screen *m = s->data;
	char name[64], cwd[PATH_MAX];
	struct atomic_file af;
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;
	int err = 0;

	localtime_r(&now, &tm);
	strftime(name, sizeof(name), "kerneltop-%Y%m%d-%H%M%S.txt", &tm);
	f = atomic_file_start(&af, name, 0);
	if (!f)
		err = errno;
	else if (frame_print(t->kt, &m->tb, f, 0) != 0)
		err = errno ? errno : EIO;
	if (f && err)
		atomic_file_abort(&af);
	else if (f && atomic_file_commit(&af) != 0)
		err = errno;
	if (err) {
		snprintf(t->msg, sizeof(t->msg), "cannot save %s: %s%s", name,
			 output_strerror(err), output_path_fix(err));
		return;
	}
	snprintf(t->msg, sizeof(t->msg), "saved to %s/%s",
		 getcwd(cwd, sizeof(cwd)) ? cwd : ".", name);
}

/* In the order of the help screen and the footer. */
static const struct screen_key main_keys[] = {
	{ "h ?", { 'h', '?' }, "this help", "h help", FOOT_ALWAYS, key_help },
	{ "q", { 'q' }, "quit", "q quit", FOOT_ALWAYS, key_quit },
	{ "Enter", { '\n', '\r', KEY_ENTER },
	  "with -g: the callers of the symbol as a tree; else annotate; "
	  "on a group of --hierarchy: open or close it",
	  "Enter callers", FOOT_CHAINS, key_enter },
	{ "+", { '+' }, "--hierarchy: open or close the group", NULL,
	  FOOT_NEVER, key_plus },
	{ "E", { 'E' }, "--hierarchy: open every group", NULL, FOOT_NEVER,
	  key_expand },
	{ "C", { 'C' }, "--hierarchy: close every group", NULL, FOOT_NEVER,
	  key_collapse },
	{ "c", { 'c' }, "with -g: sort by Children or by Self",
	  "c children/self", FOOT_CHAINS, key_children },
	{ "s", { 's' }, "sort by overhead, sym, dso, comm, pid, tid",
	  "s sort", FOOT_ALWAYS, key_sort },
	{ "d", { 'd' }, "zoom into the selected row's DSO, and back",
	  "d dso", FOOT_ALWAYS, key_dso },
	{ "t", { 't' }, "zoom into a thread (pick from a list), and back",
	  "t thread", FOOT_ALWAYS, key_thread },
	{ "T", { 'T' }, "the task table: per-thread counters, Enter zooms",
	  NULL, FOOT_NEVER, key_tasks },
	{ "Esc Left", { 27, KEY_LEFT },
	  "zoomed from the task table: back to it", NULL, FOOT_NEVER,
	  key_tasks_back },
	{ "K", { 'K' }, "hide or show kernel rows", NULL, FOOT_NEVER,
	  key_hide_kernel },
	{ "U", { 'U' }, "hide or show user rows", NULL, FOOT_NEVER,
	  key_hide_user },
	{ "/", { '/' }, "filter by symbol substring (empty: none)",
	  "/ filter", FOOT_ALWAYS, key_filter },
	{ "z", { 'z' }, "decay by 7/8 or zero at each refresh", NULL,
	  FOOT_NEVER, key_zero },
	{ "p space", { 'p', ' ' },
	  "pause the display (sampling goes on; keys act on what is shown)",
	  NULL, FOOT_NEVER, key_pause },
	{ "o", { 'o' }, "--off-cpu: show on-CPU, off-CPU or wall-clock time",
	  "o on/off-CPU", FOOT_OFFCPU, key_measure },
	{ "e TAB", { 'e', '\t' },
	  "switch the event shown (weight, each event)", "e event",
	  FOOT_FLAT, key_event },
	{ "m", { 'm' }, "with -e '{a,b}:S': the next --metric rate "
	  "column, then all", "m rate", FOOT_NEVER, key_metric },
	{ "a", { 'a' }, "annotate: samples per source line of the symbol "
	  "(s: per instruction)",
	  NULL, FOOT_NEVER, key_annotate },
	{ "b", { 'b' }, "take a baseline: show each row's change against it",
	  "b baseline", FOOT_FLAT, key_baseline },
	{ "H", { 'H' }, "symbolization health: what is unresolved and why",
	  "H health", FOOT_FLAT, key_health },
	{ "P", { 'P' }, "save the table to ./kerneltop-DATE-TIME.txt", NULL,
	  FOOT_NEVER, key_save },
	{ "S", { 'S' },
	  "with -g: save a flame graph, ./kerneltop-DATE-TIME.svg",
	  "S save graph", FOOT_CHAINS, key_snapshot },
};

/* The `/` prompt, while it is open: edit, Enter applies, Esc cancels. */
static bool main_key(struct tui *t, struct screen *s, int ch)
{
	struct main_screen *m = s->data;
	struct kt_view *v = t->view;

	if (!m->prompt.on)
		return false;
	if (prompt_key(&m->prompt, ch) == PROMPT_DONE) {
		snprintf(v->filter, sizeof(v->filter), "%s", m->prompt.input);
		v->top.filter = v->filter[0] ? v->filter : NULL;
		view_changed(v);
	}
	return true;
}

static int main_open(struct tui *t, struct screen *s, const void *arg)
{
	struct main_screen *m = xcalloc(1, sizeof(*m));

	(void)arg;
	m->gen = t->view->gen;
	s->data = m;
	return 0;
}

static void main_close(struct screen *s)
{
	struct main_screen *m = s->data;

	table_release(&m->tb);
	frame_hier_free(m->hl, m->nhl);
	tree_release(&m->open);
	free(m);
}

static struct list *main_list(struct screen *s)
{
	struct main_screen *m = s->data;

	return &m->list;
}

static const char *const main_notes[] = {
	"Overhead: share of the samples of the event shown; old samples "
	"decay x7/8 per refresh.",
	"Weight (several events): count1*...*count(n-1) / (count(n)+1).",
	"Self (-g): the samples taken in the function itself.",
	"Children (-g): the samples with the function anywhere in the call "
	"chain; a caller's",
	"  count holds its callees', so the column sums past 100%.",
	NULL,
};

const struct screen_type screen_main = {
	.name = "main",
	.open = main_open,
	.close = main_close,
	.draw = main_draw,
	.keys = main_keys,
	.nkeys = sizeof(main_keys) / sizeof(main_keys[0]),
	.key = main_key,
	.list = main_list,
	.notes = main_notes,
};
