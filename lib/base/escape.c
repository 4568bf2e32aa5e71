/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* escape.c - the visible sanitiser and the JSON and XML escapers, over
   one UTF-8 decoder; display widths over the same decoder. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "base/escape.h"

/* snprintf-style output: whole units while they fit, the length always. */
struct out {
	char *dst;
	size_t size;
	size_t len;		/* what the whole result needs */
	size_t written;		/* what was written: whole units only */
	bool cut;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (!o->cut && o->written + n < o->size) {
		memcpy(o->dst + o->written, p, n);
		o->written += n;
	} else {
		o->cut = true;
	}
	o->len += n;
}

/* "\xNN" or "\u00NN" of one byte. */
static void put_hex(struct out *o, const char *prefix, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char buf[8];
	size_t n = strlen(prefix);

	memcpy(buf, prefix, n);
	buf[n++] = hex[c >> 4];
	buf[n++] = hex[c & 15];
	put(o, buf, n);
}

static size_t finish(struct out *o)
{
	if (o->size)
		o->dst[o->written] = '\0';
	return o->len;
}

/*
 * The length of the valid UTF-8 sequence at s (2 to 4) with its code
 * point in *cp, or 0 when s does not start one: a stray continuation
 * byte, a truncated sequence, an overlong form, a surrogate, or a code
 * point above U+10FFFF.  ASCII is not handled here.
 */
static size_t utf8_seq(const unsigned char *s, uint32_t *cp)
{
	uint32_t c, min;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static bool is_c1(uint32_t cp)
{
	return cp >= 0x80 && cp <= 0x9f;
}

enum esc_mode { ESC_VISIBLE, ESC_ASCII, ESC_JSON };

/*
 * The one walk over src, unit by unit (an ASCII byte, a UTF-8 sequence or
 * an invalid byte); the mode picks the JSON forms of what is not shown as
 * is, or shows every non-ASCII byte escaped.
 */
static size_t escape(char *dst, size_t size, const char *src,
		     enum esc_mode mode)
{
	const unsigned char *s = (const unsigned char *)src;
	bool json = mode == ESC_JSON;
	const char *ctl = json ? "\\u00" : "\\x";
	struct out o = { dst, size, 0, 0, false };

	while (*s) {
		uint32_t cp;
		size_t n = 1, i;

		if (*s < 0x80) {
			if (json && (*s == '"' || *s == '\\')) {
				char esc[2] = { '\\', (char)*s };

				put(&o, esc, 2);
			} else if (*s < 0x20 || *s == 0x7f) {
				put_hex(&o, ctl, *s);
			} else {
				put(&o, s, 1);
			}
		} else if ((n = utf8_seq(s, &cp)) == 0) {
			n = 1;
			if (json)
				put(&o, "\\ufffd", 6);
			else
				put_hex(&o, ctl, *s);
		} else if (is_c1(cp) && json) {
			put_hex(&o, ctl, (unsigned char)cp);
		} else if (is_c1(cp) || mode == ESC_ASCII) {
			for (i = 0; i < n; i++)
				put_hex(&o, ctl, s[i]);
		} else {
			put(&o, s, n);
		}
		s += n;
	}
	return finish(&o);
}

size_t esc_visible(char *dst, size_t size, const char *src)
{
	return escape(dst, size, src, ESC_VISIBLE);
}

size_t esc_visible_ascii(char *dst, size_t size, const char *src)
{
	return escape(dst, size, src, ESC_ASCII);
}

size_t esc_json(char *dst, size_t size, const char *src)
{
	return escape(dst, size, src, ESC_JSON);
}

/* The columns of the character at s, its length in *n. */
static size_t char_width(const unsigned char *s, size_t *n)
{
	uint32_t cp;
	int w;

	*n = 1;
	if (*s < 0x80)
		return 1;
	if ((*n = utf8_seq(s, &cp)) == 0) {
		*n = 1;
		return 1;
	}
	w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : (size_t)w;
}

size_t esc_width(const char *s)
{
	size_t w = 0, n;

	for (; *s; s += n)
		w += char_width((const unsigned char *)s, &n);
	return w;
}

size_t esc_fit(const char *s, size_t cols, size_t *width)
{
	const char *p = s;
	size_t w = 0, cw, n;

	for (; *p; p += n) {
		cw = char_width((const unsigned char *)p, &n);
		if (w + cw > cols)
			break;
		w += cw;
	}
	if (width)
		*width = w;
	return (size_t)(p - s);
}

size_t esc_xml(char *dst, size_t size, const char *src)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *s = (const unsigned char *)src;
	struct out o = { dst, size, 0, 0, false };

	while (*s) {
		uint32_t cp;
		size_t n;

		switch (*s) {
		case '&': put(&o, "&amp;", 5); s++; continue;
		case '<': put(&o, "&lt;", 4); s++; continue;
		case '>': put(&o, "&gt;", 4); s++; continue;
		case '"': put(&o, "&quot;", 6); s++; continue;
		case '\'': put(&o, "&#39;", 5); s++; continue;
		default: break;
		}
		if (*s < 0x80) {
			if (*s < 0x20 || *s == 0x7f)
				put(&o, fffd, 3);
			else
				put(&o, s, 1);
			s++;
		} else if ((n = utf8_seq(s, &cp)) == 0) {
			put(&o, fffd, 3);
			s++;
		} else {
			if (is_c1(cp))
				put(&o, fffd, 3);
			else
				put(&o, s, n);
			s += n;
		}
	}
	return finish(&o);
}
