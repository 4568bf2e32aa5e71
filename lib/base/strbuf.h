/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * strbuf.h - text appended to a fixed buffer, cut at its end: the one
 * bounded appender (a line of a table, a status line, a list of CPUs).
 * A cut may fall inside a multibyte character; a caller that shows the
 * text cuts it again by display width.  Never prints, never fails.
 */
#ifndef BASE_STRBUF_H
#define BASE_STRBUF_H

#include <stddef.h>

/*
 * Append fmt's text to buf[size] (size > 0), whose length is *len:
 * as much as fits, NUL-terminated; *len becomes the new length, never
 * more than size - 1, so that calls in a row stay in bounds.
 */
void str_append(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append s to the NUL-terminated text in buf[size], after sep when that
   text is not empty ("a; b"), as much as fits. */
void str_join(char *buf, size_t size, const char *sep, const char *s);

#endif
