/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metric.h - derived metrics shown on the right of a count, as perf does. */
#ifndef PCSTAT_METRIC_H
#define PCSTAT_METRIC_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Counts other rows contribute to a row's metric (same CPU/thread). */
enum metric_input {
	MI_NSECS,		/* task-clock or cpu-clock, ns */
	MI_CYCLES,
	MI_BRANCHES,
	MI_CACHE_REFS,
	MI_L1D_LOADS,
	MI_L1I_LOADS,
	MI_LLC_LOADS,
	MI_DTLB_LOADS,
	MI_ITLB_LOADS,
	MI_MAX,
};

struct metric_ctx {
	double v[MI_MAX];
	bool have[MI_MAX];
	double wall_ns;		/* elapsed (or the interval), for CPUs utilized */
};

/*
 * A metric: fmt == NULL means none to print (the std layout pads the
 * column; CSV prints empty fields).  unit points into unit_buf or to a
 * static string.
 */
struct metric {
	const char *fmt;
	const char *unit;
	double val;
	char unit_buf[16];
};

/* A clock event (task-clock, cpu-clock): value in ns, shown in msec. */
bool metric_is_clock(const struct perf_event_attr *attr);

/* Record val of an event that other metrics divide by. */
void metric_ctx_add(struct metric_ctx *ctx, const struct perf_event_attr *attr,
		    double val);

/* The input an event of attr feeds (metric_ctx_add()), MI_MAX if none. */
enum metric_input metric_input_of(const struct perf_event_attr *attr);

/*
 * The input the metric of attr divides by, MI_MAX when it divides by
 * none that is counted (CPUs utilized: the wall time).
 */
enum metric_input metric_divisor(const struct perf_event_attr *attr);

/* The decimals m's format prints ("%7.2f " -> 2), for its interval. */
int metric_decimals(const struct metric *m);

/* The metric of event attr with count val, given ctx. */
void metric_compute(struct metric *m, const struct perf_event_attr *attr,
		    double val, const struct metric_ctx *ctx);

#endif
