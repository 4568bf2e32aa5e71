/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary.c - the table printed at the end: top functions, then what was
   lost and what could not be resolved, with the fix for each cause. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "monitor.h"
#include "sampling-cli/callgraph.h"
#include "sampling-cli/metrics.h"
#include "util/die.h"
#include "util/esc-print.h"
#include "util/xmalloc.h"

/* With a call graph: frames, and the user chains that ended early. */
static void chains_print(FILE *out, const struct monitor_totals *t,
			 const struct feed_info *info)
{
	unsigned i;

	fprintf(out, "call chains (%s): %" PRIu64 " frames, %" PRIu64
		" without a function\n", callgraph_name(t->callgraph),
		info->frames, info->frames_unresolved);
	for (i = 1; i < UNWIND_STOP_MAX; i++) {
		if (!info->user_stops[i])
			continue;
		fprintf(out, "call chains: %" PRIu64 " user chains ended "
			"early: %s (%s)\n", info->user_stops[i],
			unwind_stop_name((enum unwind_stop)i),
			unwind_stop_advice((enum unwind_stop)i));
	}
}

/* The top functions of event ev: the profile's rows by (function,
   DSO), most samples first, ties by name, with their rates. */
void summary_table(FILE *out, struct profile *p, const struct metrics *ms,
		   unsigned ev, unsigned max, const char *unit)
{
	const struct rates_est none = { .valid = false };
	char cell[64];
	unsigned k;
	const struct top_row *r;
	size_t n, i;

	r = profile_rows(p, &TOP_VIEW(.keys = TOP_KEY_SYM, .event = (int)ev),
			 false, &n);
	if (!r)
		die_nomem();
	/* rows of the other events only come last, with no sample */
	while (n && !r[n - 1].count[ev])
		n--;
	if (!n)
		return;
	fprintf(out, "%10s %7s", unit, "share");
	for (k = 0; ms && k < ms->n; k++)	/* --metric */
		fprintf(out, " %s", metrics_cell(ms, k, NULL, cell,
						 sizeof(cell)));
	fprintf(out, "  %-40s %s\n", "function", "dso");
	for (i = 0; i < n && i < max; i++) {
		fprintf(out, "%10" PRIu64 " %6.2f%%", r[i].count[ev],
			100.0 * (double)r[i].count[ev] /
			(double)top_total(profile_top(p), ev));
		for (k = 0; ms && k < ms->n; k++)
			fprintf(out, " %s", metrics_cell(ms, k,
					k < r[i].nrates ? &r[i].rates[k] :
					&none, cell, sizeof(cell)));
		fputs("  ", out);
		/* names from the target's files: shown, never run */
		esc_print_visible_pad(out, r[i].sym, -40);
		fputc(' ', out);
		esc_print_visible(out, r[i].dso);
		fputc('\n', out);
	}
	if (n > max)
		fprintf(out, "%10s %7s  (%zu more functions)\n", "", "",
			n - max);
}

void summary_print(FILE *out, struct profile *p, const struct metrics *ms,
		   const char (*names)[64], unsigned nevents,
		   const struct symbols *sym, const struct monitor_totals *t,
		   unsigned top, const struct feed_info *info)
{
	struct sym_unresolved u[16];
	size_t i, nu;
	unsigned ev;

	/* the target is a command's name, typed or planted: shown, never
	   run on the terminal */
	fprintf(out, "%s: %" PRIu64 " samples of %s on ", progname,
		t->samples, t->event);
	esc_print_visible(out, t->target);
	fprintf(out, ", %" PRIu64 " lost, %" PRIu64 " unresolved", t->lost,
		t->unresolved);
	if (t->filtered)
		fprintf(out, ", %" PRIu64 " filtered out by -k/-u",
			t->filtered);
	fputc('\n', out);
	if (t->sampling)
		fprintf(out, "%s: sampling: %s\n", progname, t->sampling);
	if (t->lost)
		fprintf(out, "%s: %" PRIu64 " samples lost: they came faster "
			"than they were read (%s)\n", progname, t->lost,
			t->lost_fix);
	if (nevents == 1) {
		summary_table(out, p, ms, 0, top, "samples");
	} else {
		for (ev = 0; ev < nevents; ev++)
			fprintf(out, "%s: %" PRIu64 " samples of %s\n",
				progname, t->by_event[ev], names[ev]);
		for (ev = 0; ev < nevents; ev++) {
			if (!top_total(profile_top(p), ev))
				continue;
			fprintf(out, "%s:\n", names[ev]);
			summary_table(out, p, ms, ev, top, "samples");
		}
	}
	if (t->callgraph != FEED_CG_NONE)
		chains_print(out, t, info);
	nu = symbols_unresolved(sym, u, 16);
	for (i = 0; i < nu && i < 16; i++) {
		fprintf(out, "unresolved: %" PRIu64 " in ", u[i].count);
		esc_print_visible(out, u[i].dso);
		fprintf(out, ": %s (%s)\n", symbols_cause_name(u[i].cause),
			symbols_cause_advice(u[i].cause));
	}
}
