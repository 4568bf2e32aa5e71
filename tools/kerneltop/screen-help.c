/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screen-help.c - the help screen: the keys of the screen it was opened
 * from, from that screen's own table, the keys every such screen has,
 * and its notes.  Any key goes back.
 */
#include "config.h"

#include <stdlib.h>

#include "tui.h"
#include "util/xmalloc.h"

struct help_screen {
	const struct screen *of;	/* the screen whose keys it lists */
};

struct help_draw {
	int y;
};

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
	struct help_draw *d = arg;
	char line[KT_LINE];

	if (d->y >= LINES - 4)
		return;
	snprintf(line, sizeof(line), "  %-20s %s", label, help);
	term_line(d->y++, line, 0);
}

static bool help_draw(struct tui *t, struct screen *s)
{
	const struct help_screen *h = s->data;
	const struct screen_type *of = h->of->type;
	struct help_draw d = { .y = 2 };
	char line[KT_LINE];
	size_t i;

	snprintf(line, sizeof(line), "kerneltop help: %s", of->name);
	term_line(0, line, A_REVERSE);
	for (i = 0; i < of->nkeys; i++)
		help_line(&d, of->keys[i].label, of->keys[i].help);
	screen_common_keys(t, h->of, help_line, &d);
	d.y++;
	for (i = 0; of->notes && of->notes[i] && d.y < LINES - 1; i++) {
		snprintf(line, sizeof(line), "  %s", of->notes[i]);
		term_line(d.y++, line, 0);
	}
	d.y++;
	/* the first screen is the table (screen_main) */
	for (i = 0; !screen_below(t, h->of) && perf_keys[i] &&
		    d.y < LINES - 1; i++) {
		snprintf(line, sizeof(line), "  %s", perf_keys[i]);
		term_line(d.y++, line, 0);
	}
	term_line(LINES - 1, "press any key to go back", A_REVERSE);
	return true;
}

static bool help_key(struct tui *t, struct screen *s, int ch)
{
	(void)s;
	(void)ch;
	screen_back(t);
	return true;
}

static int help_open(struct tui *t, struct screen *s, const void *arg)
{
	struct help_screen *h = xcalloc(1, sizeof(*h));

	(void)t;
	h->of = arg;
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
