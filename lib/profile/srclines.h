/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * srclines.h - one function's samples per source line: each sampled
 * address resolved to its file and line (libdw, through lib/symbols),
 * summed by line, with the line's text where the source file can be
 * read.  kerneltop's annotate screen and --sym-annotate show these rows.
 *
 * The two steps are the ones the instructions' headers take as well
 * (insns.h): srcline_of() finds an address's line, srclines_texts()
 * reads the text of many lines, a file at a time.
 *
 * Never prints, never exits; -1 with errno ENOMEM is the only failure.
 */
#ifndef PROFILE_SRCLINES_H
#define PROFILE_SRCLINES_H

#include <stddef.h>
#include <stdint.h>

#include "base/strpool.h"
#include "profile/top.h"
#include "symbols/symbols.h"

struct srcline {
	const char *file;	/* interned in the srclines; NULL: unknown */
	int line;
	uint64_t count;		/* samples at the line's addresses */
	char *text;		/* the line's source, NULL when unreadable */
};

struct srclines {
	struct srcline *lines;	/* by file name, then line */
	size_t n, alloc;
	uint64_t total;		/* every sample, a line known or not */
	size_t hottest;		/* the line with the most samples */
	struct strpool files;
};

/*
 * The lines of the sampled ELF vaddrs addrs[0..n) of dso (a file path as
 * struct sym_result names it; a kernel's "[...]" has no lines here: its
 * samples count under the unknown line).  0 with *a filled (release it
 * with srclines_release()), or -1 (ENOMEM) with *a empty.
 */
int srclines_build(struct symbols *s, const char *dso,
		   const struct top_addr *addrs, size_t n, struct srclines *a);

void srclines_release(struct srclines *a);

/* The column header that goes with srclines_row_text(). */
const char *srclines_header(void);

/*
 * Line i as one line of text, at most size bytes:
 *	">  61.20%     153  spin.c:42                 x += i * 3;"
 * the hottest marked with '>', the file's base name, the text made
 * visible (esc_visible()), "??:0" for the unknown line.
 */
void srclines_row_text(const struct srclines *a, size_t i, char *buf,
		       size_t size);

/*
 * The source line of vaddr in dso: *file interned in files (NULL and
 * *line 0 where the debug information has none).  0, or -1 (ENOMEM).
 */
int srcline_of(struct symbols *s, const char *dso, uint64_t vaddr,
	       struct strpool *files, const char **file, int *line);

/* A line whose text is wanted: *text is set where it can be read. */
struct srcline_want {
	const char *file;	/* interned: one pointer per file name */
	int line;
	char **text;		/* NULL on entry; the caller frees */
};

/*
 * The text of want[0..n), one read of each file, as dso's process sees
 * it (lib/symbols/source.h); a file that cannot be read leaves its
 * lines' text NULL.  0, or -1 (ENOMEM).
 */
int srclines_texts(struct symbols *s, const char *dso,
		   const struct srcline_want *want, size_t n);

#endif
