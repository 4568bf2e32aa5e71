/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * escape.h - bytes from outside (symbol names, paths, comm names) made
 * safe to show: one sanitiser for every human-readable output, one
 * escaper each for JSON strings and XML.
 *
 * Both work like snprintf(3): they write at most size bytes including the
 * terminating NUL (always written when size > 0), and return the length
 * the whole result needs, not counting the NUL; a return >= size means
 * the output was cut.  A cut output ends on a whole unit: never inside an
 * escape or a UTF-8 sequence.  The input is a NUL-terminated string and
 * is only read.
 *
 * Never prints, never exits, never allocates; cannot fail.
 */
#ifndef BASE_ESCAPE_H
#define BASE_ESCAPE_H

#include <stddef.h>

/*
 * For a terminal or a text file: every byte that could act on a terminal,
 * or that is not part of valid UTF-8, is shown as \xNN (lower-case hex,
 * as git and less show them).  One rule: C0 controls (\t \n \r included)
 * and DEL; each byte of an encoded C1 control (U+0080..U+009F: "\xc2\x9b"
 * for CSI); each byte of an invalid, overlong or surrogate sequence.
 * Printable ASCII and other valid UTF-8 pass unchanged, a backslash too:
 * the result is for eyes, not for parsing back.
 */
size_t esc_visible(char *dst, size_t size, const char *src);

/*
 * esc_visible() for a terminal whose character set is not UTF-8 (a C or
 * Latin-1 locale): every byte above 0x7f is shown as \xNN too, so that
 * what reaches the terminal is printable ASCII.
 */
size_t esc_visible_ascii(char *dst, size_t size, const char *src);

/*
 * Display width.  s is text as esc_visible() leaves it (valid UTF-8
 * without controls); each character counts what wcwidth(3) says of it in
 * the current LC_CTYPE (2 for CJK, 0 for a combining mark), and 1 where
 * wcwidth() knows no width (outside a UTF-8 locale every non-ASCII
 * character, or a byte that is not valid UTF-8).
 *
 * esc_width() is the columns s takes.  esc_fit() is the length in bytes
 * of the longest start of s that takes at most cols columns, ending on a
 * whole character (zero-width ones after it included); *width (may be
 * NULL) gets the columns of that start.
 */
size_t esc_width(const char *s);
size_t esc_fit(const char *s, size_t cols, size_t *width);

/*
 * A JSON string body (without the quotes) that json.loads() always
 * accepts: " and \ as \" and \\; C0 controls, DEL and C1 controls as
 * \u00NN (lower-case hex); each byte not part of valid UTF-8 replaced by
 * \ufffd (U+FFFD, the replacement character); other valid UTF-8
 * unchanged.
 */
size_t esc_json(char *dst, size_t size, const char *src);

/*
 * XML character data or an attribute value (either quote) that every XML
 * 1.0 parser accepts: & < > " ' as &amp; &lt; &gt; &quot; &#39;; C0
 * controls, DEL, C1 controls and each byte not part of valid UTF-8
 * replaced by U+FFFD (XML 1.0 forbids the controls even as references);
 * other valid UTF-8 unchanged.
 */
size_t esc_xml(char *dst, size_t size, const char *src);

#endif
