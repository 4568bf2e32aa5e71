/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics.h - grouped sampling on the samplers' command line (monitor,
 * kerneltop): whether -e asks for it ("{cpu-clock,page-faults}:S"), the
 * --metric rates shown, and the rates counted from the feed's samples.
 * For tools: these exit on bad input.
 */
#ifndef SAMPLING_CLI_METRICS_H
#define SAMPLING_CLI_METRICS_H

#include <stdbool.h>

#include <sysapi/event.h>

#include "profile/feed.h"
#include "profile/rates.h"

#define METRICS_MAX 8

struct metrics {
	struct rates_metric m[METRICS_MAX];
	unsigned n;
	struct rates *rates;	/* the samples' rates, by function */
};

/*
 * Whether list asks for grouped sampling: one group whose modifiers have
 * perf's S, and no other event (exit 2 when S comes with others, or the
 * group has more than RATES_MAX_MEMBERS members).
 */
bool metrics_group_read(const struct pc_event_list *list);

/*
 * The metrics of --metric (args, n of them) for the group list names
 * (names[i]: event i as the tool shows it; the user's spelling is taken
 * too), leader its attr as sampled; none given: each member per ms of
 * the leader where it counts time (cpu-clock, task-clock), else per
 * event of the leader.  Exit 2 on a metric that is not understood.  The
 * rates model is made here; metrics_release() frees it.
 */
void metrics_setup(struct metrics *ms, char *const *args, unsigned n,
		   const struct pc_event_list *list, const char (*names)[64],
		   const struct perf_event_attr *leader);
void metrics_release(struct metrics *ms);

/*
 * A feed sample counted into the rates of its function, only when the
 * previous sample of its stream was in the same function
 * (feed_sample.same_fn): a member's delta covers everything since that
 * sample, and across a change of function it would carry one
 * function's events into the other (the leak).  The rates then rest on
 * the samples inside runs of a function at least two periods long: the
 * period must be short against the program's phases.
 */
void metrics_add(struct metrics *ms, const struct feed_sample *fs);

/* Metric i's rate of the function (sym, dso), "1.36 ±0.04" or "-",
   into buf, right-aligned in width columns (the name's, for the header,
   with sym NULL and header true). */
#define METRICS_COLS 16
const char *metrics_cell(const struct metrics *ms, unsigned i,
			 const char *sym, const char *dso, bool header,
			 char *buf, size_t size);

#endif
