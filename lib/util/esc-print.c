/* SPDX-License-Identifier: GPL-2.0-or-later */
/* esc-print.c - escaped strings to a stream, on the stack when short. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "util/esc-print.h"
#include "util/xmalloc.h"

/* s escaped by esc, padded with spaces as printf's %*s pads (width > 0:
   on the left, < 0: on the right). */
static void print(FILE *f, const char *s, int width,
		  size_t (*esc)(char *dst, size_t size, const char *src))
{
	char buf[512], *big = NULL, *out = buf;
	size_t n = esc(buf, sizeof(buf), s), pad;

	if (n >= sizeof(buf)) {
		out = big = xmalloc(n + 1);
		esc(big, n + 1, s);
	}
	pad = (size_t)(width < 0 ? -(long)width : width);
	pad = pad > n ? pad - n : 0;
	if (width > 0)
		fprintf(f, "%*s", (int)pad, "");
	fwrite(out, 1, n, f);
	if (width < 0)
		fprintf(f, "%*s", (int)pad, "");
	free(big);
}

void esc_print_json(FILE *f, const char *s)
{
	print(f, s, 0, esc_json);
}

void esc_print_visible(FILE *f, const char *s)
{
	print(f, s, 0, esc_visible);
}

void esc_print_csv(FILE *f, const char *s, const char *sep)
{
	char buf[512], *big = NULL, *out = buf;
	size_t n = esc_visible(buf, sizeof(buf), s);

	if (n >= sizeof(buf)) {
		out = big = xmalloc(n + 1);
		esc_visible(big, n + 1, s);
	}
	if ((sep[0] && strstr(out, sep)) || strchr(out, '"')) {
		fputc('"', f);
		for (const char *p = out; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(out, f);
	}
	free(big);
}

void esc_print_visible_pad(FILE *f, const char *s, int width)
{
	print(f, s, width, esc_visible);
}
