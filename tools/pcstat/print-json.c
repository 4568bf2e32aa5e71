/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print-json.c - perf stat -j: one JSON object per line, perf's keys. */
#include "config.h"

#include "print.h"
#include "util/esc-print.h"

static void json_row(const struct print_ctx *pc, const struct row *r)
{
	FILE *f = pc->f;
	uint64_t pct = r->run != r->ena && r->ena ? 100 * r->run / r->ena : 100;

	fputc('{', f);
	if (r->have_ts)
		fprintf(f, "\"interval\" : %lu.%09lu, ",
			(unsigned long)(r->ts_ns / 1000000000u),
			(unsigned long)(r->ts_ns % 1000000000u));
	if (r->aggr) {
		char id[48];

		topo_label(pc->cfg->aggr, r->aggr, id, sizeof(id));
		fprintf(f, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ",
			topo_mode(pc->cfg->aggr)->json_key, id, r->aggr->nr);
	} else if (r->where && r->where->cpu >= 0) {
		fprintf(f, "\"cpu\" : \"%d\", ", r->where->cpu);
	} else if (r->where) {
		fprintf(f, "\"thread\" : \"");
		esc_print_json(f, r->where->comm);
		fprintf(f, "-%d\", ", (int)r->where->tid);
	}
	if (r->counted)
		fprintf(f, "\"counter-value\" : \"%f\", ", r->val * r->scale);
	else
		fprintf(f, "\"counter-value\" : \"%s\", ", r->supported ?
			CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED);
	fprintf(f, "\"unit\" : \"%s\", \"event\" : \"", r->unit);
	esc_print_json(f, r->name);
	fprintf(f, "\", ");
	if (r->cgroup) {
		fprintf(f, "\"cgroup\" : \"");
		esc_print_json(f, r->cgroup);
		fprintf(f, "\", ");
	}
	if (r->noise_shown)
		fprintf(f, "\"variance\" : %.2f, ", r->noise);
	fprintf(f, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
		(unsigned long long)r->run, (double)pct);
	/* perf prints "(null)" for an event without a metric: we print "". */
	fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"",
		r->counted && r->m.fmt ? r->m.val : 0.0,
		r->counted && r->m.fmt ? r->m.unit : "");
	/* Ours, after perf's keys: the 95% half-widths, null if unknown. */
	if (r->mux) {
		fputs(", \"counter-ci95\" : ", f);
		if (r->val_ci_known)
			fprintf(f, "%f", r->val_ci * r->scale);
		else
			fputs("null", f);
		fputs(", \"metric-ci95\" : ", f);
		if (r->m_ci_known)
			fprintf(f, "%f", r->m_ci);
		else
			fputs("null", f);
	}
	fputs("}\n", f);
}

const struct printer print_json = {
	.row = json_row,
};
