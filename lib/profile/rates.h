/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rates.h - per-function event rates from grouped sampling, each with a
 * 95% interval.  Pure: no I/O, no symbols, no clock -- the tool feeds
 * each sample's function, the leader's count and the members' deltas
 * over the sample's interval (struct feed_sample's lead_delta and
 * deltas), and reads rates back by function.
 *
 * A rate is a ratio of two of a function's values summed over its
 * samples: R = sum x / sum y, where x and y are each the leader's
 * count, a member's delta, or 1 (per sample).  Its interval is the
 * ratio estimator's (the delta method's first order), from the samples'
 * scatter about R:
 *
 *	s^2 = sum (x_i - R y_i)^2 / (n - 1)
 *	se  = sqrt(s^2 / n) / mean(y)
 *	R +- t(0.975, n - 1) * se
 *
 * The samples are the sampling units: each carries the events of one
 * period, so the scatter of x - R y across them is what the rate would
 * vary by between runs, without any model of the events.  Below
 * RATES_MIN_SAMPLES samples (or with sum y == 0) no rate is given.
 *
 * The model keeps, per function, n, the mean of each value and the
 * co-moments sum (v_i - mean_i)(v_j - mean_j) (Welford's update), from
 * which s^2 = (Cxx - 2R Cxy + R^2 Cyy) / (n - 1) without the cancellation
 * raw sums of squares of nanosecond periods would suffer.
 *
 * Never prints, never exits: functions that can fail return -1 (or NULL)
 * with errno set.  Strings are copied.  Not thread-safe.
 */
#ifndef PROFILE_RATES_H
#define PROFILE_RATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Values per sample: 1, the leader's count, then up to 7 members. */
#define RATES_MAX_MEMBERS 7
#define RATES_MIN_SAMPLES 10

/* Which of a sample's values a metric divides. */
enum {
	RATES_ONE = 0,		/* 1: "per sample" */
	RATES_PERIOD = 1,	/* the leader's count over the interval */
	RATES_MEMBER = 2,	/* RATES_MEMBER + i: member i's delta */
};

struct rates;

struct rates_sample {
	const char *sym;		/* NULL is taken as "[unknown]" */
	const char *dso;		/* the same; a function is a (sym,
					   dso) pair, as the tables' rows */
	uint64_t period;		/* the leader's count over the
					   interval: its period, or more */
	const uint64_t *deltas;		/* one per member */
};

/* A model for nmembers members (0 to RATES_MAX_MEMBERS), or NULL with
   errno EINVAL or ENOMEM.  rates_free() frees it (NULL: a no-op). */
struct rates *rates_new(unsigned nmembers);
void rates_free(struct rates *r);

/* Count one sample.  0, or -1 with errno ENOMEM (nothing counted). */
int rates_add(struct rates *r, const struct rates_sample *s);

/* What a rate divides: value num over value den (RATES_*), times scale
   (1e6: per ms of a nanosecond period; 1000: per thousand). */
struct rates_metric {
	unsigned num, den;
	double scale;
	char name[48];		/* as the column heads it: "page-faults/ms" */
};

/* A rate and its interval. */
struct rates_est {
	uint64_t n;		/* samples it rests on */
	bool valid;		/* n >= RATES_MIN_SAMPLES and sum y > 0 */
	double rate;		/* R * scale */
	double half;		/* half the 95% interval's width, scaled */
};

/*
 * The rate of metric m over the samples of (sym, dso) (sym NULL: every
 * sample; dso NULL: "[unknown]").
 * Returns 0 with *out filled (out->valid false when too few samples),
 * or -1 with errno ENOENT (no sample there) or EINVAL (m out of range).
 */
int rates_get(const struct rates *r, const char *sym, const char *dso,
	      const struct rates_metric *m, struct rates_est *out);

/* Sum of value v (RATES_*) over (sym, dso)'s samples (sym NULL: all);
   0 when it has none. */
double rates_sum(const struct rates *r, const char *sym, const char *dso,
		 unsigned v);

/*
 * The function a sample is in, for the rule that counts only intervals
 * that begin and end in one function (feed_sample.same_fn): a known
 * symbol by its start; code without a symbol (sym NULL) by the row the
 * tables show it in -- "[unknown]" of its dso (NULL: "[unknown]") for
 * its cause (enum sym_cause) -- so that a stretch of unresolved code is
 * one function, as it is one row, not one function per address.  Two
 * samples are in the same function when their keys are equal.
 */
uint64_t rates_fn_key(const char *sym, uint64_t start, const char *dso,
		      unsigned cause);

/* t(0.975, df), Student's two-sided 95% quantile (df 0: infinity). */
double rates_t975(uint64_t df);

/* e as the columns show it, "1.36 ±0.04" (the digits the interval
   allows), or "-" when not valid; as snprintf(3), returns buf. */
const char *rates_est_str(const struct rates_est *e, char *buf, size_t size);

/*
 * Parse a metric, the tools' --metric: names[0] is the group's leader,
 * names[1..n) its members (as the tool shows them; alias[i], when not
 * NULL, is a second spelling of names[i]), leader_ns true when the
 * leader counts nanoseconds (cpu-clock, task-clock).
 *
 *	EVENT		EVENT per sample
 *	EVENT/ms	EVENT per ms of the leader (also /s, /us)
 *	EVENT/EVENT2	a ratio of two events of the group
 *	EVENT/kEVENT2	EVENT per thousand EVENT2
 *	ipc		instructions/cycles;  cpi: cycles/instructions
 *
 * Returns 0 with *m filled, or -1 with errno EINVAL and a line into err
 * saying what is wrong and the fix.
 */
int rates_metric_parse(const char *str, const char *const *names,
		       const char *const *alias, unsigned n, bool leader_ns,
		       struct rates_metric *m, char *err, size_t errsize);

#endif /* PROFILE_RATES_H */
