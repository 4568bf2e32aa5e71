/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.c - strict number parsing for option arguments. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "util/parse.h"
#include "util/xmalloc.h"

bool parse_u64(const char *str, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (str == NULL || !isdigit((unsigned char)*str))
		return false;
	/* decimal, as a user means "010" (never octal), or 0x hex */
	errno = 0;
	if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X'))
		v = isxdigit((unsigned char)str[2]) ? strtoull(str + 2, &end, 16)
						    : (end = (char *)str + 1, 0);
	else
		v = strtoull(str, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_fraction(const char *str, double min, double max, double *out)
{
	double v = 0, scale = 1;
	bool dot = false, digit = false;

	for (const char *p = str; p && *p; p++) {
		if (*p == '.' && !dot) {
			dot = true;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			return false;
		digit = true;
		if (dot)
			v += (*p - '0') * (scale /= 10);
		else
			v = v * 10 + (*p - '0');
	}
	if (!digit || !(v >= min && v <= max))
		return false;
	*out = v;
	return true;
}

bool parse_int(const char *str, int min, int max, int *out)
{
	uint64_t v;
	int neg = 0;

	if (str && *str == '-') {
		neg = 1;
		str++;
	}
	if (!parse_u64(str, 0, (uint64_t)INT_MAX + neg, &v))
		return false;
	if ((neg ? -(long long)v : (long long)v) < min ||
	    (neg ? -(long long)v : (long long)v) > max)
		return false;
	*out = neg ? (int)-(long long)v : (int)v;
	return true;
}

bool ids_add_once(pid_t **ids, size_t *n, pid_t id)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return false;
	*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
	(*ids)[(*n)++] = id;
	return true;
}
