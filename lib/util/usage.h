/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usage.h - --help and bad-option messages from a tool's option table
 * (base/opts.h).  For tools only: these print, and usage_bad_option()
 * exits.
 */
#ifndef UTIL_USAGE_H
#define UTIL_USAGE_H

#include <stdbool.h>
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

/*
 * Parse argv by defs (usage_getopt()'s table): an option whose row carries
 * a target (OPT_SET, OPT_STRING, OPT_COUNT, OPT_NUMBER, OPT_CALL,
 * OPT_CALL_ON) is done
 * here, into opts -- a number outside its row's range exits 2 with "-E
 * wants a number of rows from 1 to 1000000, not 'x'" -- and an OPT_CODE
 * row's id goes to code(opts, id, arg).  code returns false for an id it
 * does not take (':', '?' among them): usage_bad_option().  A bad table
 * dies.  Returns optind, the first operand.
 */
int usage_parse(const struct opt_def *defs, size_t n, int argc, char **argv,
		bool stop_at_nonopt, void *opts,
		bool (*code)(void *opts, int id, char *arg));

#endif
