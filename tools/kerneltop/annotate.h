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

struct srclines;

/* sym's samples per source line (see lib/profile/srclines.h), read as the
   sampled process sees dso; 0, or -1 with errno. */
int annotate_build(struct kt *kt, const char *sym, const char *dso,
		   struct srclines *a);
/* --sym-annotate: the first row of tb whose symbol is sym, or NULL. */
const struct top_row *annotate_row(const struct kt_table *tb,
				   const char *sym);
/* --sym-annotate in batch: sym's annotation after a frame of tb, or
   "no samples"; 0, or -1 with errno. */
int annotate_print(struct kt *kt, const struct kt_table *tb,
		   const char *sym, FILE *out);

#endif
