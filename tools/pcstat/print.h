/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print.h - the rows pcstat prints and the three layouts that print them. */
#ifndef PCSTAT_PRINT_H
#define PCSTAT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "metric.h"
#include "pcstat.h"
#include "stat.h"
#include "topology.h"

/* One line of output: an event, on all units or one CPU/thread. */
struct row {
	const char *name;	/* as the user wrote it */
	const char *unit;	/* "msec" or "" */
	const char *cgroup;	/* -G: the cgroup or ""; NULL: no column */
	double scale;		/* raw count -> shown value (1e-6 for clocks) */
	const struct unit *where; /* NULL when aggregated */
	const struct aggr_id *aggr; /* --per-socket etc.: the group, or NULL */
	struct aggr_id tool_aggr; /* a tool event's group: its CPUs in it */
	bool have_ts;		/* interval mode: ts_ns is the time stamp */
	uint64_t ts_ns;
	double val;		/* scaled for multiplexing, raw units */
	uint64_t ena, run;	/* ns enabled and running */
	bool noise_shown;	/* -r: noise is meaningful */
	double noise;		/* relative stddev of the mean, % */
	bool supported, counted;
	struct metric m;
	/* Multiplexed (it or its metric's divisor ran less than enabled,
	   and the run was ticked): the 95% intervals follow perf's line
	   or fields.  Half-widths in val's and m.val's units. */
	bool mux;
	bool val_ci_known, m_ci_known;	/* enough ticks for a width */
	double val_ci, m_ci;
	double measured;	/* the least share of time counted, 0..1 */
};

struct print_ctx {
	const struct config *cfg;
	FILE *f;
};

/* A layout: a table entry per output format. */
struct printer {
	void (*interval_header)(const struct print_ctx *pc);
	void (*row)(const struct print_ctx *pc, const struct row *r);
};

extern const struct printer print_std, print_csv, print_json;

/* The columns the std layout pads to (perf's stat-display.c). */
#define STD_COUNTS_LEN 18
#define STD_UNIT_LEN 4
#define STD_NAME_LEN 32
#define STD_NAME_LEN_UNCOUNTED 25
#define STD_METRIC_LEN 35
#define CNTR_NOT_SUPPORTED "<not supported>"
#define CNTR_NOT_COUNTED "<not counted>"

/*
 * Print the counts in st (mean of its runs): the header, one row per event
 * and slot, and the footer (std layout, not in interval mode).  ts_ns is
 * the time stamp in interval mode, else ignored; last is the last run
 * (rusage), nruns the number of runs in st.
 */
void print_counts(const struct config *cfg, const struct cset *cs,
		  const struct stats *st, const struct run_result *last,
		  bool interval, uint64_t ts_ns);

/*
 * -v: perf's "NAME: VALUE ENABLED RUNNING" line per event, the raw sums
 * over every unit, unscaled, as perf prints them before the counts.
 */
void print_verbose(const struct config *cfg, const struct cset *cs, FILE *f);

#endif
