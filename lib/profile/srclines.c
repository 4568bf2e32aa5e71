/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* srclines.c - one function's samples per source line (see srclines.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/escape.h"
#include "profile/srclines.h"
#include "symbols/source.h"

int srcline_of(struct symbols *s, const char *dso, uint64_t vaddr,
	       struct strpool *files, const char **file, int *line)
{
	struct sym_result r;

	*file = NULL;
	*line = 0;
	if (dso[0] == '[' || symbols_resolve_file(s, dso, vaddr, &r) != 0 ||
	    !r.file)
		return 0;
	if (!(*file = strpool_intern(files, r.file)))
		return -1;
	*line = r.line;
	return 0;
}

int srclines_texts(struct symbols *s, const char *dso,
		   const struct srcline_want *want, size_t n)
{
	int *lines = malloc((n + 1) * sizeof(*lines));
	char **text = malloc((n + 1) * sizeof(*text));
	size_t i, j, k;
	int rc = 0;

	if (!lines || !text) {
		free(lines);
		free(text);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < n && !rc; i++) {
		const char *file = want[i].file;

		/* the first want of each file reads them all */
		for (j = 0; j < i && file; j++)
			if (want[j].file == file)
				break;
		if (!file || j < i)
			continue;
		for (k = 0, j = i; j < n; j++)
			if (want[j].file == file)
				lines[k++] = want[j].line;
		if (symbols_source_lines(s, dso, file, lines, k, text) != 0) {
			rc = errno == ENOMEM ? -1 : 0;
			continue;
		}
		for (k = 0, j = i; j < n; j++)
			if (want[j].file == file)
				*want[j].text = text[k++];
	}
	free(lines);
	free(text);
	if (rc)
		errno = ENOMEM;
	return rc;
}

/* The line of file:line in a, added (count 0) when new; NULL: ENOMEM. */
static struct srcline *line_get(struct srclines *a, const char *file,
				int line)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->lines[i].file == file && a->lines[i].line == line)
			return &a->lines[i];
	if (ARRAY_GROW(a->lines, a->n + 1, a->alloc) != 0)
		return NULL;
	a->lines[a->n] = (struct srcline){ .file = file, .line = line };
	return &a->lines[a->n++];
}

static int cmp_line(const void *x, const void *y)
{
	const struct srcline *a = x, *b = y;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Every line's text, wanted at once. */
static int texts_read(struct srclines *a, struct symbols *s, const char *dso)
{
	struct srcline_want *want = calloc(a->n + 1, sizeof(*want));
	int rc;

	if (!want)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		want[i] = (struct srcline_want){ a->lines[i].file,
						 a->lines[i].line,
						 &a->lines[i].text };
	rc = srclines_texts(s, dso, want, a->n);
	free(want);
	return rc;
}

int srclines_build(struct symbols *s, const char *dso,
		   const struct top_addr *addrs, size_t n, struct srclines *a)
{
	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < n; i++) {
		struct srcline *l;
		const char *file;
		int line;

		if (srcline_of(s, dso, addrs[i].addr, &a->files, &file,
			       &line) != 0 ||
		    !(l = line_get(a, file, line)))
			goto fail;
		l->count += addrs[i].count;
		a->total += addrs[i].count;
	}
	if (a->n)
		qsort(a->lines, a->n, sizeof(*a->lines), cmp_line);
	for (size_t i = 0; i < a->n; i++)
		if (a->lines[i].count > a->lines[a->hottest].count)
			a->hottest = i;
	if (texts_read(a, s, dso) != 0)
		goto fail;
	return 0;
fail:
	srclines_release(a);
	errno = ENOMEM;
	return -1;
}

void srclines_release(struct srclines *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->lines[i].text);
	free(a->lines);
	strpool_release(&a->files);
	memset(a, 0, sizeof(*a));
}

const char *srclines_header(void)
{
	return "   share samples  file:line                source";
}

void srclines_row_text(const struct srclines *a, size_t i, char *buf,
		       size_t size)
{
	const struct srcline *l = &a->lines[i];
	const char *base = l->file ? strrchr(l->file, '/') : NULL;
	char file[256], where[300], text[SOURCE_LINE_MAX];
	size_t w;

	esc_visible(file, sizeof(file),
		    base ? base + 1 : l->file ? l->file : "??");
	esc_visible(text, sizeof(text), l->text ? l->text : "");
	snprintf(where, sizeof(where), "%s:%d", file, l->line);
	/* 24 columns of the terminal, whatever bytes the name takes */
	w = esc_width(where);
	snprintf(buf, size, "%c%6.2f%% %7" PRIu64 "  %s%*s %s",
		 i == a->hottest ? '>' : ' ',
		 a->total ? 100.0 * (double)l->count / (double)a->total : 0.0,
		 l->count, where, w < 24 ? (int)(24 - w) : 0, "", text);
}
