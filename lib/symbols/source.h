/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * source.h - the text of the source lines a program's DWARF names, for
 * the annotations (kerneltop's source lines, the instructions' headers).
 *
 * The path comes from the target's debug information: it is opened
 * only as a regular file, without blocking (regular_file_open(): a FIFO
 * planted there must not hang the tool), and at most SOURCE_MAX_BYTES
 * of it are read.  Tabs are expanded to 8 columns and a line is cut to
 * SOURCE_LINE_MAX - 1 bytes; the text is returned as it is: the caller
 * makes it visible (esc_visible()) before showing it.
 *
 * Never prints, never exits.
 */
#ifndef SYMBOLS_SOURCE_H
#define SYMBOLS_SOURCE_H

#include <stddef.h>

#define SOURCE_MAX_BYTES (16 << 20)	/* a bigger "source" is not read */
#define SOURCE_LINE_MAX 512

/*
 * text[i] = line want[i] (from 1) of path, for i < n: a malloc()ed copy,
 * or NULL where the file has no such line.  Returns 0, or -1 with errno
 * and every text[i] NULL: regular_file_open()'s, EFBIG for a file over
 * SOURCE_MAX_BYTES, ENOMEM.
 */
int source_lines(const char *path, const int *want, size_t n, char **text);

#endif
