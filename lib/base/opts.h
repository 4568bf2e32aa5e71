/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * opts.h - one option table for getopt_long(3) and for --help.
 *
 * A tool describes its options once, as a const table of struct opt_def;
 * opts_getopt() derives getopt_long's arguments from it and
 * opts_help_line() each line of the help text, so the two cannot
 * disagree.  Printing the help and dying on a bad option are the tool's
 * business (lib/util/usage.h).
 *
 * Never prints, never exits, never allocates: the caller provides the
 * buffers.  Failure is -1 with errno set.
 */
#ifndef BASE_OPTS_H
#define BASE_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

struct opt_def {
	const char *name;	/* long name, without -- */
	int letter;		/* short letter, 0 for none */
	int id;			/* what getopt_long returns: the letter, or a value >= 256 */
	const char *arg;	/* metavar ("N"), NULL when the option takes no
				   argument; "[=L]" when it is optional (given
				   as --name=L, -xL) */
	const char *help;	/* one line */
};

/* Room opts_getopt() needs for shortopts, NUL included. */
#define OPTS_SHORT_SIZE(n) (2 * (n) + 3)

/*
 * Fill longopts (n + 1 entries, zero-terminated) and shortopts (room for
 * OPTS_SHORT_SIZE(n), which 3n + 2 covers for n >= 1) from defs.
 * shortopts starts with '+' when stop_at_nonopt (stop at the first
 * operand: a command to run), then ':' so that getopt_long returns ':' for
 * a missing argument and '?' for an unknown option, and prints nothing
 * (set opterr = 0 as well, for getopt's own messages).
 * Returns 0, or -1 with errno EINVAL: a duplicate letter or long name, or
 * a letter whose id is not the letter.
 */
int opts_getopt(const struct opt_def *defs, size_t n, struct option *longopts,
		char *shortopts, bool stop_at_nonopt);

/*
 * Format one --help line into buf, snprintf-style (returns the length the
 * whole line needs, without a newline):
 *	"  -c, --count N                help"
 *	"      --raw                    help"
 * The option column is 28 wide, as pcstat and monitor have always shown.
 */
size_t opts_help_line(const struct opt_def *d, char *buf, size_t size);

/* The definition whose id is id, or NULL. */
const struct opt_def *opts_find(const struct opt_def *defs, size_t n, int id);

#endif
