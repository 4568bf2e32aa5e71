/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exports.h - the export options every sampling tool takes (--folded,
 * --flamegraph, --pprof, --speedscope), checked before sampling and
 * written at the end, with one-line messages; and --export-every's
 * snapshots of each interval while the tool runs.  For tools only:
 * these print, and exports_check() exits.
 */
#ifndef SAMPLING_CLI_EXPORTS_H
#define SAMPLING_CLI_EXPORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/opts.h"
#include "profile/export.h"

struct exports {
	const char *path[EXPORT_FORMAT_MAX];	/* NULL: not asked */
	/* --export-every: an export flag naming a directory (or ending in
	   '/') gets a snapshot of each interval there (export-every.c) */
	const char *dir[EXPORT_FORMAT_MAX];	/* NULL: none */
	uint64_t every_ns;			/* --export-every, 0: none */
	uint64_t keep;				/* --export-keep, 0: all */
	struct stacks *interval;	/* the samples since the last one */
	uint64_t interval_ns;		/* its start, wall clock */
	uint64_t due_ns;		/* the next snapshot, CLOCK_MONOTONIC */
	/* the snapshots this run wrote, per format, oldest first: the
	   newest --export-keep of them (the older were removed) */
	char **written[EXPORT_FORMAT_MAX];
	size_t nwritten[EXPORT_FORMAT_MAX];
	unsigned failed;		/* snapshots not written or pruned */
};

/* The ids after the formats' own: base + EXPORT_OPT_EVERY... */
enum {
	EXPORT_OPT_EVERY = EXPORT_FORMAT_MAX,
	EXPORT_OPT_KEEP,
	EXPORT_OPT_NIDS
};

/*
 * The option rows, for a tool's struct opt_def table; each row's id is
 * base + its enum export_format, then base + EXPORT_OPT_EVERY and
 * EXPORT_OPT_KEEP: the ids base .. base + EXPORT_OPT_NIDS - 1 are the
 * rows'.
 */
#define EXPORT_OPT_ROWS(base) \
	{ "folded", 0, (base) + EXPORT_FOLDED, "FILE", \
	  "write folded stacks (FlameGraph, inferno) to FILE", OPT_CODE }, \
	{ "flamegraph", 0, (base) + EXPORT_SVG, "FILE", \
	  "write an SVG flame graph to FILE", OPT_CODE }, \
	{ "pprof", 0, (base) + EXPORT_PPROF, "FILE", \
	  "write a gzipped pprof profile to FILE", OPT_CODE }, \
	{ "speedscope", 0, (base) + EXPORT_SPEEDSCOPE, "FILE", \
	  "write a speedscope profile (JSON) to FILE", OPT_CODE }, \
	{ "export-every", 0, (base) + EXPORT_OPT_EVERY, "SECS", \
	  "every SECS seconds, the last interval's profile to each " \
	  "export naming a directory", OPT_CODE }, \
	{ "export-keep", 0, (base) + EXPORT_OPT_KEEP, "N", \
	  "keep the newest N snapshots per format (--export-every)", \
	  OPT_CODE }

/* getopt returned id: take it when it is an export row (a bad
   --export-every or --export-keep argument exits 2).  Returns whether
   it was one. */
bool exports_option(struct exports *e, int id, int base, const char *arg);

/* Whether any export to a file (at the end, of the whole run) was asked
   for. */
bool exports_any(const struct exports *e);

/*
 * Before sampling: each path must be creatable (and the format built
 * in); otherwise print "cannot write FORMAT to PATH: reason (fix)" and
 * exit 2.  Two exports that would write one file exit 2 too
 * (output_paths_distinct()).  --export-every: each directory must take
 * a snapshot, and one must be named; --export-keep needs --export-every.
 */
void exports_check(const struct exports *e);

/* What a format is called in messages: "the flame graph"... */
const char *exports_what(enum export_format f);

/*
 * Write every asked export of s.  A failure prints one line ("cannot
 * write the flame graph to /dev/full: No space left on device") and the
 * others are still written.  Returns 0, or -1 when one failed.
 */
int exports_write(const struct exports *e, struct stacks *s,
		  const struct export_meta *m);

/* The fix for a failed write's errno, "" when there is none to give. */
const char *exports_fix(int err);

/*
 * export-every.c: the snapshots of --export-every.  Each sample a tool
 * counts for its exports it also hands to exports_every_add(); each is
 * in one interval only, so the snapshots of a run add up to its whole
 * profile.  A snapshot's file is DIR/profile-YYYYMMDDTHHMMSS.mmmZ.EXT,
 * the interval's start in UTC (pprof: .pb.gz, folded: .folded, svg:
 * .svg, speedscope: .speedscope.json); pprof's time_nanos and
 * duration_nanos say the interval.
 */

/* Whether --export-every is on. */
static inline bool exports_every(const struct exports *e)
{
	return e->every_ns != 0;
}

/* The first interval starts at start_ns (wall clock, the tool's
   start).  Memory runs out: die. */
void exports_every_start(struct exports *e, uint64_t start_ns);

/* The next interval, from start_ns (wall clock; now_ns: the monotonic
   clock), this one's samples dropped.  Memory runs out: die. */
void exports_every_next(struct exports *e, uint64_t start_ns,
			uint64_t now_ns);

/* Count a sample taken at time_ns in the interval (nothing without
   --export-every).  Memory runs out: die. */
void exports_every_add(struct exports *e, const struct stk_sample_frame *f,
		       unsigned n, uint64_t period, uint64_t time_ns);

/* Count weight (nanoseconds: an off-CPU span, a wall-clock sample) at
   time_ns in the interval, as stacks_add_weight() does: the snapshots of
   an off-CPU run hold what its whole-run export holds.  Memory runs
   out: die. */
void exports_every_add_weight(struct exports *e,
			      const struct stk_sample_frame *f, unsigned n,
			      uint64_t weight, uint64_t time_ns);

/*
 * Write the interval when it is due, or whatever its time with last
 * (the end of the run: the partial interval), then start the next.  An
 * interval without a sample is not written.  m says the rest (its time
 * and duration are the interval's).  Returns 0, or -1 when a write or
 * a prune failed (counted in e->failed): msg then has its line ("cannot
 * write a snapshot of ... : reason (fix)", or that it was written but
 * older ones could not be removed) for the tool to show where it shows
 * things; sampling goes on.
 */
int exports_every_tick(struct exports *e, const struct export_meta *m,
		       bool last, char *msg, size_t size);

/* The path of the snapshot of format f in dir for an interval that
   starts at time_ns (wall clock), into buf; returns as snprintf(). */
int exports_every_name(char *buf, size_t size, const char *dir,
		       enum export_format f, uint64_t time_ns);

/*
 * Record written (the snapshot of format f just written) as this run's,
 * and remove the oldest snapshots of f in its directory past e->keep:
 * regular files whose names are snapshots' (the stamp sorts as time
 * does) and that the caller owns (its effective uid); in a sticky
 * directory anyone may write (/tmp), only those this run wrote, for a
 * name there proves nothing.  Nothing else.  The directory is the one
 * the write walked to, under the planted-link rule.  Returns 0, or -1
 * with errno.  Memory runs out: die.
 */
int exports_every_prune(struct exports *e, const char *written,
			enum export_format f);

/* Whether a snapshot of the run could not be written, or older ones
   not removed: a run that lost output ends with a failure. */
static inline bool exports_every_failed(const struct exports *e)
{
	return e->failed != 0;
}

/* Free the interval and the names recorded. */
void exports_every_release(struct exports *e);

#endif
