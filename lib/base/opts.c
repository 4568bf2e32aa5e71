/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* opts.c - an option table turned into getopt_long's arguments and into
   help lines. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/opts.h"

/* A table getopt_long would misread: duplicates, a letter and its id apart. */
static bool table_valid(const struct opt_def *defs, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!defs[i].name || (defs[i].letter && defs[i].letter != defs[i].id))
			return false;
		for (j = 0; j < i; j++) {
			if (strcmp(defs[i].name, defs[j].name) == 0 ||
			    (defs[i].letter && defs[i].letter == defs[j].letter))
				return false;
		}
	}
	return true;
}

int opts_getopt(const struct opt_def *defs, size_t n, struct option *longopts,
		char *shortopts, bool stop_at_nonopt)
{
	char *p = shortopts;
	size_t i;

	if (!table_valid(defs, n)) {
		errno = EINVAL;
		return -1;
	}
	if (stop_at_nonopt)
		*p++ = '+';
	*p++ = ':';
	for (i = 0; i < n; i++) {
		bool optional = defs[i].arg && defs[i].arg[0] == '[';

		longopts[i] = (struct option){
			.name = defs[i].name,
			.has_arg = optional ? optional_argument :
				   defs[i].arg ? required_argument : no_argument,
			.flag = NULL,
			.val = defs[i].id,
		};
		if (defs[i].letter) {
			*p++ = (char)defs[i].letter;
			if (defs[i].arg)
				*p++ = ':';
			if (optional)
				*p++ = ':';
		}
	}
	*p = '\0';
	longopts[n] = (struct option){ 0 };
	return 0;
}

size_t opts_help_line(const struct opt_def *d, char *buf, size_t size)
{
	/* "-c, --count N", "    --raw N" or "    --per[=L]": its width,
	   to pad it to 28 */
	bool sep = d->arg && d->arg[0] != '[';
	size_t left = 6 + strlen(d->name) + (d->arg ? sep + strlen(d->arg) : 0);
	int pad = left < 28 ? (int)(28 - left) : 0;
	int n;

	n = snprintf(buf, size, "  %c%c%c --%s%s%s%*s %s",
		     d->letter ? '-' : ' ', d->letter ? d->letter : ' ',
		     d->letter ? ',' : ' ', d->name, sep ? " " : "",
		     d->arg ? d->arg : "", pad, "", d->help ? d->help : "");
	return n < 0 ? 0 : (size_t)n;
}

const struct opt_def *opts_find(const struct opt_def *defs, size_t n, int id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (defs[i].id == id)
			return &defs[i];
	return NULL;
}
