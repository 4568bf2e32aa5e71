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

/*
 * What a row does with its option, git's parse-options way: the row
 * carries its target, a member of the tool's options struct named by
 * its offset, so that most options need no code at all.  The doing is
 * usage_parse()'s (lib/util/usage.h), which prints a bad argument's
 * error; this library only describes.
 */
enum opt_does {
	OPT_DOES_CODE,		/* the tool's own code handles the id */
	OPT_DOES_SET,		/* store value (a bool, int or enum member) */
	OPT_DOES_STRING,	/* store the argument (a char * member) */
	OPT_DOES_COUNT,		/* add 1 (an int or unsigned member) */
	OPT_DOES_NUMBER,	/* the argument, an integer from min to max
				   (any unsigned or int member) */
	OPT_DOES_CALL,		/* call(opts + at, argument): at is 0, or
				   a member's (OPT_CALL_ON) */
};

struct opt_def {
	const char *name;	/* long name, without -- */
	int letter;		/* short letter, 0 for none */
	int id;			/* what getopt_long returns: the letter, or a value >= 256 */
	const char *arg;	/* metavar ("N"), NULL when the option takes no
				   argument; "[=L]" when it is optional (given
				   as --name=L, -xL) */
	const char *help;	/* one line */
	/* the target, set by one of the OPT_* macros below */
	enum opt_does does;
	size_t at, size;	/* the member's offset and size */
	long long value;	/* OPT_DOES_SET's */
	unsigned long long min, max;	/* OPT_DOES_NUMBER's range */
	const char *what;	/* OPT_DOES_NUMBER's error: "-E" + what + the
				   range, e.g. "wants a number of rows" */
	void (*call)(void *opts, const char *arg);
};

/*
 * A row's last item, after its help: what it does.  T is the tool's
 * options struct, m a member of it.
 *	{ "zero", 'z', 'z', NULL, "zero the counts", OPT_SET(struct o, zero, 1) }
 */
#define OPT_MEMBER_(T, m) .at = offsetof(T, m), .size = sizeof(((T *)0)->m)
#define OPT_CODE .does = OPT_DOES_CODE
#define OPT_SET(T, m, v) .does = OPT_DOES_SET, OPT_MEMBER_(T, m), .value = (v)
#define OPT_STRING(T, m) .does = OPT_DOES_STRING, OPT_MEMBER_(T, m)
#define OPT_COUNT(T, m) .does = OPT_DOES_COUNT, OPT_MEMBER_(T, m)
#define OPT_NUMBER(T, m, lo, hi, phrase) .does = OPT_DOES_NUMBER, \
	OPT_MEMBER_(T, m), .min = (lo), .max = (hi), .what = (phrase)
#define OPT_CALL(fn) .does = OPT_DOES_CALL, .call = (fn)
/* call(&opts->m, argument): a handler shared by tools whose options
   hold the same struct m */
#define OPT_CALL_ON(T, m, fn) .does = OPT_DOES_CALL, OPT_MEMBER_(T, m), \
	.call = (fn)

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
