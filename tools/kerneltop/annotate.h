/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * annotate.h - per-source-line shares of one symbol (annotate.c).
 */
#ifndef KERNELTOP_ANNOTATE_H
#define KERNELTOP_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kt;
struct kt_table;
struct top_row;

struct annotate_line {
	const char *file;	/* owned by the annotation */
	int line;
	uint64_t count;
	char *text;		/* the source line, NULL when unreadable */
};
struct annotation {
	struct annotate_line *lines;
	size_t n;
	uint64_t total;
	size_t hottest;		/* index of the line with most samples */
	char **files;		/* storage of the file names */
	size_t nfiles;
};
int annotate_build(struct kt *kt, const char *sym, const char *dso,
		   struct annotation *a);
void annotate_release(struct annotation *a);
/* --sym-annotate: the first row of tb whose symbol is sym, or NULL. */
const struct top_row *annotate_row(const struct kt_table *tb,
				   const char *sym);
/* --sym-annotate in batch: sym's annotation after a frame of tb, or
   "no samples"; 0, or -1 with errno. */
int annotate_print(struct kt *kt, const struct kt_table *tb,
		   const char *sym, FILE *out);

#endif
