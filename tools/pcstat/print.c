/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print.c - turn statistics into rows; perf's header and footer. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "util/esc-print.h"
#include "util/output.h"
#include "util/xmalloc.h"
#include "cgroup.h"
#include "print.h"
#include "ticks.h"

static const struct printer *const printers[] = {
	[FMT_STD] = &print_std,
	[FMT_CSV] = &print_csv,
	[FMT_JSON] = &print_json,
};

static void print_header(const struct config *cfg, const struct stats *st,
			 FILE *f)
{
	fprintf(f, "\n Performance counter stats for ");
	if (cfg->system_wide)
		fprintf(f, "'system wide");
	else if (cfg->cpu_str)
		fprintf(f, "'CPU(s) %s", cfg->cpu_str);
	else if (cfg->pid_str)
		fprintf(f, "process id '%s", cfg->pid_str);
	else if (cfg->tid_str)
		fprintf(f, "thread id '%s", cfg->tid_str);
	else {
		/* the command's words shown, never run on the terminal */
		fputc('\'', f);
		esc_print_visible(f, cfg->argv[0]);
		for (int i = 1; cfg->argv[i]; i++) {
			fputc(' ', f);
			esc_print_visible(f, cfg->argv[i]);
		}
	}
	fprintf(f, "'");
	/* the runs counted: fewer than -r when a signal cut them short, and
	   the same number the footer gives */
	if (cfg->run_count > 1)
		fprintf(f, " (%u runs)", st->wall.n);
	fprintf(f, ":\n\n");
}

/*
 * perf's get_precision(), lround(ceil(-log10(sd))) + 2: 2 digits more than
 * the stddev's first.  Counted, not computed: pcstat needs no libm, whose
 * loading alone costs a run of `pcstat -- true` a tenth of its faults.
 */
static int precision(double sd)
{
	double p = 1.0;
	int k = 0;

	if (sd > 1 || sd <= 0)
		return sd <= 0 ? 7 : 2;
	while (sd < p && k < 400) {	/* the first k with sd >= 10^-k */
		p /= 10;
		k++;
	}
	return k + 2;
}

static void print_table(FILE *f, const struct acc *wall, int prec)
{
	double avg = wall->mean / 1e9;
	char tmp[64];
	int indent = 0;

	snprintf(tmp, sizeof(tmp), " %17.*f", prec, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
	for (unsigned i = 0; i < wall->n; i++) {
		double run = wall->vals[i] / 1e9;
		int n = 1 + abs((int)(100.0 * (run - avg) / run) / 5);

		fprintf(f, " %17.*f (%+.*f) ", prec, run, prec, run - avg);
		while (n--)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n%*s# Final result:\n", indent, "");
}

static void print_footer(const struct config *cfg, const struct stats *st,
			 const struct run_result *last, FILE *f)
{
	const struct acc *w = &st->wall;

	if (st->nev)	/* -n: no rows, no blank line after them */
		fprintf(f, "\n");
	if (w->n <= 1) {
		fprintf(f, " %17.9f seconds time elapsed", w->mean / 1e9);
		if (last->have_ru) {
			fprintf(f, "\n\n");
			fprintf(f, " %17.9f seconds user\n",
				last->ru.ru_utime.tv_sec +
				last->ru.ru_utime.tv_usec / 1e6);
			fprintf(f, " %17.9f seconds sys\n",
				last->ru.ru_stime.tv_sec +
				last->ru.ru_stime.tv_usec / 1e6);
		}
	} else {
		double sd = acc_stddev_mean(w) / 1e9;
		int prec = precision(sd);

		if (cfg->table)
			print_table(f, w, prec);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec,
			w->mean / 1e9, prec, sd);
		if (acc_noise_pct(w))
			fprintf(f, "  ( +-%6.2f%% )", acc_noise_pct(w));
		/* Ours, on a comment line of its own so perf's layout stays
		   intact and a script grepping perf's "seconds time
		   elapsed" finds one line. */
		fprintf(f, "\n # %15.*f median, %.*f min, %.*f max seconds "
			"of the %u runs", prec, acc_median(w) / 1e9,
			prec, acc_min(w) / 1e9, prec, acc_max(w) / 1e9, w->n);
	}
	fprintf(f, "\n\n");
}

/* The per-event spread of -r --table: median, min, max of each count. */
static void print_spread(const struct config *cfg, const struct stats *st,
			 FILE *f)
{
	fprintf(f, "# %16s %16s %16s  event (%u runs)\n", "median", "min",
		"max", st->wall.n);
	for (size_t e = 0; e < st->nev; e++) {
		const struct acc *a = &st->slot[e * st->nslots].val;
		double sc = metric_is_clock(&cfg->events.ev[e].attr) ? 1e-6 : 1;

		fprintf(f, "# %16.2f %16.2f %16.2f  %s\n", acc_median(a) * sc,
			acc_min(a) * sc, acc_max(a) * sc,
			cfg->events.ev[e].name);
	}
}

static void fill_row(struct row *r, const struct config *cfg,
		     const struct cset *cs, const struct stats *st, size_t e,
		     size_t s)
{
	const struct row_stat *rs = &st->slot[e * st->nslots + s];
	const struct pc_event_spec *ev = &cfg->events.ev[e];
	bool clock = metric_is_clock(&ev->attr);

	memset(r, 0, sizeof(*r));
	r->name = ev->name;
	if (cfg->cgroup_names)
		r->cgroup = cgroup_of(cfg, e) >= 0 ?
			    cfg->cgroups[cgroup_of(cfg, e)].name : "";
	r->unit = clock ? "msec" : ev->attr.type == PC_TYPE_TOOL ? "ns" : "";
	r->scale = clock ? 1e-6 : 1.0;
	r->where = cfg->aggr == AGGR_GLOBAL || cfg->aggr_ids ? NULL
							      : &cs->units[s];
	r->aggr = cfg->aggr_ids ? &cfg->aggr_ids[s] : NULL;
	/* perf counts a tool event on the first CPU alone: its group
	   holds one of its CPUs, the others none (and <not counted>). */
	if (r->aggr && ev->attr.type == PC_TYPE_TOOL) {
		r->tool_aggr = *r->aggr;
		r->tool_aggr.nr = cfg->unit_slot[0] == s;
		r->aggr = &r->tool_aggr;
	}
	r->val = rs->val.mean;
	r->ena = stat_round(rs->ena.mean);
	r->run = stat_round(rs->run.mean);
	r->noise_shown = cfg->run_count > 1;
	r->noise = acc_noise_pct(&rs->val);
	r->supported = cs->supported[e];
	r->counted = r->supported && r->ena > 0 && r->run > 0;
}

/*
 * The 95% intervals of row r (event e) from the ticks of its slot (ci);
 * de is the event its metric divides by, or -1.  Widths are relative to
 * the estimate, so they fit the mean of -r's runs too.
 */
static void fill_ci(struct row *r, const struct muxci *ci, size_t e, int de,
		    const struct row *div)
{
	double est, rv, f = r->ena ? (double)r->run / (double)r->ena : 1;

	r->mux = r->run != r->ena || (div && div->run != div->ena);
	if (!r->mux)
		return;
	if (div && div->ena && (double)div->run / (double)div->ena < f)
		f = (double)div->run / (double)div->ena;
	r->measured = f;
	if (muxci_total(ci, e, &est, &rv)) {
		r->val_ci_known = true;
		r->val_ci = MUXCI_Z95 * sqrt(rv) * r->val;
	}
	if (r->m.fmt == NULL)
		return;
	/* a metric over a count: the delta method; over time: the count's */
	if (de >= 0 ? muxci_ratio(ci, e, (size_t)de, &rv) : r->val_ci_known) {
		r->m_ci_known = true;
		r->m_ci = MUXCI_Z95 * sqrt(rv) * fabs(r->m.val);
	}
}

static const struct row *sort_rows;

static int cmp_row_desc(const void *a, const void *b)
{
	double x = sort_rows[*(const size_t *)a].val;
	double y = sort_rows[*(const size_t *)b].val;

	return (x < y) - (x > y);
}

/*
 * Row (e, s)'s metric context, and the event its input in came from: the
 * functions below that use them name ctx, src, cfg and st so.
 */
#define CTX(e, s) (&ctx[(size_t)(cgroup_of(cfg, e) + 1) * st->nslots + (s)])
#define SRC(e, s, in) (src[((size_t)(cgroup_of(cfg, e) + 1) * st->nslots + \
			    (s)) * MI_MAX + (in)])

/* Fill every row, and each metric context with the counts it takes. */
static void fill_rows(const struct config *cfg, const struct cset *cs,
		      const struct stats *st, struct row *rows,
		      struct metric_ctx *ctx, int *src)
{
	for (size_t e = 0; e < st->nev; e++)
		for (size_t s = 0; s < st->nslots; s++) {
			struct row *r = &rows[e * st->nslots + s];
			const struct perf_event_attr *a =
				&cfg->events.ev[e].attr;

			fill_row(r, cfg, cs, st, e, s);
			if (!r->counted)
				continue;
			metric_ctx_add(CTX(e, s), a, r->val);
			/* the same event metric_ctx_add() took: the first */
			if (metric_input_of(a) != MI_MAX &&
			    SRC(e, s, metric_input_of(a)) < 0)
				SRC(e, s, metric_input_of(a)) = (int)e;
		}
}

/* What comes before the rows: perf's header, or -I's column header. */
static void print_heading(const struct config *cfg, const struct stats *st,
			  const struct printer *p, const struct print_ctx *pc,
			  bool interval)
{
	static unsigned nintervals;

	if (cfg->fmt == FMT_STD && !interval)
		print_header(cfg, st, pc->f);
	/* --interval-clear: perf puts() the clear on stdout, whatever
	   the output, then gives every interval the header, the human
	   one in CSV and JSON too. */
	if (interval && cfg->interval_clear) {
		fputs("\033[H\033[2J\n", stdout);
		fflush(stdout);
		(p->interval_header ? p : &print_std)->interval_header(pc);
	} else if (interval && p->interval_header && nintervals++ % 25 == 0) {
		p->interval_header(pc);
	}
}

/*
 * Print the rows in perf's order, each with its time stamp, its metric
 * and (ci, a ticked run) its intervals.
 */
static void print_rows(const struct print_ctx *pc, const struct printer *p,
		       const struct stats *st, struct row *rows,
		       struct metric_ctx *ctx, const int *src,
		       const struct muxci *ci, bool interval, uint64_t ts_ns)
{
	const struct config *cfg = pc->cfg;
	size_t *order = xcalloc(st->nslots, sizeof(*order));
	/* perf prints each event's CPUs or threads in turn, but with
	   --per-socket and the like each group's events together
	   (print_aggr()): the group is then the outer loop. */
	bool by_group = cfg->aggr_ids != NULL;
	size_t nouter = by_group ? st->nslots : st->nev;
	size_t ninner = by_group ? st->nev : st->nslots;

	for (size_t s = 0; s < st->nslots; s++)
		order[s] = s;
	for (size_t i = 0; i < nouter; i++) {
		/* perf lists threads busiest first. */
		if (cfg->aggr == AGGR_THREAD) {
			for (size_t s = 0; s < st->nslots; s++)
				order[s] = s;
			sort_rows = &rows[i * st->nslots];
			qsort(order, st->nslots, sizeof(*order), cmp_row_desc);
		}
		for (size_t j = 0; j < ninner; j++) {
			size_t e = by_group ? j : i, s = by_group ? i : order[j];
			struct row *r = &rows[e * st->nslots + s];

			/* -A: a tool event has the first CPU's line alone,
			   as perf's (counted there only). */
			if (cfg->aggr == AGGR_CPU && s != 0 &&
			    cfg->events.ev[e].attr.type == PC_TYPE_TOOL)
				continue;
			r->have_ts = interval;
			r->ts_ns = ts_ns;
			if (r->counted)
				metric_compute(&r->m, &cfg->events.ev[e].attr,
					       r->val, CTX(e, s));
			if (r->counted && ci) {
				enum metric_input d =
					metric_divisor(&cfg->events.ev[e].attr);
				int de = d == MI_MAX ? -1 : SRC(e, s, d);

				fill_ci(r, &ci[s], e, de, de < 0 ? NULL :
					&rows[(size_t)de * st->nslots + s]);
			}
			p->row(pc, r);
		}
	}
	free(order);
}
#undef CTX
#undef SRC

void print_counts(const struct config *cfg, const struct cset *cs,
		  const struct stats *st, const struct run_result *last,
		  bool interval, uint64_t ts_ns)
{
	const struct printer *p = printers[cfg->fmt];
	/* The whole report in one write(2), not one per field: stderr is
	   unbuffered, and each write costs (a pipe reader wakes each time). */
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	struct print_ctx pc = { .cfg = cfg, .f = mem ? mem : cfg->out };
	size_t nrows = st->nev * st->nslots;
	struct row *rows = xcalloc(nrows, sizeof(*rows));
	/* Metrics take their inputs from the same cgroup, as perf's do:
	   ctx[(cgroup + 1) * nslots + slot]. */
	size_t nctx = (cfg->ncgroups + 1) * st->nslots;
	struct metric_ctx *ctx = xcalloc(nctx, sizeof(*ctx));
	/* per context and input: the event its value came from, or -1 */
	int *src = xmalloc(nctx * MI_MAX * sizeof(*src));
	/* the ticks of a ticked run: the multiplexing intervals */
	const struct muxci *ci = st->ticks && st->ticks->active ?
				 ticks_models(st->ticks, interval) : NULL;

	for (size_t i = 0; i < nctx * MI_MAX; i++)
		src[i] = -1;
	fill_rows(cfg, cs, st, rows, ctx, src);
	for (size_t i = 0; i < nctx; i++)
		ctx[i].wall_ns = interval ? cfg->interval_ms * 1e6
					  : st->wall.mean;

	print_heading(cfg, st, p, &pc, interval);
	print_rows(&pc, p, st, rows, ctx, src, ci, interval, ts_ns);
	if (cfg->fmt == FMT_STD && !interval) {
		print_footer(cfg, st, last, pc.f);
		if (cfg->table && st->wall.n > 1)
			print_spread(cfg, st, pc.f);
	}
	if (mem && fclose(mem) == 0)
		fwrite(text, 1, text_len, cfg->out);
	else if (mem)
		die_errno("cannot format the counts");
	free(text);
	/* counts that cannot be written are a failure, not a silent loss */
	output_check(cfg->out, cfg->out_name);
	free(src);
	free(ctx);
	free(rows);
}

void print_verbose(const struct config *cfg, const struct cset *cs, FILE *f)
{
	for (size_t e = 0; e < cs->nev; e++) {
		struct pc_count sum = { 0 };

		for (size_t u = 0; u < cs->nunits; u++) {
			sum.value += cs->cur[e * cs->nunits + u].value;
			sum.enabled += cs->cur[e * cs->nunits + u].enabled;
			sum.running += cs->cur[e * cs->nunits + u].running;
		}
		fprintf(f, "%s: %llu %llu %llu\n", cfg->events.ev[e].name,
			(unsigned long long)sum.value,
			(unsigned long long)sum.enabled,
			(unsigned long long)sum.running);
	}
}
