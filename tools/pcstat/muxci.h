/* SPDX-License-Identifier: GPL-2.0-or-later */
/* muxci.h - 95% intervals of multiplexed counts, from reads at ticks. */
#ifndef PCSTAT_MUXCI_H
#define PCSTAT_MUXCI_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A pure model: k counters read together at ticks.  Each tick gives, per
 * counter j, the delta count c, the delta time running r and the delta
 * time enabled e.  The run is a population of ticks of which counter j
 * observed the fraction f = sum r / sum e (the kernel's rotation, taken as
 * unrelated to the program's phases).  Counter j's total is the ratio
 * estimator T = sum c / sum r * sum e (perf's scaled count when the ticks
 * cover the run), with the variance of a ratio estimate of a sample
 * without replacement:
 *
 *	var T = (1 - f) * s^2 / (n * rbar^2) * E^2,
 *	s^2 = sum (c_i - R r_i)^2 / (n - 1),  R = sum c / sum r,
 *
 * so a counter that ran all the time (f = 1) has none.  Two counters'
 * covariance is the same sum over the ticks' residuals, its correction
 * sqrt((1 - f_a) (1 - f_b)); a ratio of two counts gets its variance from
 * both by the delta method.
 *
 * Sums are kept as co-moments about the running means (Welford), so a
 * run of counts near 2^40 loses no digits to cancellation, and the model
 * holds O(k^2) numbers however many ticks it sees.
 */
struct muxci {
	size_t k;		/* counters */
	unsigned long n;	/* ticks */
	double *mean;		/* 2k: the means of c_j (2j), r_j (2j+1) */
	double *com;		/* 2k x 2k: sum (x - mean x)(y - mean y) */
	double *sum_e;		/* k: time enabled over all the ticks */
};

/* z of a two-sided 95% normal interval. */
#define MUXCI_Z95 1.959963984540054

/* A model of k counters and no ticks; muxci_release() frees it. */
void muxci_init(struct muxci *m, size_t k);
/* Forget every tick (an -I interval starts). */
void muxci_reset(struct muxci *m);
void muxci_release(struct muxci *m);

/* One tick: c[j], r[j], e[j] for each of the k counters. */
void muxci_add(struct muxci *m, const double *c, const double *r,
	       const double *e);

/* The fraction of its time enabled that counter j ran, 1 when never. */
double muxci_fraction(const struct muxci *m, size_t j);

/*
 * Counter j's estimated total (*est) and the variance of that estimate
 * relative to its square (*rel_var, so that the 95% half-width of any
 * value proportional to the total is z * sqrt(rel_var) * value).  Returns
 * false, leaving both unset, when the ticks cannot say: fewer than two,
 * or nothing counted.
 */
bool muxci_total(const struct muxci *m, size_t j, double *est,
		 double *rel_var);

/*
 * The relative variance of the ratio of counter a's total to counter b's
 * (the delta method: var(a)/a^2 + var(b)/b^2 - 2 cov(a,b)/(a b)); b may
 * be a count that ran all the time, which adds nothing.  False as
 * muxci_total() for either.
 */
bool muxci_ratio(const struct muxci *m, size_t a, size_t b, double *rel_var);

#endif
