/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf-options.h - perf's options that mean nothing to the samplers
 * (perf record's to monitor, perf top's to kerneltop): accepted, so that
 * a perf user's command line runs, and each says why in one line on
 * standard error.  One table, one row per option and one reason, for
 * both tools; a row names the perf commands that have the option and the
 * letter each tool takes for it.  For tools: these print and exit.
 */
#ifndef SAMPLING_CLI_PERF_OPTIONS_H
#define SAMPLING_CLI_PERF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/opts.h"

/* Whose options: the perf command a sampler stands in for. */
enum perf_command {
	PERF_RECORD = 1 << 0,	/* monitor */
	PERF_TOP = 1 << 1,	/* kerneltop */
};

/*
 * The getopt ids of the long-only rows: PERF_OPTIONS_ID + the row's
 * index in the table, above every id of a tool's own.  A row with a
 * letter has the letter as its id.
 */
#define PERF_OPTIONS_ID 1000

/*
 * A tool's own options (own, nown of them), then cmd's perf-only rows
 * (their help is the reason), into all (room for room rows; a table too
 * small is a programming error and dies).  Returns the rows in all;
 * *first_perf is set to the index of the first perf-only row, for a
 * --help section of their own.
 */
size_t perf_options_table(enum perf_command cmd, const struct opt_def *own,
			  size_t nown, struct opt_def *all, size_t room,
			  size_t *first_perf);

/*
 * getopt_long returned id (optarg arg) for a table made by
 * perf_options_table(cmd, ...) into all (n rows): false when id is none
 * of cmd's perf-only rows.  True when it is: its argument checked where
 * perf checks it (a number, a file that can be read: exit 2 otherwise),
 * then, unless quiet, said in one line on standard error to have no
 * effect, and why (usage_no_effect(), once per option).
 */
bool perf_option_taken(enum perf_command cmd, const struct opt_def *all,
		       size_t n, int id, const char *arg, bool quiet);

#endif
