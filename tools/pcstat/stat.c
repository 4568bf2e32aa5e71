/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stat.c - aggregation of counts over units and runs; -r mean/noise/median. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "stat.h"

void acc_add(struct acc *a, unsigned cap, double v)
{
	double delta = v - a->mean;

	if (a->vals == NULL)
		a->vals = xcalloc(cap ? cap : 1, sizeof(double));
	if (a->n < (cap ? cap : 1))
		a->vals[a->n] = v;
	a->n++;
	a->mean += delta / a->n;
	a->m2 += delta * (v - a->mean);
}

double acc_stddev_mean(const struct acc *a)
{
	if (a->n < 2)
		return 0.0;
	return sqrt(a->m2 / (a->n - 1) / a->n);
}

double acc_noise_pct(const struct acc *a)
{
	return a->mean ? 100.0 * acc_stddev_mean(a) / a->mean : 0.0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double acc_median(const struct acc *a)
{
	double *v, m;

	if (a->n == 0)
		return 0.0;
	v = xmalloc(a->n * sizeof(*v));
	memcpy(v, a->vals, a->n * sizeof(*v));
	qsort(v, a->n, sizeof(*v), cmp_double);
	m = a->n % 2 ? v[a->n / 2] : (v[a->n / 2 - 1] + v[a->n / 2]) / 2;
	free(v);
	return m;
}

double acc_min(const struct acc *a)
{
	double m = a->n ? a->vals[0] : 0.0;

	for (unsigned i = 1; i < a->n; i++)
		if (a->vals[i] < m)
			m = a->vals[i];
	return m;
}

double acc_max(const struct acc *a)
{
	double m = a->n ? a->vals[0] : 0.0;

	for (unsigned i = 1; i < a->n; i++)
		if (a->vals[i] > m)
			m = a->vals[i];
	return m;
}

void stats_init(struct stats *st, size_t nev, size_t nslots, unsigned cap)
{
	memset(st, 0, sizeof(*st));
	st->nev = nev;
	st->nslots = nslots;
	st->cap = cap;
	st->slot = xcalloc(nev * nslots, sizeof(*st->slot));
}

static void acc_release(struct acc *a)
{
	free(a->vals);
	memset(a, 0, sizeof(*a));
}

void stats_reset(struct stats *st)
{
	for (size_t i = 0; i < st->nev * st->nslots; i++) {
		acc_release(&st->slot[i].val);
		acc_release(&st->slot[i].ena);
		acc_release(&st->slot[i].run);
	}
	acc_release(&st->wall);
}

void stats_release(struct stats *st)
{
	stats_reset(st);
	free(st->slot);
	memset(st, 0, sizeof(*st));
}

void stats_add_run(struct stats *st, const struct cset *cs,
		   const struct pc_count *base, enum aggr_mode aggr,
		   double wall_ns)
{
	/* Sum, then scale, as perf does for aggregates. */
	struct pc_count *sum = xcalloc(st->nslots, sizeof(*sum));

	for (size_t e = 0; e < cs->nev; e++) {
		memset(sum, 0, st->nslots * sizeof(*sum));
		for (size_t u = 0; u < cs->nunits; u++) {
			size_t i = e * cs->nunits + u;
			size_t s = stats_slot(aggr, st->unit_slot, u);

			if (s >= st->nslots)
				continue;
			sum[s].value += cs->cur[i].value - (base ? base[i].value : 0);
			sum[s].enabled += cs->cur[i].enabled -
					  (base ? base[i].enabled : 0);
			sum[s].running += cs->cur[i].running -
					  (base ? base[i].running : 0);
		}
		for (size_t s = 0; s < st->nslots; s++) {
			struct row_stat *rs = &st->slot[e * st->nslots + s];

			/* An integer, as perf_counts_values__scale() keeps it. */
			acc_add(&rs->val, st->cap, st->no_scale ?
				(double)sum[s].value :
				(double)(uint64_t)pc_count_scaled(&sum[s],
								  NULL));
			acc_add(&rs->ena, st->cap, (double)sum[s].enabled);
			acc_add(&rs->run, st->cap, (double)sum[s].running);
		}
	}
	free(sum);
	acc_add(&st->wall, st->cap, wall_ns);
}
