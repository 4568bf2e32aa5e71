/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * profile.h - one measure's profile: every model a sample goes to, fed
 * once, and the rows of a table read back with all their columns.
 *
 * A profile owns the top table (top.h: decaying counts by key), the call
 * chains that decay with it (-g) and those kept since the start (the
 * exports), and the per-function rates of a group read (rates.h).  The
 * tool resolves a sample once, hands it to profile_add(), and reads
 * tables with profile_rows(): it never calls the models one by one, so
 * a new per-function figure is one model here and one field of the row.
 *
 * The rule of the chains is here, once: only the chains of the first
 * event go in (the periods of several events would not add up), and only
 * those of samples the lists of the view pass (perf's --comms, --dsos,
 * --symbols), so the call graph shows what the table does while the
 * table's shares stay of the whole total.
 *
 * Pure: no I/O, no symbols, no clock.  Never prints, never exits:
 * functions that can fail return -1 (or NULL) with errno set.  Strings of
 * the samples are copied.  Not thread-safe.
 */
#ifndef PROFILE_PROFILE_H
#define PROFILE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/fnthreads.h"
#include "profile/rates.h"
#include "profile/stacks.h"
#include "profile/top.h"

#define PROFILE_MAX_METRICS 8

struct profile_config {
	unsigned nevents;	/* the top table's events, 1 to
				   TOP_MAX_EVENTS */
	bool chains;		/* call chains that decay with the table */
	bool chains_all;	/* call chains since the start (exports) */
	bool weighted;		/* the chains count each sample's weight
				   (nanoseconds of an off-CPU or wall-clock
				   profile), not samples of a period */
	unsigned nmembers;	/* a group read's members (0 none): their
				   deltas summed by the chains since the
				   start, and the rates of the metrics */
	const struct rates_metric *metrics; /* rates per function, copied */
	unsigned nmetrics;	/* 0 to PROFILE_MAX_METRICS */
	bool threads;		/* the distinct threads of each function
				   (fnthreads.h), in the rows */
	const struct top_view *lists;	/* comms, dsos and symbols the
				   chains obey (the strings must live as
				   long as the profile); NULL none */
};

/* A resolved sample, as the tool hands it over. */
struct profile_sample {
	struct top_sample top;	/* its row's keys, event, weight, period */
	const struct stk_sample_frame *frames;	/* leaf first */
	unsigned nframes;
	uint64_t time;		/* the sample's clock, ns */
	/* a group read: the leader's count and each member's delta since
	   the stream's previous sample, and whether that sample was in the
	   same function (feed.h's struct feed_sample); deltas NULL none */
	uint64_t lead_delta;
	const uint64_t *deltas;
	bool same_fn;
};

struct profile;

/* An empty profile, or NULL with errno EINVAL (c out of range) or ENOMEM.
   profile_free() frees it (NULL: a no-op). */
struct profile *profile_new(const struct profile_config *c);
void profile_free(struct profile *p);

/*
 * Count s in every model.  Returns 1 when its chain is one the chains
 * take (the rule above), whether or not p keeps chains: the tool's
 * rolling exports take the same; 0 when it is not; -1 with errno EINVAL
 * or ENOMEM.
 */
int profile_add(struct profile *p, const struct profile_sample *s);

/* A refresh: the table and its decaying chains age (top_age()). */
void profile_age(struct profile *p, bool zero);

/*
 * The rows of view v, in order, as top_rows() (children false) or
 * top_rows_chains() (true: a Children column, from the decaying chains)
 * read them, each with the figures of its function since the start:
 * row.rates[i] is the estimate of metric i, row.nrates of them (none
 * without metrics); row.threads its distinct threads (config.threads).  The
 * array lives as top_rows()'s; top_rows_dup() copies the rates with the
 * row, so a table kept (paused) keeps every cell it drew.  NULL with
 * errno as those functions (EINVAL too for children without chains).
 */
const struct top_row *profile_rows(struct profile *p,
				   const struct top_view *v, bool children,
				   size_t *n);

/* The models, for the views that read more than rows: annotation
   (top_addrs()), a call tree and the exports.  Owned by p; NULL for
   chains the config did not ask for. */
struct top *profile_top(const struct profile *p);
struct stacks *profile_chains(const struct profile *p);
struct stacks *profile_chains_all(const struct profile *p);

/* The metrics p was made with: profile_nmetrics() of them. */
unsigned profile_nmetrics(const struct profile *p);
const struct rates_metric *profile_metric(const struct profile *p,
					  unsigned i);

#endif
