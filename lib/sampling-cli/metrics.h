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

#include "profile/rates.h"

#define METRICS_MAX 8

/* The metrics asked for; the rates themselves are the profile's
   (profile/profile.h), counted there and carried by its rows. */
struct metrics {
	struct rates_metric m[METRICS_MAX];
	unsigned n;
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
 * event of the leader.  Exit 2 on a metric that is not understood.
 */
void metrics_setup(struct metrics *ms, char *const *args, unsigned n,
		   const struct pc_event_list *list, const char (*names)[64],
		   const struct perf_event_attr *leader);

/* Metric i's column: its name (e NULL, for the header) or the estimate
   e of a row ("1.36 ±0.04" or "-"), right-aligned in METRICS_COLS
   columns, into buf. */
#define METRICS_COLS 16
const char *metrics_cell(const struct metrics *ms, unsigned i,
			 const struct rates_est *e, char *buf, size_t size);

#endif
