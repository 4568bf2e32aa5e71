/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usage.c - help text and option errors from one option table. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "util/die.h"
#include "util/usage.h"

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
