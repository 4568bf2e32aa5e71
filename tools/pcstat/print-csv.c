/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print-csv.c - perf stat -x SEP: value, unit, event, [noise,] run time,
 * percent running, metric value, metric unit. */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "util/esc-print.h"
#include "print.h"

/* Metric formats come from metric.c's const table, never from input. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static void csv_row(const struct print_ctx *pc, const struct row *r)
{
	const char *sep = pc->cfg->sep;
	FILE *f = pc->f;
	/* perf divides in integers here: the percentage has no fraction. */
	uint64_t pct = r->run != r->ena && r->ena ? 100 * r->run / r->ena : 100;

	if (r->have_ts)
		fprintf(f, "%6lu.%09lu%s", (unsigned long)(r->ts_ns / 1000000000u),
			(unsigned long)(r->ts_ns % 1000000000u), sep);
	else if (pc->cfg->summary && pc->cfg->interval_ms &&
		 !pc->cfg->no_csv_summary)	/* in the time stamp's place */
		fprintf(f, "%16s%s", "summary", sep);
	if (r->aggr) {
		char id[48];

		topo_label(pc->cfg->aggr, r->aggr, id, sizeof(id));
		fprintf(f, "%s%s%d%s", id, sep, r->aggr->nr, sep);
	} else if (r->where && r->where->cpu >= 0)
		fprintf(f, "CPU%d%s", r->where->cpu, sep);
	else if (r->where) {
		char id[64];	/* the target's name, quoted as CSV needs */

		snprintf(id, sizeof(id), "%s-%d", r->where->comm,
			 (int)r->where->tid);
		esc_print_csv(f, id, sep);
		fputs(sep, f);
	}
	if (r->counted)
		fprintf(f, r->scale != 1.0 ? "%.2f%s" : "%.0f%s",
			r->val * r->scale, sep);
	else
		fprintf(f, "%s%s", r->supported ? CNTR_NOT_COUNTED :
			CNTR_NOT_SUPPORTED, sep);
	fprintf(f, "%s%s%s", r->unit, sep, r->name);
	if (r->cgroup)
		fprintf(f, "%s%s", sep, r->cgroup);
	if (r->noise_shown)
		fprintf(f, "%s%.2f%%", sep, r->noise);
	fprintf(f, "%s%llu%s%.2f", sep, (unsigned long long)r->run, sep,
		(double)pct);
	if (r->counted && r->m.fmt) {
		char buf[64], *v = buf, *end;

		/* perf keeps only the number: "   0.180" -> "0.180". */
		snprintf(buf, sizeof(buf), r->m.fmt, r->m.val);
		while (isspace((unsigned char)*v))
			v++;
		for (end = v; isdigit((unsigned char)*end) || *end == '.'; end++)
			;
		*end = '\0';
		fprintf(f, "%s%s%s%s", sep, v, sep, r->m.unit);
	} else {
		fprintf(f, "%s%s", sep, sep);
	}
	/* Ours, after perf's fields: the 95% half-widths of the count and
	   of the metric, empty where unknown (too few ticks, no metric). */
	if (r->mux) {
		fputs(sep, f);
		if (r->val_ci_known)
			fprintf(f, r->scale != 1.0 ? "%.2f" : "%.0f",
				r->val_ci * r->scale);
		fputs(sep, f);
		if (r->m_ci_known)
			fprintf(f, "%.*f", metric_decimals(&r->m),
				r->m_ci);
	}
	fputc('\n', f);
}

const struct printer print_csv = {
	.row = csv_row,
};
