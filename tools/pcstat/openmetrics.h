/*
 * openmetrics.h - the counts so far in the OpenMetrics text format, for
 * Prometheus: what --openmetrics FILE rewrites every interval, for
 * node_exporter's textfile collector.
 *
 * Every sample is a total since counting began: the raw count, and the
 * times the counter was enabled and running, each of them a counter that
 * only grows, so Prometheus' rate() and increase() apply and multiplexing
 * stays visible (running < enabled).  A family's name is also its
 * samples' name ("# TYPE pcstat_events_total counter" over
 * "pcstat_events_total{...}"), as OpenMetrics 2.0 and Prometheus' text
 * format name them: node_exporter's textfile collector and promtool read
 * the latter and keep the type and help only so.
 */
#ifndef PCSTAT_OPENMETRICS_H
#define PCSTAT_OPENMETRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "pcstat.h"

/* One event's total on one slot: all units, one CPU or one thread. */
struct om_point {
	const struct pc_event_spec *ev;
	const struct unit *where;	/* NULL when aggregated */
	struct pc_count sum;		/* summed over the slot's units */
	bool supported;			/* the event opened */
	bool clock;			/* counts nanoseconds (task-clock...) */
};

/* A metric family: one const row each, in the order they are written. */
struct om_family {
	const char *name;	/* the family's and its samples' name */
	const char *type;	/* "counter" or "gauge" */
	const char *unit;	/* NULL for none */
	const char *help;
	bool per_event;		/* one sample per event, label event only */
	/* The value of p in this family into buf; false: p has none here. */
	bool (*value)(const struct om_point *p, char *buf, size_t size);
};

extern const struct om_family om_families[];
extern const size_t om_nfamilies;

/*
 * Print the counts of cs since counting began (cs->cur) to f: the
 * families that have samples, labelled event= and, with -A, cpu= or,
 * with --per-thread, thread="comm-tid"; then "# EOF".  Locale-free.
 */
void om_print(FILE *f, const struct config *cfg, const struct cset *cs);

/*
 * om_print() into cfg->openmetrics, replaced atomically (a temporary
 * beside it, renamed over it).  Returns 0, or -1 with errno.
 */
int om_write(const struct config *cfg, const struct cset *cs);

/*
 * Can path be written (its directory exists and takes a new file)?
 * Returns 0, or -1 with errno; leaves nothing behind.
 */
int om_check_path(const char *path);

#endif
