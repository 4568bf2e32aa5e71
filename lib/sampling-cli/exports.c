/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exports.c - the export options of the sampling tools, checked and
   written with one-line messages. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sampling-cli/exports.h"
#include "util/die.h"
#include "util/output.h"

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

bool exports_option(struct exports *e, int id, int base, const char *arg)
{
	if (id < base || id >= base + EXPORT_FORMAT_MAX)
		return false;
	e->path[id - base] = arg;
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

void exports_check(const struct exports *e)
{
	int f, err;

	for (f = 0; f < EXPORT_FORMAT_MAX; f++) {
		if (!e->path[f])
			continue;
		if (!*e->path[f])
			usage_error("cannot write %s to '': give a file name",
				    what[f]);
		if (!export_available((enum export_format)f))
			err = ENOTSUP;
		else if (export_check_path(e->path[f]) != 0)
			err = errno;
		else
			continue;
		die_status(2, "cannot write %s to %s: %s%s", what[f],
			   e->path[f], output_strerror(err), exports_fix(err));
	}
	output_paths_distinct(option, e->path, EXPORT_FORMAT_MAX);
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
