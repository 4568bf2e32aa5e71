/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-annotate.c - a symbol's samples per source line (Enter without
 * -g, `a'), the hottest marked; built once when opened, then scrolled.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "tui.h"
#include "util/xmalloc.h"

#define ANNOTATE_FIRST 2	/* title, column header */

struct annotate_screen {
	struct annotation ann;
	char title[KT_LINE];
	struct list list;	/* scroll only */
};

static bool annotate_draw(struct tui *t, struct screen *s)
{
	struct annotate_screen *as = s->data;
	const struct annotation *a = &as->ann;
	char line[KT_LINE], text[KT_LINE], file[KT_LINE];
	size_t i;

	(void)t;
	term_line(0, as->title, A_REVERSE);
	snprintf(line, sizeof(line), " %7s %7s  %-24s %s", "share", "samples",
		 "file:line", "source");
	term_line(1, line, A_BOLD);
	if (!a->n)
		term_line(ANNOTATE_FIRST, "  no samples with a source line "
			  "yet (press H for why lines are missing)", 0);
	list_place(&as->list, a->n, ANNOTATE_FIRST);
	for (i = as->list.top; i < list_end(&as->list); i++) {
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
			 l->count, term_padded(pad, sizeof(pad), where, 24),
			 text);
		term_line(list_y(&as->list, i), line,
			  i == a->hottest ? A_REVERSE | A_BOLD : 0);
	}
	return false;
}

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
	esc_visible(sym, sizeof(sym), aa->sym);
	esc_visible(dso, sizeof(dso), aa->dso);
	snprintf(as->title, sizeof(as->title), "Annotate: %s (%s)", sym, dso);
	as->list.scroll_only = true;
	as->list.sel = as->ann.hottest > 3 ? as->ann.hottest - 3 : 0;
	s->data = as;
	return 0;
}

static void annotate_close(struct screen *s)
{
	struct annotate_screen *as = s->data;

	annotate_release(&as->ann);
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
	.list = annotate_list,
};
