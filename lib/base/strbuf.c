/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* strbuf.c - text appended to a fixed buffer, cut at its end. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

void str_append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

void str_join(char *buf, size_t size, const char *sep, const char *s)
{
	size_t len = strnlen(buf, size);

	str_append(buf, size, &len, "%s%s", len ? sep : "", s);
}
