/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usage.c - help text and option errors from one option table. */
#include "config.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "util/parse.h"
#include "util/usage.h"
#include "util/xmalloc.h"

void usage_print(FILE *out, const char *synopsis, const struct opt_def *defs,
		 size_t n, const char *footer)
{
	size_t i;

	fprintf(out, "%s\n\n", synopsis);
	for (i = 0; i < n; i++) {
		char line[256];

		opts_help_line(&defs[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	if (footer)
		fprintf(out, "\n%s\n", footer);
}

void usage_bad_option(int c, char *const argv[])
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (c == ':')
		usage_error("option '%s' needs an argument", arg);
	if (optopt > 0 && optopt < 256)
		usage_error("unknown option '-%c'", optopt);
	usage_error("unknown option '%s'", arg);
}

void usage_no_effect(const struct opt_def *d, const char *why)
{
	static const struct opt_def *said[128];
	static size_t nsaid;
	size_t i;

	for (i = 0; i < nsaid; i++)
		if (said[i] == d)
			return;
	if (nsaid < sizeof(said) / sizeof(said[0]))
		said[nsaid++] = d;
	if (d->letter)
		warn_msg("-%c/--%s: no effect here: %s", d->letter, d->name,
			 why ? why : d->help);
	else
		warn_msg("--%s: no effect here: %s", d->name,
			 why ? why : d->help);
}

void usage_getopt(const struct opt_def *defs, size_t n, struct option *longopts,
		  char *shortopts, int stop_at_nonopt)
{
	if (opts_getopt(defs, n, longopts, shortopts, stop_at_nonopt) != 0)
		die_errno("bad option table");
	opterr = 0;
}

/* A row's target fits it: the sizes its member can have. */
static bool target_valid(const struct opt_def *d)
{
	switch (d->does) {
	case OPT_DOES_CODE:
		return true;
	case OPT_DOES_SET:
		return d->size == 1 || d->size == sizeof(int);
	case OPT_DOES_STRING:
		return d->size == sizeof(char *);
	case OPT_DOES_COUNT:
		return d->size == sizeof(int);
	case OPT_DOES_NUMBER:
		return (d->size == 1 || d->size == 2 || d->size == 4 ||
			d->size == 8) && d->min <= d->max && d->what &&
		       (d->size == 8 || d->max >> (8 * d->size) == 0);
	case OPT_DOES_CALL:
		return d->call != NULL;
	}
	return false;
}

/* Store v in the size-byte member at p (target_valid() said it fits). */
static void store(void *p, size_t size, unsigned long long v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;
	uint64_t u64 = v;

	memcpy(p, size == 1 ? (void *)&u8 : size == 2 ? (void *)&u16 :
		  size == 4 ? (void *)&u32 : (void *)&u64, size);
}

/* "-E wants a number of rows from 1 to 1000000, not 'x'": the range as
   far as it limits (no "to" at the member's own maximum). */
static void number_error(const struct opt_def *d, const char *arg)
{
	char name[64];
	unsigned long long top = d->size == 8 ? UINT64_MAX :
				 (1ull << (8 * d->size)) - 1;

	if (d->letter)
		snprintf(name, sizeof(name), "-%c", d->letter);
	else
		snprintf(name, sizeof(name), "--%s", d->name);
	if (d->max < top)
		usage_error("%s %s from %llu to %llu, not '%s'", name, d->what,
			    d->min, d->max, arg);
	if (d->min > 0)
		usage_error("%s %s >= %llu, not '%s'", name, d->what, d->min,
			    arg);
	usage_error("%s %s, not '%s'", name, d->what, arg);
}

/* Do what d's row says with arg into opts. */
static void apply(const struct opt_def *d, void *opts, const char *arg)
{
	char *p = (char *)opts + d->at;
	uint64_t v;

	switch (d->does) {
	case OPT_DOES_CODE:
		break;
	case OPT_DOES_SET:
		store(p, d->size, (unsigned long long)d->value);
		break;
	case OPT_DOES_STRING:
		memcpy(p, &arg, sizeof(arg));
		break;
	case OPT_DOES_COUNT: {
		unsigned u;

		memcpy(&u, p, sizeof(u));
		u++;
		memcpy(p, &u, sizeof(u));
		break;
	}
	case OPT_DOES_NUMBER:
		if (!parse_u64(arg, d->min, d->max, &v))
			number_error(d, arg);
		store(p, d->size, v);
		break;
	case OPT_DOES_CALL:
		d->call(p, arg);
		break;
	}
}

/* getopt's tables for the parse under way: held here, so that an
   option's error, which exits from inside the parse, leaves them
   reachable (no leak for LeakSanitizer to report). */
static struct option *parse_longopts;
static char *parse_shortopts;

int usage_parse(const struct opt_def *defs, size_t n, int argc, char **argv,
		bool stop_at_nonopt, void *opts,
		bool (*code)(void *opts, int id, char *arg))
{
	int c;

	parse_longopts = xcalloc(n + 1, sizeof(*parse_longopts));
	parse_shortopts = xmalloc(OPTS_SHORT_SIZE(n));
	for (size_t i = 0; i < n; i++)
		if (!target_valid(&defs[i]))
			die("bad option table: --%s's target", defs[i].name);
	usage_getopt(defs, n, parse_longopts, parse_shortopts,
		     stop_at_nonopt);
	while ((c = getopt_long(argc, argv, parse_shortopts, parse_longopts,
				NULL)) != -1) {
		const struct opt_def *d = c == '?' || c == ':' ? NULL :
					  opts_find(defs, n, c);

		if (d && d->does != OPT_DOES_CODE)
			apply(d, opts, optarg);
		else if (!code || !code(opts, c, optarg))
			usage_bad_option(c, argv);
	}
	free(parse_longopts);
	free(parse_shortopts);
	parse_longopts = NULL;
	parse_shortopts = NULL;
	return optind;
}
