/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export-speedscope.c - speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile whose frames are the functions and whose samples are stacks,
 * root first, weighted by their time in nanoseconds for a time event
 * (cpu-clock, task-clock), else by their sample counts.
 *
 * Samples go in the order they were taken (the aggregate's timeline,
 * a run of one stack a sample), which speedscope's default view, Time
 * Order, draws as a timeline; an aggregate without one (a sample came
 * without its time) is written most counted first, which only the
 * Left Heavy and Sandwich views read right.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "base/escape.h"
#include "profile/export-internal.h"

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	export_put_esc(f, s, esc_json);
	fputc('"', f);
}

/* Sample i of the order written: a run of the timeline, or a stack. */
static void sample_at(const struct stk_run *runs,
		      const struct stk_stack *const *st, size_t i,
		      const struct stk_stack **stack, uint64_t *count,
		      uint64_t *period)
{
	if (runs) {
		*stack = runs[i].stack;
		*count = runs[i].count;
		*period = runs[i].period;
	} else {
		*stack = st[i];
		*count = st[i]->count;
		*period = st[i]->period;
	}
}

int export_speedscope(FILE *f, struct stacks *s, const struct export_meta *m)
{
	const struct stk_stack *const *st = NULL, *one;
	const struct stk_run *runs;
	bool ns = export_time_event(m);
	uint64_t end = 0, count, period;
	size_t n, i, nf = stacks_nfuncs(s);
	uint32_t d;

	runs = stacks_timeline(s, &n, NULL);
	if (!runs) {
		st = stacks_sorted(s, &n);
		if (!st && stacks_count(s))
			return -1;
	}
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"exporter\":\"" PACKAGE_NAME " " PACKAGE_VERSION "\",\"name\":", f);
	put_str(f, m->target ? m->target : m->tool ? m->tool : "profile");
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", f);
	for (i = 0; i < nf; i++) {
		const struct stk_func *fn = stacks_func(s, (uint32_t)i);

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		put_str(f, fn->name);
		if (fn->file) {
			fputs(",\"file\":", f);
			put_str(f, fn->file);
		} else {
			fputs(",\"file\":", f);
			put_str(f, fn->dso);
		}
		fputc('}', f);
	}
	fputs("]},\"profiles\":[{\"type\":\"sampled\",\"name\":", f);
	put_str(f, m->event ? m->event : "samples");
	fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"samples\":[",
		ns ? "nanoseconds" : "none");
	for (i = 0; i < n; i++) {
		sample_at(runs, st, i, &one, &count, &period);
		fputs(i ? ",[" : "[", f);
		for (d = one->depth; d-- > 0;)
			fprintf(f, "%s%" PRIu32, d + 1 == one->depth ? "" : ",",
				stacks_frame(s, one->frame[d])->func);
		fputc(']', f);
	}
	fputs("],\"weights\":[", f);
	for (i = 0; i < n; i++) {
		sample_at(runs, st, i, &one, &count, &period);
		fprintf(f, "%s%" PRIu64, i ? "," : "", ns ? period : count);
		end += ns ? period : count;
	}
	fprintf(f, "],\"endValue\":%" PRIu64 "}]}\n", end);
	return 0;
}
