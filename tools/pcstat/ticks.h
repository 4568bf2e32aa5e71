/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ticks.h - the counters read at internal ticks: multiplexing intervals. */
#ifndef PCSTAT_TICKS_H
#define PCSTAT_TICKS_H

#include <stdbool.h>
#include <stddef.h>

#include "muxci.h"
#include "pcstat.h"

/*
 * The deltas of every counter between reads, summed per slot (as
 * stats_add_run() sums units) into two muxci models per slot: the whole
 * measurement (every run of -r) and the current -I interval.
 */
struct ticks {
	size_t nev, nslots;
	enum aggr_mode aggr;
	const size_t *unit_slot; /* as struct stats' */
	struct muxci *all;	/* per slot: every tick so far */
	struct muxci *ival;	/* per slot: the ticks of this interval */
	struct pc_count *prev;	/* per counter: its counts at the last */
	size_t nprev;
	double *c, *r, *e;	/* scratch: one tick of one slot */
	bool active;		/* this run is ticked: intervals to print */
};

/* Models of nev events on nslots slots, no tick yet. */
void ticks_init(struct ticks *tk, size_t nev, size_t nslots,
		enum aggr_mode aggr, const size_t *unit_slot);
void ticks_release(struct ticks *tk);

/*
 * Is any counter of cs one that can be multiplexed (a PMU's, not a
 * software event, a tracepoint or a tool event)?  Ticks cost a read per
 * group; without such a counter they would tell nothing.
 */
bool ticks_wanted(const struct cset *cs, const struct config *cfg);

/* A new run begins, ticked when active: its counters start from zero. */
void ticks_run_start(struct ticks *tk, const struct cset *cs, bool active);

/* cs was just read (cset_read()): add the deltas since the last tick. */
void ticks_add(struct ticks *tk, const struct cset *cs);

/* The models to print from: the interval's or the whole run's. */
const struct muxci *ticks_models(const struct ticks *tk, bool interval);

/* An -I interval was printed: the next starts with no tick. */
void ticks_interval_done(struct ticks *tk);

#endif
