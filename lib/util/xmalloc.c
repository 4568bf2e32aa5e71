/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xmalloc.c - allocators that cannot fail (tools only; never in lib/). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "util/xmalloc.h"

void die_nomem(void)
{
	char lim[96];

	if (as_limit_advice(lim, sizeof(lim)))
		die("out of memory (%s)", lim);
	die("out of memory");
}

static void *checked(void *p)
{
	if (p == NULL)
		die_nomem();
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return checked(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc(void *ptr, size_t size)
{
	return checked(realloc(ptr, size ? size : 1));
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		die("out of memory (array of %zu x %zu)", nmemb, size);
	return xrealloc(ptr, nmemb * size);
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return checked(s);
}
