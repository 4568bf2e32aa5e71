/* SPDX-License-Identifier: GPL-2.0-or-later */
/* muxci.c - the ratio estimator of multiplexed counts and its variance. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "muxci.h"

void muxci_init(struct muxci *m, size_t k)
{
	memset(m, 0, sizeof(*m));
	m->k = k;
	/* k + 1: xcalloc(0) may return NULL */
	m->mean = xcalloc(2 * (k + 1), sizeof(*m->mean));
	m->com = xcalloc(4 * (k + 1) * (k + 1), sizeof(*m->com));
	m->sum_e = xcalloc(k + 1, sizeof(*m->sum_e));
}

void muxci_reset(struct muxci *m)
{
	m->n = 0;
	memset(m->mean, 0, 2 * m->k * sizeof(*m->mean));
	memset(m->com, 0, 4 * m->k * m->k * sizeof(*m->com));
	memset(m->sum_e, 0, m->k * sizeof(*m->sum_e));
}

void muxci_release(struct muxci *m)
{
	free(m->mean);
	free(m->com);
	free(m->sum_e);
	memset(m, 0, sizeof(*m));
}

void muxci_add(struct muxci *m, const double *c, const double *r,
	       const double *e)
{
	size_t d = 2 * m->k;
	double x[d ? d : 1], delta[d ? d : 1];

	m->n++;
	for (size_t j = 0; j < m->k; j++) {
		x[2 * j] = c[j];
		x[2 * j + 1] = r[j];
		m->sum_e[j] += e[j];
	}
	for (size_t i = 0; i < d; i++) {
		delta[i] = x[i] - m->mean[i];
		m->mean[i] += delta[i] / (double)m->n;
	}
	/* Welford's co-moments: the old mean's deviation times the new's. */
	for (size_t i = 0; i < d; i++)
		for (size_t j = 0; j < d; j++)
			m->com[i * d + j] += delta[i] * (x[j] - m->mean[j]);
}

double muxci_fraction(const struct muxci *m, size_t j)
{
	double run = m->mean[2 * j + 1] * (double)m->n;

	if (m->sum_e[j] <= 0)
		return 1.0;
	return run >= m->sum_e[j] ? 1.0 : run / m->sum_e[j];
}

/* Can counter j's total be estimated, with a variance? */
static bool estimable(const struct muxci *m, size_t j)
{
	return j < m->k && m->n >= 2 && m->mean[2 * j] > 0 &&
	       m->mean[2 * j + 1] > 0 && m->sum_e[j] > 0;
}

/*
 * cov(T_a, T_b) / (T_a T_b): the residuals d_i = c_i - R r_i have
 * sum d_a d_b = C(ca,cb) - R_b C(ca,rb) - R_a C(ra,cb) + R_a R_b C(ra,rb)
 * over the co-moments C (their mean is 0: R is the ratio of the means),
 * and T = R E with R = cbar / rbar turns (1 - f) s^2 / (n rbar^2) E^2
 * into (1 - f) s^2 / (n cbar^2) relative to T^2.
 */
static double rel_cov(const struct muxci *m, size_t a, size_t b)
{
	size_t d = 2 * m->k;
	double ra = m->mean[2 * a] / m->mean[2 * a + 1];
	double rb = m->mean[2 * b] / m->mean[2 * b + 1];
	double fpc = sqrt((1 - muxci_fraction(m, a)) *
			  (1 - muxci_fraction(m, b)));
	double s = m->com[2 * a * d + 2 * b] -
		   rb * m->com[2 * a * d + 2 * b + 1] -
		   ra * m->com[(2 * a + 1) * d + 2 * b] +
		   ra * rb * m->com[(2 * a + 1) * d + 2 * b + 1];
	double n = (double)m->n;

	s /= n - 1;
	return fpc * s / (n * m->mean[2 * a] * m->mean[2 * b]);
}

bool muxci_total(const struct muxci *m, size_t j, double *est,
		 double *rel_var)
{
	double v;

	if (!estimable(m, j))
		return false;
	*est = m->mean[2 * j] / m->mean[2 * j + 1] * m->sum_e[j];
	v = rel_cov(m, j, j);
	*rel_var = v > 0 ? v : 0;	/* rounding of a sum of squares */
	return true;
}

bool muxci_ratio(const struct muxci *m, size_t a, size_t b, double *rel_var)
{
	double v;

	if (!estimable(m, a) || !estimable(m, b))
		return false;
	v = rel_cov(m, a, a) + rel_cov(m, b, b) - 2 * rel_cov(m, a, b);
	*rel_var = v > 0 ? v : 0;
	return true;
}
