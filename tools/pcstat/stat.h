/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stat.h - counts of one or many runs, per row: mean, noise, median. */
#ifndef PCSTAT_STAT_H
#define PCSTAT_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "pcstat.h"

struct ticks;

/* One accumulated quantity over runs (Welford), with every sample kept. */
struct acc {
	unsigned n;
	double mean, m2;
	double *vals;		/* n samples, for median/min/max */
};

/* The statistics of one row: an event on a slot (all, one CPU, one thread). */
struct row_stat {
	struct acc val;		/* scaled count */
	struct acc ena, run;	/* times enabled and running, ns */
};

/*
 * slot[ev * nslots + s]; nslots is 1 when aggregating, else one per unit.
 * cap is the most runs that will be added (the -r count).
 */
struct stats {
	size_t nev, nslots;
	unsigned cap;
	struct row_stat *slot;
	struct acc wall;
	bool no_scale;		/* --no-scale: values as read, unscaled */
	const size_t *unit_slot; /* per unit its slot (--per-socket...), or
				   NULL: slot = unit (or 0 when global) */
	struct ticks *ticks;	/* the counts at internal ticks, for the
				   multiplexing intervals; NULL: none */
};

/* The slot that unit u's counts go to, as aggr and unit_slot say. */
static inline size_t stats_slot(enum aggr_mode aggr, const size_t *unit_slot,
				size_t u)
{
	return aggr == AGGR_GLOBAL ? 0 : unit_slot ? unit_slot[u] : u;
}

void stats_init(struct stats *st, size_t nev, size_t nslots, unsigned cap);
void stats_reset(struct stats *st);
void stats_release(struct stats *st);

/*
 * Add one run: cs->cur minus base (the previous read in interval mode, or
 * NULL), summed per slot as aggr says, scaled for multiplexing.
 */
void stats_add_run(struct stats *st, const struct cset *cs,
		   const struct pc_count *base, enum aggr_mode aggr,
		   double wall_ns);

void acc_add(struct acc *a, unsigned cap, double v);
/* perf's noise: the standard error of the mean, in % of the mean. */
double acc_noise_pct(const struct acc *a);
double acc_stddev_mean(const struct acc *a);
double acc_median(const struct acc *a);
double acc_min(const struct acc *a);
double acc_max(const struct acc *a);

/* llround() of a mean of counts or times (>= 0, < 2^53), without libm. */
static inline uint64_t stat_round(double v)
{
	uint64_t i = (uint64_t)v;

	return v - (double)i >= 0.5 ? i + 1 : i;
}

#endif
