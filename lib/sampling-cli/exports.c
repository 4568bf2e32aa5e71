/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exports.c - the export options of the sampling tools, checked and
   written with one-line messages. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/atomic-file.h"
#include "base/clock.h"
#include "sampling-cli/exports.h"
#include "util/die.h"
#include "util/output.h"
#include "util/parse.h"

static const char *const option[EXPORT_FORMAT_MAX] = {
	[EXPORT_FOLDED] = "--folded",
	[EXPORT_SVG] = "--flamegraph",
	[EXPORT_PPROF] = "--pprof",
	[EXPORT_SPEEDSCOPE] = "--speedscope",
};

static const char *const what[EXPORT_FORMAT_MAX] = {
	[EXPORT_FOLDED] = "folded stacks",
	[EXPORT_SVG] = "the flame graph",
	[EXPORT_PPROF] = "the pprof profile",
	[EXPORT_SPEEDSCOPE] = "the speedscope profile",
};

const char *exports_fix(int err)
{
	if (err == ENOTSUP)
		return " (this build has no pprof: rebuild with "
		       "libprotobuf-c-dev, protobuf-c-compiler and zlib1g-dev)";
	return output_path_fix(err);
}

const char *exports_what(enum export_format f)
{
	return (unsigned)f < EXPORT_FORMAT_MAX ? what[f] : "?";
}

/* A directory named: snapshots go there (--export-every), a flag of
   the format naming a file too gets the whole run. */
static bool names_dir(const char *arg)
{
	size_t len = strlen(arg);
	struct stat st;

	return (len && arg[len - 1] == '/') ||
	       (stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

bool exports_option(struct exports *e, int id, int base, const char *arg)
{
	double secs;

	if (id < base || id >= base + EXPORT_OPT_NIDS)
		return false;
	switch (id - base) {
	case EXPORT_OPT_EVERY:
		/* the snapshots' names carry milliseconds */
		if (!parse_fraction(arg, 0.001, 1e6, &secs))
			usage_error("--export-every wants seconds from 0.001 "
				    "to 1000000, not '%s'", arg);
		e->every_ns = (uint64_t)(secs * 1e9 + 0.5);
		break;
	case EXPORT_OPT_KEEP:
		if (!parse_u64(arg, 1, UINT32_MAX, &e->keep))
			usage_error("--export-keep wants a number of files "
				    ">= 1, not '%s'", arg);
		break;
	default:
		if (names_dir(arg))
			e->dir[id - base] = arg;
		else
			e->path[id - base] = arg;
	}
	return true;
}

bool exports_any(const struct exports *e)
{
	int f;

	for (f = 0; f < EXPORT_FORMAT_MAX; f++)
		if (e->path[f])
			return true;
	return false;
}

/* --export-every's directories, before sampling. */
static void every_check(const struct exports *e)
{
	char path[4096];
	const char *file = NULL;
	int f, err, ndirs = 0;

	if (e->keep && !e->every_ns)
		die_status(2, "--export-keep needs --export-every SECS (add "
			   "it, or drop --export-keep)");
	for (f = 0; f < EXPORT_FORMAT_MAX; f++) {
		if (!e->dir[f] || !e->every_ns)
			continue;
		ndirs++;
		if (!export_available((enum export_format)f))
			err = ENOTSUP;
		else if ((size_t)exports_every_name(path, sizeof(path),
				e->dir[f], (enum export_format)f,
				clock_ns(CLOCK_REALTIME)) >= sizeof(path))
			err = ENAMETOOLONG;
		else if (atomic_file_check(path, 0) != 0)
			err = errno;
		else
			continue;
		die_status(2, "cannot write snapshots of %s to %s: %s%s",
			   what[f], e->dir[f], output_strerror(err),
			   err == ENOENT || err == ENOTDIR ?
			   " (create the directory first)" : exports_fix(err));
	}
	for (f = 0; f < EXPORT_FORMAT_MAX && !file; f++)
		file = e->path[f];
	if (e->every_ns && !ndirs && file)
		die_status(2, "--export-every writes to a directory: %s is not "
			   "one (give --folded, --pprof... a directory)", file);
	if (e->every_ns && !ndirs)
		die_status(2, "--export-every needs an export naming a "
			   "directory (add --pprof DIR, --folded DIR...)");
}

void exports_check(const struct exports *e)
{
	const char *path[EXPORT_FORMAT_MAX];
	int f, err;

	every_check(e);
	for (f = 0; f < EXPORT_FORMAT_MAX; f++) {
		/* without --export-every, a directory is a file that
		   cannot be written */
		path[f] = e->dir[f] && !e->every_ns ? e->dir[f] : e->path[f];
		if (!path[f])
			continue;
		if (!*path[f])
			usage_error("cannot write %s to '': give a file name",
				    what[f]);
		if (!export_available((enum export_format)f))
			err = ENOTSUP;
		else if (export_check_path(path[f]) != 0)
			err = errno;
		else
			continue;
		die_status(2, "cannot write %s to %s: %s%s", what[f], path[f],
			   output_strerror(err), err == EISDIR ?
			   " (that is a directory: name a file in it, or add "
			   "--export-every SECS for snapshots there)" :
			   exports_fix(err));
	}
	output_paths_distinct(option, path, EXPORT_FORMAT_MAX);
}

int exports_write(const struct exports *e, struct stacks *s,
		  const struct export_meta *m)
{
	int f, rc = 0;

	for (f = 0; f < EXPORT_FORMAT_MAX; f++) {
		if (!e->path[f] ||
		    export_write(s, (enum export_format)f, e->path[f], m) == 0)
			continue;
		warn_msg("cannot write %s to %s: %s%s", what[f], e->path[f],
			 output_strerror(errno), exports_fix(errno));
		rc = -1;
	}
	return rc;
}

/* Write the interval's snapshot of format f (a prune past --export-keep
   after it); 0, or -1 with its line in msg. */
static int every_write(struct exports *e, enum export_format f,
		       const struct export_meta *meta, char *msg, size_t size)
{
	char path[4096];

	if ((size_t)exports_every_name(path, sizeof(path), e->dir[f], f,
				       e->interval_ns) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		goto unwritten;
	}
	if (export_write(e->interval, f, path, meta) != 0)
		goto unwritten;
	if (!e->keep || exports_every_prune(e, path, f) == 0)
		return 0;
	snprintf(msg, size, "a snapshot of %s was written to %s, but older "
		 "ones cannot be removed (--export-keep): %s%s", what[f],
		 e->dir[f], output_strerror(errno), exports_fix(errno));
	return -1;
unwritten:
	snprintf(msg, size, "cannot write a snapshot of %s to %s: %s%s",
		 what[f], e->dir[f], output_strerror(errno), exports_fix(errno));
	return -1;
}

int exports_every_tick(struct exports *e, const struct export_meta *m,
		       bool last, char *msg, size_t size)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC), wall;
	struct export_meta meta = *m;
	char line[512];
	int f, rc = 0;

	if (!e->interval || (!last && now < e->due_ns))
		return 0;
	/* the next interval starts where this one ends: they tile */
	wall = clock_ns(CLOCK_REALTIME);
	meta.time_ns = e->interval_ns;
	meta.duration_ns = wall > e->interval_ns ? wall - e->interval_ns : 0;
	/* an interval without a sample (the last, cut short) is no
	   snapshot: --export-keep would keep it for a full one */
	for (f = 0; f < EXPORT_FORMAT_MAX && stacks_count(e->interval); f++) {
		if (!e->dir[f] || every_write(e, (enum export_format)f, &meta,
					      line, sizeof(line)) == 0)
			continue;
		if (!rc)
			snprintf(msg, size, "%s", line);
		e->failed++;
		rc = -1;
	}
	if (last)
		exports_every_release(e);
	else
		exports_every_next(e, wall, now);
	return rc;
}
