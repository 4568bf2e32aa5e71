/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-help.c - the help screen: the keys of the screen it was opened
 * from, from that screen's own table, the keys every such screen has,
 * and its notes.  A text longer than the terminal scrolls with the list
 * keys (and space: a page); any other key goes back.
 */
#include "config.h"

#include <stdlib.h>

#include "screen.h"
#include "util/xmalloc.h"

struct help_screen {
	const struct screen *of;	/* the screen whose keys it lists */
	struct list list;		/* the lines, scrolled */
};

/* One pass over the help's lines: counts them, and draws those shown
   (from top, page of them, when draw). */
struct help_draw {
	size_t i;		/* the next line's number */
	size_t top, page;
	bool draw;
	int y;
};

static void help_text(struct help_draw *d, const char *text)
{
	if (d->draw && d->i >= d->top && d->i < d->top + d->page)
		term_line(d->y++, text, 0);
	d->i++;
}

/*
 * The footer of the main screen's help: the keys perf top's TUI gives
 * another meaning (its ui/browsers/hists.c help), for a perf user's
 * fingers.
 */
static const char *const perf_keys[] = {
	"Keys that differ from perf top's (here / in perf top):",
	"  H      health / column headers     S  flame graph / zoom into "
	"socket",
	"  e      switch event / expand the entry's chains (TAB: both switch)",
	"  space  pause / page down           Enter (-g)  callers / a menu",
	"  K U    hide kernel, user rows / none (perf's k: the kernel map)",
	NULL,
};

static void help_line(void *arg, const char *label, const char *help)
{
	char line[KT_LINE];

	snprintf(line, sizeof(line), "  %-20s %s", label, help);
	help_text(arg, line);
}

/* The help of screen of: its keys, the common ones, its notes and,
   on the first screen, perf top's keys. */
static void help_pass(struct tui *t, const struct screen *of,
		      struct help_draw *d)
{
	const struct screen_type *type = of->type;
	char line[KT_LINE];
	size_t i;

	for (i = 0; i < type->nkeys; i++)
		help_line(d, type->keys[i].label, type->keys[i].help);
	screen_common_keys(t, of, help_line, d);
	if (type->notes && type->notes[0]) {
		help_text(d, "");
		for (i = 0; type->notes[i]; i++) {
			snprintf(line, sizeof(line), "  %s", type->notes[i]);
			help_text(d, line);
		}
	}
	/* the first screen is the table (screen_main) */
	if (!screen_below(t, of)) {
		help_text(d, "");
		for (i = 0; perf_keys[i]; i++) {
			snprintf(line, sizeof(line), "  %s", perf_keys[i]);
			help_text(d, line);
		}
	}
}

static bool help_draw(struct tui *t, struct screen *s)
{
	struct help_screen *h = s->data;
	struct help_draw d = { 0 };
	char line[KT_LINE];

	help_pass(t, h->of, &d);
	list_place(&h->list, d.i, 2);
	/* the last page ends at the last line */
	if (d.i > h->list.page && h->list.top > d.i - h->list.page)
		h->list.top = h->list.sel = d.i - h->list.page;
	snprintf(line, sizeof(line), "kerneltop help: %s", h->of->type->name);
	term_line(0, line, A_REVERSE);
	d = (struct help_draw){ .top = h->list.top, .page = h->list.page,
				.draw = true, .y = 2 };
	help_pass(t, h->of, &d);
	if (h->list.n > h->list.page)
		snprintf(line, sizeof(line),
			 "lines %zu-%zu of %zu: Up Down PgUp PgDn space Home "
			 "End scroll, any other key goes back",
			 h->list.top + 1, list_end(&h->list), h->list.n);
	else
		snprintf(line, sizeof(line), "press any key to go back");
	term_line(LINES - 1, line, A_REVERSE);
	return true;
}

static bool help_key(struct tui *t, struct screen *s, int ch)
{
	struct help_screen *h = s->data;

	if (h->list.n > h->list.page) {
		if (ch == ' ')
			ch = KEY_NPAGE;
		if (list_key(&h->list, ch))
			return true;
	}
	screen_back(t);
	return true;
}

static int help_open(struct tui *t, struct screen *s, const void *arg)
{
	struct help_screen *h = xcalloc(1, sizeof(*h));

	(void)t;
	h->of = arg;
	h->list.scroll_only = true;
	s->data = h;
	return 0;
}

static void help_close(struct screen *s)
{
	free(s->data);
}

const struct screen_type screen_help = {
	.name = "help",
	.open = help_open,
	.close = help_close,
	.draw = help_draw,
	.key = help_key,
};
