/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* export-common.c - what the export writers share: escaped strings on a
   stream, and the unit of the event sampled. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/feed.h"
#include "profile/offcpu.h"

#include "profile/export-internal.h"

int export_put_esc(FILE *f, const char *src,
		   size_t (*esc)(char *dst, size_t size, const char *src))
{
	char buf[512], *big;
	size_t n = esc(buf, sizeof(buf), src);

	if (n < sizeof(buf)) {
		fwrite(buf, 1, n, f);
		return 0;
	}
	big = malloc(n + 1);
	if (!big)
		return -1;
	esc(big, n + 1, src);
	fwrite(big, 1, n, f);
	free(big);
	return 0;
}

bool export_func_offcpu(const struct stk_func *fn)
{
	return fn->dso && !strcmp(fn->dso, OFFCPU_LEAF);
}

bool export_stack_offcpu(const struct stacks *s, const struct stk_stack *st)
{
	return st->depth &&
	       export_func_offcpu(stacks_func(s, stacks_frame(s,
						st->frame[0])->func));
}

const char *export_ns_measure(struct stacks *s, const struct export_meta *m)
{
	const struct stk_stack *const *st;
	size_t n, i;

	if (!m->ns_weights)
		return NULL;
	st = stacks_sorted(s, &n);
	for (i = 0; st && i < n; i++)
		if (!export_stack_offcpu(s, st[i]))
			return "wall-clock";
	return "off-cpu";
}

void export_put_ns(FILE *f, uint64_t ns)
{
	static const struct { double div; const char *unit; } units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if ((double)ns >= units[i].div) {
			fprintf(f, "%.3g %s", (double)ns / units[i].div,
				units[i].unit);
			return;
		}
	fprintf(f, "%" PRIu64 " ns", ns);
}

bool export_time_event(const struct export_meta *m)
{
	if (m->ns_weights)
		return true;
	return m->attr && feed_time_event(m->attr);
}
