/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print-std.c - perf stat's human layout, column for column. */
#include "config.h"

#include <string.h>

#include "util/esc-print.h"
#include "print.h"

/* Metric formats come from metric.c's const table, never from input. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static void std_aggr(FILE *f, enum aggr_mode mode, const struct aggr_id *id)
{
	if (mode == AGGR_CORE)
		fprintf(f, "S%d-D%d-C%-8d %4d ", id->socket, id->die, id->core,
			id->nr);
	else if (mode == AGGR_DIE)
		fprintf(f, "S%d-D%-8d %4d ", id->socket, id->die, id->nr);
	else if (mode == AGGR_NODE)
		fprintf(f, "N%-5d %4d ", id->node, id->nr);
	else if (mode == AGGR_CACHE) {	/* later perf's: "%-22s %4d " */
		char buf[64];

		topo_label(mode, id, buf, sizeof(buf));
		fprintf(f, "%-22s %4d ", buf, id->nr);
	}
	else
		fprintf(f, "S%-5d %4d ", id->socket, id->nr);
}

static void std_prefix(const struct print_ctx *pc, const struct row *r)
{
	FILE *f = pc->f;

	if (r->have_ts)
		fprintf(f, "%6lu.%09lu ", (unsigned long)(r->ts_ns / 1000000000u),
			(unsigned long)(r->ts_ns % 1000000000u));
	if (r->aggr)	/* perf's aggr_printout(): its paddings */
		std_aggr(f, pc->cfg->aggr, r->aggr);
	else if (r->where && r->where->cpu >= 0)
		fprintf(f, "CPU%-7d ", r->where->cpu);
	else if (r->where) {
		esc_print_visible_pad(f, r->where->comm, 16);	/* the target's */
		fprintf(f, "-%-8d ", (int)r->where->tid);
	}
}

/* perf's print_metric_std(): " # " value, unit, padded to 38 columns. */
static void std_metric(FILE *f, const struct metric *m)
{
	int n;

	if (m->fmt == NULL) {
		fprintf(f, "%-*s", STD_METRIC_LEN, "");
		return;
	}
	n = fprintf(f, " # ");
	n += fprintf(f, m->fmt, m->val);
	fprintf(f, " %-*s", STD_METRIC_LEN - n - 1, m->unit);
}

/*
 * Ours, on a comment line below perf's (which stays as perf prints it):
 * a multiplexed count's 95% interval and its metric's,
 * "#  ±12,345  instructions  # 1.36 ±0.04 insn per cycle (62% measured)";
 * "±-" where the ticks were too few for a width.
 */
static void std_ci(const struct print_ctx *pc, const struct row *r)
{
	FILE *f = pc->f;
	char w[64], v[64], *mv = v;

	std_prefix(pc, r);
	if (r->val_ci_known)
		snprintf(w, sizeof(w), r->scale != 1.0 ? "\u00b1%'.2f" :
			 "\u00b1%'.0f", r->val_ci * r->scale);
	else
		snprintf(w, sizeof(w), "\u00b1-");
	/* "±" is two bytes, one column: the count's column, one wider */
	fprintf(f, "#%*s ", STD_COUNTS_LEN, w);
	fprintf(f, "%-*s ", STD_UNIT_LEN, r->unit);
	fprintf(f, "%-*s", STD_NAME_LEN, r->name);
	if (r->m.fmt) {
		snprintf(v, sizeof(v), r->m.fmt, r->m.val);
		while (*mv == ' ')
			mv++;
		mv[strcspn(mv, " ")] = '\0';
		if (r->m_ci_known)
			snprintf(w, sizeof(w), "\u00b1%.*f",
				 metric_decimals(&r->m), r->m_ci);
		else
			snprintf(w, sizeof(w), "\u00b1-");
		fprintf(f, " # %s %s %s", mv, w, r->m.unit);
	}
	fprintf(f, " (%.0f%% measured)\n", 100.0 * r->measured);
}

static void std_row(const struct print_ctx *pc, const struct row *r)
{
	FILE *f = pc->f;

	std_prefix(pc, r);
	if (r->counted) {
		/* perf's big_num: thousands grouped as LC_NUMERIC says
		   (main() sets the locale for this layout only). */
		fprintf(f, r->scale != 1.0 ? "%'*.2f " : "%'*.0f ",
			STD_COUNTS_LEN, r->val * r->scale);
		fprintf(f, "%-*s ", STD_UNIT_LEN, r->unit);
		fprintf(f, "%-*s", STD_NAME_LEN, r->name);
		if (r->cgroup)	/* perf's print_cgroup() */
			fprintf(f, " %s", r->cgroup);
		std_metric(f, &r->m);
	} else {
		fprintf(f, "%*s ", STD_COUNTS_LEN,
			r->supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED);
		fprintf(f, "%-*s ", STD_UNIT_LEN, r->unit);
		fprintf(f, "%-*s", STD_NAME_LEN_UNCOUNTED, r->name);
		if (r->cgroup)
			fprintf(f, " %s", r->cgroup);
		fprintf(f, "%-*s", STD_METRIC_LEN, "");
	}
	if (r->noise_shown && r->noise != 0)
		fprintf(f, "  ( +-%6.2f%% )", r->noise);
	if (r->run != r->ena)
		fprintf(f, "  (%.2f%%)", 100.0 * (double)r->run / (double)r->ena);
	fputc('\n', f);
	if (r->mux)
		std_ci(pc, r);
}

static void std_interval_header(const struct print_ctx *pc)
{
	static const char *const aggr_col[] = {
		[AGGR_GLOBAL] = "",
		[AGGR_CPU] = " CPU       ",
		[AGGR_THREAD] = "             comm-pid     ",
	};
	const struct topo_mode *tm = topo_mode(pc->cfg->aggr);

	if (tm) {	/* "#           time socket cpus             counts" */
		fprintf(pc->f, "#%15s %s cpus%*s %*s events\n", "time",
			tm->interval_col, STD_COUNTS_LEN + 1, "counts",
			STD_UNIT_LEN, "unit");
		return;
	}
	fprintf(pc->f, "#%15s%s %*s %*s events\n", "time",
		aggr_col[pc->cfg->aggr], STD_COUNTS_LEN, "counts", STD_UNIT_LEN,
		"unit");
}

const struct printer print_std = {
	.interval_header = std_interval_header,
	.row = std_row,
};
