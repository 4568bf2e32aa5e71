/* SPDX-License-Identifier: GPL-2.0-or-later */
/* esc-print.c - escaped strings to a stream, on the stack when short. */
#include "config.h"

#include <stdlib.h>

#include "base/escape.h"
#include "util/esc-print.h"
#include "util/xmalloc.h"

static void print(FILE *f, const char *s,
		  size_t (*esc)(char *dst, size_t size, const char *src))
{
	char buf[512], *big;
	size_t n = esc(buf, sizeof(buf), s);

	if (n < sizeof(buf)) {
		fwrite(buf, 1, n, f);
		return;
	}
	big = xmalloc(n + 1);
	esc(big, n + 1, s);
	fwrite(big, 1, n, f);
	free(big);
}

void esc_print_json(FILE *f, const char *s)
{
	print(f, s, esc_json);
}

void esc_print_visible(FILE *f, const char *s)
{
	print(f, s, esc_visible);
}
