/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage.h - --help and bad-option messages from a tool's option table
 * (base/opts.h).  For tools only: these print, and usage_bad_option()
 * exits.
 */
#ifndef UTIL_USAGE_H
#define UTIL_USAGE_H

#include <stddef.h>
#include <stdio.h>

#include "base/opts.h"

/*
 * Print the help: synopsis (lines without the final newline), a blank
 * line, one line per option, then a blank line and footer when footer is
 * not NULL.
 */
void usage_print(FILE *out, const char *synopsis, const struct opt_def *defs,
		 size_t n, const char *footer);

/*
 * getopt_long returned c, '?' or ':', for a table made by opts_getopt():
 * exit 2 with "unknown option '-x'" or "option '--count' needs an
 * argument", through usage_error().
 */
void usage_bad_option(int c, char *const argv[]) __attribute__((noreturn));

/*
 * Option d was given but means nothing to this tool: one of perf's,
 * accepted so that a perf user's command line runs.  Say so on standard
 * error in one line, "-x/--name: no effect here: why" (why NULL: d's
 * help), once per option however often it is given.
 */
void usage_no_effect(const struct opt_def *d, const char *why);

/*
 * Prepare getopt_long for defs: opts_getopt() into longopts and shortopts
 * (sized n + 1 and OPTS_SHORT_SIZE(n)), opterr = 0; a bad table is a
 * programming error and dies.
 */
void usage_getopt(const struct opt_def *defs, size_t n, struct option *longopts,
		  char *shortopts, int stop_at_nonopt);

#endif
