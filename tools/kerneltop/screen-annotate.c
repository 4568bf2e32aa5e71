/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-annotate.c - a symbol's samples (Enter without -g, `a'), per
 * source line or per instruction (`s' switches, lib/profile/insns), the
 * hottest marked and scrolled to; each view built once, when first
 * shown, then scrolled.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "profile/insns.h"
#include "profile/srclines.h"
#include "annotate.h"
#include "screen.h"
#include "util/xmalloc.h"

struct annotate_screen {
	struct srclines ann;
	struct insns insns;
	bool insns_built;	/* tried: insns is filled, or why_not is */
	bool show_insns;
	char why_not[KT_LINE];	/* why there is no instruction view */
	char sym[KT_LINE], dso[KT_LINE];	/* as the model names them */
	char title[KT_LINE];
	struct list list;	/* scroll only: the shown view's */
	struct list other;	/* the other view's, kept for a switch back */
};

/* The line that says why the instructions cannot be shown. */
static void insns_why(struct annotate_screen *as, enum sym_cause cause)
{
	if (errno == ENOTSUP)
		snprintf(as->why_not, sizeof(as->why_not), "no instruction "
			 "view: %s", disasm_strerror(errno, as->insns.machine));
	else if (as->dso[0] == '[')
		snprintf(as->why_not, sizeof(as->why_not), "no instruction "
			 "view: kernel code is not read from a file here");
	else if (errno == ENOMEM)
		die_nomem();
	else if (errno == ENOENT)
		snprintf(as->why_not, sizeof(as->why_not), "no instruction "
			 "view: cannot read the code: %s",
			 symbols_cause_advice(cause));
	else
		snprintf(as->why_not, sizeof(as->why_not), "no instruction "
			 "view: %s", insns_strerror(errno, cause,
						    &as->insns));
}

/* Build the instruction view once; false (why_not set) when it cannot. */
static bool insns_ready(struct tui *t, struct annotate_screen *as)
{
	const struct top_addr *addrs;
	enum sym_cause cause = SYM_OK;
	size_t n;

	if (as->insns_built)
		return !as->why_not[0];
	as->insns_built = true;
	errno = 0;
	if (!disasm_available()) {
		errno = ENOTSUP;
		insns_why(as, cause);
		return false;
	}
	if (as->dso[0] == '[') {
		insns_why(as, cause);
		return false;
	}
	addrs = top_addrs(profile_top(t->kt->prof[KT_ON_CPU]), as->sym,
			  as->dso, &n);
	if (insns_build(t->kt->sym_lines, as->dso, addrs, n, &as->insns,
			&cause) != 0) {
		insns_why(as, cause);
		return false;
	}
	return true;
}

static void draw_lines(struct annotate_screen *as, int first)
{
	const struct srclines *a = &as->ann;
	char line[KT_LINE];
	size_t i;

	term_line(first - 1, srclines_header(), A_BOLD);
	if (!a->n)
		term_line(first, "  no samples with a source line "
			  "yet (press H for why lines are missing)", 0);
	list_place(&as->list, a->n, first);
	for (i = as->list.top; i < list_end(&as->list); i++) {
		srclines_row_text(a, i, line, sizeof(line));
		term_line(list_y(&as->list, i), line,
			  i == a->hottest ? A_REVERSE | A_BOLD : 0);
	}
}

static void draw_insns(struct annotate_screen *as, int first)
{
	const struct insns *a = &as->insns;
	char line[KT_LINE];
	size_t i;

	term_line(first - 1, insns_header(), A_BOLD);
	list_place(&as->list, a->n, first);
	for (i = as->list.top; i < list_end(&as->list); i++) {
		insns_row_text(a, i, line, sizeof(line));
		term_line(list_y(&as->list, i), line,
			  i == a->hottest && a->total ? A_REVERSE | A_BOLD :
			  a->rows[i].insn ? 0 : A_BOLD);
	}
}

static bool annotate_draw(struct tui *t, struct screen *s)
{
	struct annotate_screen *as = s->data;

	(void)t;
	term_line(0, as->title, A_REVERSE);
	if (as->show_insns) {
		term_line(1, INSNS_SKID_NOTE, 0);
		draw_insns(as, 3);
	} else if (!disasm_available()) {
		/* the one line that says what the instruction view needs */
		term_line(1, as->why_not, 0);
		draw_lines(as, 3);
	} else {
		draw_lines(as, 2);
	}
	return false;
}

/*
 * The first row shown for row hot to be on the screen: the top while it
 * fits the first page (the function's first rows, its first source line,
 * stay shown), else hot in the middle of the page.
 */
static size_t scroll_to(size_t hot)
{
	size_t page = LINES > 4 ? (size_t)LINES - 4 : 1;

	return hot < page ? 0 : hot - page / 2;
}

/* s: instructions <-> source lines, each view where it was left. */
static void key_switch(struct tui *t, struct screen *s)
{
	struct annotate_screen *as = s->data;
	struct list keep;
	bool first = !as->insns_built;

	if (!as->show_insns && !insns_ready(t, as)) {
		snprintf(t->msg, sizeof(t->msg), "%s", as->why_not);
		return;
	}
	keep = as->list;
	as->list = as->other;
	as->other = keep;
	as->show_insns = !as->show_insns;
	if (as->show_insns && first)
		as->list = (struct list){ .scroll_only = true,
					  .sel = scroll_to(as->insns.hottest) };
}

static void key_help(struct tui *t, struct screen *s)
{
	screen_open(t, &screen_help, s);
}

static const struct screen_key annotate_keys[] = {
	{ "s", { 's' }, "instructions with their samples (LLVM) / "
	  "source lines", "s insns/source", FOOT_ALWAYS, key_switch },
	{ "h ?", { 'h', '?' }, "this help", "h help", FOOT_ALWAYS, key_help },
};

/* arg: the struct annotate_arg of the symbol. */
static int annotate_open(struct tui *t, struct screen *s, const void *arg)
{
	const struct annotate_arg *aa = arg;
	struct annotate_screen *as = xcalloc(1, sizeof(*as));
	char sym[KT_LINE], dso[KT_LINE];

	if (annotate_build(t->kt, aa->sym, aa->dso, &as->ann) != 0) {
		snprintf(t->msg, sizeof(t->msg), "cannot annotate: %s",
			 strerror(errno));
		free(as);
		return -1;
	}
	snprintf(as->sym, sizeof(as->sym), "%s", aa->sym);
	snprintf(as->dso, sizeof(as->dso), "%s", aa->dso);
	esc_visible(sym, sizeof(sym), aa->sym);
	esc_visible(dso, sizeof(dso), aa->dso);
	snprintf(as->title, sizeof(as->title), "Annotate: %s (%s)", sym, dso);
	as->list.scroll_only = as->other.scroll_only = true;
	as->list.sel = as->ann.hottest > 3 ? as->ann.hottest - 3 : 0;
	if (!disasm_available()) {
		errno = ENOTSUP;
		insns_why(as, SYM_OK);
		as->insns_built = true;
	}
	s->data = as;
	return 0;
}

static void annotate_close(struct screen *s)
{
	struct annotate_screen *as = s->data;

	srclines_release(&as->ann);
	insns_release(&as->insns);
	free(as);
}

static struct list *annotate_list(struct screen *s)
{
	struct annotate_screen *as = s->data;

	return &as->list;
}

const struct screen_type screen_annotate = {
	.name = "annotate",
	.open = annotate_open,
	.close = annotate_close,
	.draw = annotate_draw,
	.keys = annotate_keys,
	.nkeys = sizeof(annotate_keys) / sizeof(annotate_keys[0]),
	.list = annotate_list,
};
