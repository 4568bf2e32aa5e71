/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export-speedscope.c - speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile whose frames are the functions and whose samples are the
 * distinct stacks, root first, weighted by their time in nanoseconds for
 * a time event (cpu-clock, task-clock), else by their sample counts.
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

int export_speedscope(FILE *f, struct stacks *s, const struct export_meta *m)
{
	const struct stk_stack *const *st;
	bool ns = export_time_event(m);
	uint64_t end = 0;
	size_t n, i, nf = stacks_nfuncs(s);
	uint32_t d;

	st = stacks_sorted(s, &n);
	if (!st && stacks_count(s))
		return -1;
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
		fputs(i ? ",[" : "[", f);
		for (d = st[i]->depth; d-- > 0;)
			fprintf(f, "%s%" PRIu32, d + 1 == st[i]->depth ? "" : ",",
				stacks_frame(s, st[i]->frame[d])->func);
		fputc(']', f);
	}
	fputs("],\"weights\":[", f);
	for (i = 0; i < n; i++) {
		uint64_t w = ns ? st[i]->period : st[i]->count;

		fprintf(f, "%s%" PRIu64, i ? "," : "", w);
		end += w;
	}
	fprintf(f, "],\"endValue\":%" PRIu64 "}]}\n", end);
	return 0;
}
