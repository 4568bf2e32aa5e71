/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frame.h - the text of a frame (frame.c), shared by batch, TUI and `P'.
 */
#ifndef KERNELTOP_FRAME_H
#define KERNELTOP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "view.h"

struct kt;

#define KT_LINE 512
/* Header line 0 or 1 of a table of measure m. */
void frame_header(const struct kt *kt, enum kt_measure m, unsigned line,
		  char *buf, size_t size);
/* The column header and the rows of table tb; width 0: no screen. */
void frame_columns(const struct kt *kt, const struct kt_table *tb,
		   char *buf, size_t size, int width);
void frame_row(const struct kt *kt, const struct kt_table *tb,
	       const struct top_row *r, char *buf, size_t size, int width);
/* What is sampled, as the header says it ("pid 123 on CPUs 0-1"). */
void frame_target(const struct kt *kt, char *buf, size_t size);
/* A whole frame of tb as batch prints it; returns 0 or -1 with errno. */
/*
 * --hierarchy: tb's rows nested by the -s keys in their order, a line
 * each (text as shown).  open(path, arg) says whether a group's lines
 * are shown under it (path: its key values from the top, 0x1f between);
 * NULL shows all, unmarked (batch); else groups are marked + or -.
 * max_rows 0: every row.  frame_hier_free() frees the lines.
 */
struct kt_hline {
	char *text;
	char *path;			/* the group (or row) it is */
	unsigned level;
	bool open;			/* a group shown open */
	const struct top_row *row;	/* the last level: its row; NULL for
					   a group */
};
bool frame_hier_shown(const struct kt *kt, const struct kt_table *tb);
void frame_hier_columns(const struct kt *kt, const struct kt_table *tb,
			char *buf, size_t size);
size_t frame_hier_lines(const struct kt *kt, const struct kt_table *tb,
			size_t max_rows,
			bool (*open)(const char *path, void *arg), void *arg,
			struct kt_hline **lines);
void frame_hier_free(struct kt_hline *lines, size_t n);
int frame_print(const struct kt *kt, const struct kt_table *tb, FILE *out,
		size_t max_rows);

#endif
