/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export.h - aggregated call chains (stacks.h) written as the files other
 * tools read: folded stacks (FlameGraph, inferno), an SVG flame graph of
 * our own, pprof's gzipped profile.proto (go tool pprof, Pyroscope,
 * Parca, Grafana) and speedscope's JSON.
 *
 * Every file is written atomically: to a new file beside the destination
 * (same directory, so the rename cannot cross file systems), flushed and
 * fsync'ed, then renamed over it; a failure at any step removes the
 * temporary file and leaves the destination as it was.  A destination
 * that exists and is not a regular file (a device such as /dev/stdout, a
 * FIFO) cannot be replaced: it is written in place.
 *
 * The library never prints and never exits.  Functions that can fail
 * return -1 with errno set (ENOENT: no such directory; EACCES, EROFS,
 * ENOSPC, EIO from the file system; ENOTSUP for a format this build
 * lacks; ENOMEM).
 */
#ifndef PROFILE_EXPORT_H
#define PROFILE_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "profile/stacks.h"

struct symbols;

enum export_format {
	EXPORT_FOLDED,		/* "root;...;leaf COUNT" lines */
	EXPORT_SVG,		/* a flame graph, searchable, zoomable */
	EXPORT_PPROF,		/* gzipped profile.proto */
	EXPORT_SPEEDSCOPE,	/* speedscope's file format (JSON) */
	EXPORT_FORMAT_MAX
};

/* What the files say about the profile besides its stacks. */
struct export_meta {
	size_t sz;		/* sizeof(struct export_meta): EXPORT_META() */
	const char *tool;	/* "monitor" */
	const char *target;	/* "./app (pid 123)"; NULL: none */
	const char *event;	/* "cpu-clock" */
	const struct perf_event_attr *attr; /* the event sampled: its unit
					   (time events count nanoseconds)
					   and period */
	uint64_t time_ns;	/* wall-clock start, ns since the epoch */
	uint64_t duration_ns;	/* how long it sampled */
	struct symbols *sym;	/* build-ids of the DSOs (pprof); NULL:
				   read from the files */
	const char *program;	/* the target's executable, as the stacks
				   name its file (symbols_program()):
				   pprof's first mapping; NULL: several
				   or unknown, then guessed from the
				   stacks */
	bool ns_weights;	/* the stacks count nanoseconds (off-CPU,
				   wall-clock: stacks_add_weight()), what
				   ever the event */
	const char *const *values; /* names of the stacks' values
				   (stacks_nvalues(), a group's
				   members): pprof gives each a sample
				   type; NULL: "value1", ... */
};

#define EXPORT_META(...) \
	((struct export_meta){ .sz = sizeof(struct export_meta), __VA_ARGS__ })

/* Whether this build writes format f (pprof needs protobuf-c and zlib). */
bool export_available(enum export_format f);

/*
 * Check that a file can be created at path (its directory exists and is
 * writable, or path is a device that opens for writing; a FIFO and a
 * link another user planted in /tmp are refused: base/atomic-file.h),
 * leaving nothing behind: a tool asks before sampling rather than after.
 * Returns 0, or -1 with errno.
 */
int export_check_path(const char *path);

/*
 * Write s as format f to path, atomically (above).  Returns 0, or -1 with
 * errno; then the destination is as it was.
 */
int export_write(struct stacks *s, enum export_format f, const char *path,
		 const struct export_meta *m);

#endif /* PROFILE_EXPORT_H */
