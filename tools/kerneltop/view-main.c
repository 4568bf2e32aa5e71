/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view-main.c - the main screen: header, status line, the table of rows,
 * and its keys, one row of main_keys[] each (the help screen lists them).
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
#include "tui.h"
#include "util/output.h"

#define FIRST_ROW 4		/* header, header, status, column header */

static const enum top_order orders[] = {
	TOP_BY_SHARE, TOP_BY_SYM, TOP_BY_DSO, TOP_BY_COMM, TOP_BY_PID,
	TOP_BY_TID,
};
static const char *const order_names[] = {
	"overhead", "sym", "dso", "comm", "pid", "tid",
};
#define NORDERS (sizeof(orders) / sizeof(orders[0]))

const struct top_row *view_main_rows(struct tui *t, size_t *n)
{
	return kt_rows(t->kt, n);
}

static size_t page_rows(void)
{
	return LINES > FIRST_ROW + 1 ? (size_t)(LINES - FIRST_ROW - 1) : 1;
}

/* The selected row, or NULL (with a message) when there is none. */
static const struct top_row *selected(struct tui *t)
{
	const struct top_row *rows;
	size_t n;

	rows = view_main_rows(t, &n);
	if (!n) {
		snprintf(t->msg, sizeof(t->msg), "no row selected");
		return NULL;
	}
	if (t->sel >= n)
		t->sel = n - 1;
	return &rows[t->sel];
}

static void status_add(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s%s", len ? "  " : "", s);
}

static void status_line(struct tui *t, char *buf, size_t size)
{
	const struct kt *kt = t->kt;
	char item[KT_LINE], vis[KT_LINE];

	buf[0] = '\0';
	if (kt->view.order != TOP_BY_SHARE) {
		snprintf(item, sizeof(item), "sort: %s",
			 order_names[t->kt->sort_cycle]);
		status_add(buf, size, item);
	} else if (kt_children_shown(kt) && kt->sort_self) {
		status_add(buf, size, "sort: self");
	}
	if (kt->nevents > 1) {
		snprintf(item, sizeof(item), "event: %s", kt->view.event < 0 ?
			 "weight" : kt->names[kt->view.event]);
		status_add(buf, size, item);
	}
	if (kt->view.dso) {
		esc_visible(vis, sizeof(vis), kt->view.dso);
		snprintf(item, sizeof(item), "dso: %s", vis);
		status_add(buf, size, item);
	}
	if (kt->view.tid) {
		esc_visible(vis, sizeof(vis), t->zoom_comm);
		snprintf(item, sizeof(item), "thread: %d (%s)",
			 (int)kt->view.tid, vis);
		status_add(buf, size, item);
	}
	if (kt->view.hide_kernel)
		status_add(buf, size, "kernel hidden");
	if (kt->view.hide_user)
		status_add(buf, size, "user hidden");
	if (kt->view.filter) {
		esc_visible(vis, sizeof(vis), kt->view.filter);
		snprintf(item, sizeof(item), "filter: %s", vis);
		status_add(buf, size, item);
	}
	if (kt->opt.zero)
		status_add(buf, size, "zero");
	if (kt->paused)
		status_add(buf, size, "paused");
	if (top_baseline_active(kt->top))
		status_add(buf, size, "baseline");
	if (kt->ended)
		status_add(buf, size, kt->ended_msg);
	if (t->msg[0])
		status_add(buf, size, t->msg);
	if (kt->notice[0])
		status_add(buf, size, kt->notice);
}

void view_main_draw(struct tui *t)
{
	const struct top_row *rows;
	char line[KT_LINE];
	size_t n, i, page = page_rows();

	frame_header(t->kt, 0, line, sizeof(line));
	tui_line(0, line, A_BOLD);
	frame_header(t->kt, 1, line, sizeof(line));
	tui_line(1, line, 0);
	status_line(t, line, sizeof(line));
	tui_line(2, line, A_BOLD);
	frame_columns(t->kt, line, sizeof(line), COLS);
	tui_line(3, line, A_REVERSE);
	rows = view_main_rows(t, &n);
	tui_scroll(&t->sel, &t->first, n, page);
	for (i = t->first; i < n && i < t->first + page; i++) {
		frame_row(t->kt, &rows[i], line, sizeof(line), COLS);
		tui_line(FIRST_ROW + (int)(i - t->first), line,
			 i == t->sel ? A_REVERSE : 0);
	}
	if (t->prompting) {
		snprintf(line, sizeof(line), "filter: %.*s", (int)t->input_len,
			 t->input);
		tui_line(LINES - 1, line, 0);
		curs_set(1);
		move(LINES - 1, (int)strlen(line) < COLS ? (int)strlen(line)
							 : COLS - 1);
		return;
	}
	curs_set(0);
	if (t->kt->stacks)
		tui_line(LINES - 1, "h help  q quit  Enter callers  c children/"
			 "self  s sort  d dso  t thread  / filter  S save graph",
			 A_REVERSE);
	else
		tui_line(LINES - 1, "h help  q quit  s sort  d dso  t thread  "
			 "/ filter  e event  b baseline  H health", A_REVERSE);
}

/* --- the keys ------------------------------------------------------------- */

static void key_quit(struct tui *t) { t->quit = true; }
static void key_help(struct tui *t) { t->screen = SCREEN_HELP; }

static void key_sort(struct tui *t)
{
	t->kt->sort_cycle = (t->kt->sort_cycle + 1) % NORDERS;
	t->kt->view.order = orders[t->kt->sort_cycle];
	snprintf(t->msg, sizeof(t->msg), "sort: %s",
		 order_names[t->kt->sort_cycle]);
	if (t->kt->view.order != TOP_BY_SHARE)
		t->msg[0] = '\0';	/* the status line says it */
}

static void key_dso(struct tui *t)
{
	const struct top_row *r;

	if (t->kt->view.dso) {
		t->kt->view.dso = NULL;
		return;
	}
	r = selected(t);
	if (!r)
		return;
	if (!r->dso) {
		snprintf(t->msg, sizeof(t->msg), "no DSO on this row "
			 "(group by sym or dso to zoom)");
		return;
	}
	snprintf(t->zoom_dso, sizeof(t->zoom_dso), "%s", r->dso);
	t->kt->view.dso = t->zoom_dso;
	t->sel = t->first = 0;
}

static void key_thread(struct tui *t)
{
	if (t->kt->view.tid) {
		t->kt->view.tid = 0;
		return;
	}
	t->tsel = t->tfirst = 0;
	t->screen = SCREEN_THREADS;
}

static void key_hide_kernel(struct tui *t)
{
	t->kt->view.hide_kernel = !t->kt->view.hide_kernel;
}

static void key_hide_user(struct tui *t)
{
	t->kt->view.hide_user = !t->kt->view.hide_user;
}

static void key_filter(struct tui *t)
{
	t->prompting = true;
	t->input_len = 0;
}

static void key_zero(struct tui *t)
{
	t->kt->opt.zero = !t->kt->opt.zero;
	snprintf(t->msg, sizeof(t->msg), "%s",
		 t->kt->opt.zero ? "" : "decay");
}

static void key_pause(struct tui *t)
{
	t->kt->paused = !t->kt->paused;
}

static void key_event(struct tui *t)
{
	struct kt *kt = t->kt;

	if (kt->nevents == 1) {
		snprintf(t->msg, sizeof(t->msg), "event: %s", kt->names[0]);
		return;
	}
	kt->view.event = kt->view.event + 1 >= (int)kt->nevents ?
			 -1 : kt->view.event + 1;
}

static void key_annotate(struct tui *t)
{
	const struct top_row *r = selected(t);
	char sym[KT_LINE], dso[KT_LINE];

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
	annotate_release(&t->ann);
	if (annotate_build(t->kt, r->sym, r->dso, &t->ann) != 0) {
		snprintf(t->msg, sizeof(t->msg), "cannot annotate: %s",
			 strerror(errno));
		return;
	}
	esc_visible(sym, sizeof(sym), r->sym);
	esc_visible(dso, sizeof(dso), r->dso);
	snprintf(t->ann_title, sizeof(t->ann_title), "Annotate: %s (%s)",
		 sym, dso);
	t->afirst = t->ann.hottest > 3 ? t->ann.hottest - 3 : 0;
	t->screen = SCREEN_ANNOTATE;
}

static void key_health(struct tui *t) { t->screen = SCREEN_HEALTH; }

/* Enter: with -g, the callers of the selected row's function; else
   annotate it. */
static void key_enter(struct tui *t)
{
	const struct top_row *r;
	uint32_t f;

	if (!t->kt->stacks) {
		key_annotate(t);
		return;
	}
	r = selected(t);
	if (!r)
		return;
	f = r->sym && r->dso ? stacks_func_find(t->kt->stacks, r->sym, r->dso)
			     : STK_NONE;
	if (f == STK_NONE || r->cause != SYM_OK) {
		snprintf(t->msg, sizeof(t->msg), "no call chains of this row "
			 "(an unresolved row, or none sampled yet)");
		return;
	}
	view_calltree_open(t, f);
}

static void key_children(struct tui *t)
{
	if (!kt_children_shown(t->kt)) {
		snprintf(t->msg, sizeof(t->msg), "%s", t->kt->stacks ?
			 "Children are shown by symbol only (-s sym, no thread "
			 "zoom, the first event)" :
			 "no Children without call chains: start with -g");
		return;
	}
	t->kt->sort_self = !t->kt->sort_self;
	t->sel = t->first = 0;
}

static void key_snapshot(struct tui *t)
{
	kt_snapshot(t->kt, t->msg, sizeof(t->msg));
}

static void key_baseline(struct tui *t)
{
	if (top_baseline_active(t->kt->top))
		top_baseline_drop(t->kt->top);
	else if (top_baseline_take(t->kt->top) != 0)
		snprintf(t->msg, sizeof(t->msg), "cannot take a baseline: %s",
			 strerror(errno));
}

/*
 * P: the table as a batch frame, written whole or not at all.  The
 * directory may be shared (/tmp): the temporary is made with O_EXCL and
 * renamed over the name, so that nothing planted there (a symbolic link
 * to a file of root's) is ever written through.
 */
static void key_save(struct tui *t)
{
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
	else if (frame_print(t->kt, f, 0) != 0)
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

const struct key_binding main_keys[] = {
	{ "h ?", { 'h', '?' }, "this help", key_help },
	{ "q", { 'q' }, "quit", key_quit },
	{ "Up Down j k", { 0 }, "move the selection", NULL },
	{ "PgUp PgDn Home End", { 0 }, "move by a page, to the ends", NULL },
	{ "s", { 's' }, "sort by overhead, sym, dso, comm, pid, tid",
	  key_sort },
	{ "d", { 'd' }, "zoom into the selected row's DSO, and back",
	  key_dso },
	{ "t", { 't' }, "zoom into a thread (pick from a list), and back",
	  key_thread },
	{ "K", { 'K' }, "hide or show kernel rows", key_hide_kernel },
	{ "U", { 'U' }, "hide or show user rows", key_hide_user },
	{ "/", { '/' }, "filter by symbol substring (empty: none)",
	  key_filter },
	{ "z", { 'z' }, "decay by 7/8 or zero at each refresh", key_zero },
	{ "p space", { 'p', ' ' }, "pause the display (sampling goes on)",
	  key_pause },
	{ "e TAB", { 'e', '\t' }, "switch the event shown (weight, each event)",
	  key_event },
	{ "Enter", { '\n', '\r', KEY_ENTER },
	  "with -g: the callers of the symbol as a tree; else annotate",
	  key_enter },
	{ "a", { 'a' }, "annotate: samples per source line of the symbol",
	  key_annotate },
	{ "c", { 'c' }, "with -g: sort by Children or by Self", key_children },
	{ "H", { 'H' }, "symbolization health: what is unresolved and why",
	  key_health },
	{ "b", { 'b' }, "take a baseline: show each row's change against it",
	  key_baseline },
	{ "P", { 'P' }, "save the table to ./kerneltop-DATE-TIME.txt",
	  key_save },
	{ "S", { 'S' }, "with -g: save a flame graph, ./kerneltop-DATE-TIME.svg",
	  key_snapshot },
};
const size_t main_nkeys = sizeof(main_keys) / sizeof(main_keys[0]);

/* The `/` prompt: edit, Enter applies, Esc cancels. */
static void prompt_key(struct tui *t, int ch)
{
	switch (ch) {
	case 27:
		t->prompting = false;
		break;
	case '\n': case '\r': case KEY_ENTER:
		t->prompting = false;
		snprintf(t->filter, sizeof(t->filter), "%.*s",
			 (int)t->input_len, t->input);
		t->kt->view.filter = t->filter[0] ? t->filter : NULL;
		t->sel = t->first = 0;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (t->input_len)
			t->input_len--;
		break;
	default:
		if (ch >= 32 && ch < 256 && ch != 127 &&
		    t->input_len < sizeof(t->input) - 1)
			t->input[t->input_len++] = (char)ch;
	}
}

void view_main_key(struct tui *t, int ch)
{
	size_t i, k, n;

	if (t->prompting) {
		prompt_key(t, ch);
		return;
	}
	t->msg[0] = '\0';
	view_main_rows(t, &n);
	if (tui_navigate(ch, &t->sel, n, page_rows()))
		return;
	for (i = 0; i < main_nkeys; i++)
		for (k = 0; k < 4 && main_keys[i].keys[k]; k++)
			if (main_keys[i].keys[k] == ch && main_keys[i].fn) {
				main_keys[i].fn(t);
				return;
			}
}
