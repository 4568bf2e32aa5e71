/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-escape.c - esc_visible() and esc_json(): a table of inputs and
   their escaped forms, then truncation; display widths. */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "base/escape.h"
#include "../check.h"

static const struct {
	const char *in, *visible, *json;
} cases[] = {
	{ "", "", "" },
	{ "main", "main", "main" },
	{ "a b~", "a b~", "a b~" },
	{ "q\"uote\\", "q\"uote\\", "q\\\"uote\\\\" },
	{ "tab\there", "tab\\x09here", "tab\\u0009here" },
	{ "nl\n\r", "nl\\x0a\\x0d", "nl\\u000a\\u000d" },
	{ "\x1b[31mred", "\\x1b[31mred", "\\u001b[31mred" },
	{ "del\x7f", "del\\x7f", "del\\u007f" },
	/* valid UTF-8 passes: é, €, U+1F600 */
	{ "caf\xc3\xa9", "caf\xc3\xa9", "caf\xc3\xa9" },
	{ "\xe2\x82\xac", "\xe2\x82\xac", "\xe2\x82\xac" },
	{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },
	/* C1 controls: CSI (U+009B), U+0080 */
	{ "\xc2\x9b" "2J", "\\xc2\\x9b2J", "\\u009b2J" },
	{ "\xc2\x80", "\\xc2\\x80", "\\u0080" },
	{ "\xc2\xa0", "\xc2\xa0", "\xc2\xa0" },	/* U+00A0 is printable */
	/* invalid: stray continuation, lone lead, truncated, overlong,
	   surrogate, above U+10FFFF, Latin-1 */
	{ "\x80", "\\x80", "\\ufffd" },
	{ "\xc3", "\\xc3", "\\ufffd" },
	{ "\xe2\x82", "\\xe2\\x82", "\\ufffd\\ufffd" },
	{ "\xc0\xaf", "\\xc0\\xaf", "\\ufffd\\ufffd" },
	{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf", "\\ufffd\\ufffd\\ufffd" },
	{ "\xed\xa0\x80", "\\xed\\xa0\\x80", "\\ufffd\\ufffd\\ufffd" },
	{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80",
	  "\\ufffd\\ufffd\\ufffd\\ufffd" },
	{ "na\xefve", "na\\xefve", "na\\ufffdve" },
	{ "\xc3(", "\\xc3(", "\\ufffd(" },
};

static void test_table(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[128];
		size_t n;

		n = esc_visible(buf, sizeof(buf), cases[i].in);
		CHECK(strcmp(buf, cases[i].visible) == 0 &&
		      n == strlen(cases[i].visible),
		      "row %zu: visible '%s' (%zu)", i, buf, n);
		n = esc_json(buf, sizeof(buf), cases[i].in);
		CHECK(strcmp(buf, cases[i].json) == 0 && n == strlen(cases[i].json),
		      "row %zu: json '%s' (%zu)", i, buf, n);
	}
}

/* XML: entities, and U+FFFD for what XML 1.0 cannot carry. */
static const struct {
	const char *in, *xml;
} xml_cases[] = {
	{ "", "" },
	{ "std::vector<int>::at", "std::vector&lt;int&gt;::at" },
	{ "a&b \"q\" 'x'", "a&amp;b &quot;q&quot; &#39;x&#39;" },
	{ "tab\t\x1b", "tab\xef\xbf\xbd\xef\xbf\xbd" },
	{ "del\x7f", "del\xef\xbf\xbd" },
	{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
	{ "\xc2\x9b" "2J", "\xef\xbf\xbd" "2J" },
	{ "na\xefve", "na\xef\xbf\xbdve" },
};

static void test_xml(void)
{
	char buf[128];

	for (size_t i = 0; i < sizeof(xml_cases) / sizeof(xml_cases[0]); i++) {
		size_t n = esc_xml(buf, sizeof(buf), xml_cases[i].in);

		CHECK(strcmp(buf, xml_cases[i].xml) == 0 &&
		      n == strlen(xml_cases[i].xml), "xml row %zu: '%s'", i,
		      buf);
	}
	CHECK(esc_xml(buf, 4, "a<b") == 6 && strcmp(buf, "a") == 0,
	      "xml: an entity is not cut");
}

/* A short buffer: the needed length back, a prefix of whole units. */
static const struct {
	const char *in;
	size_t size;
	const char *visible;
	size_t need;
} cuts[] = {
	{ "abcdef", 4, "abc", 6 },
	{ "ab\x1b" "c", 4, "ab", 7 },		/* "\x1b" does not fit whole */
	{ "ab\x1b" "c", 7, "ab\\x1b", 7 },	/* no room left for "c" */
	{ "a\xc3\xa9", 3, "a", 3 },		/* é is not split */
	{ "abc", 1, "", 3 },
};

static void test_cuts(void)
{
	char buf[16];

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		size_t n = esc_visible(buf, cuts[i].size, cuts[i].in);

		CHECK(n == cuts[i].need && strcmp(buf, cuts[i].visible) == 0,
		      "cut %zu: '%s' (%zu)", i, buf, n);
	}
	buf[0] = 'x';
	CHECK(esc_json(buf, 0, "a\"b") == 4 && buf[0] == 'x',
	      "size 0 writes nothing");
	CHECK(esc_json(NULL, 0, "\x01") == 6, "size 0, NULL dst: the length");
}

/* For a terminal that is not UTF-8: nothing above 0x7f gets through. */
static void test_ascii(void)
{
	static const struct {
		const char *in, *out;
	} rows[] = {
		{ "main", "main" },
		{ "caf\xc3\xa9", "caf\\xc3\\xa9" },
		{ "\xe6\xbc\xa2\x1b", "\\xe6\\xbc\\xa2\\x1b" },
		{ "na\xefve", "na\\xefve" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t n = esc_visible_ascii(buf, sizeof(buf), rows[i].in);

		CHECK(strcmp(buf, rows[i].out) == 0 && n == strlen(rows[i].out),
		      "ascii row %zu: '%s'", i, buf);
	}
}

/*
 * Widths in a UTF-8 locale: CJK two columns, a combining mark none; a
 * cut never splits a character nor leaves a wide one half in.  Outside
 * one, a character counts one column.
 */
static void test_width(void)
{
	/* "hot_ünïcödé_漢字": 14 characters, 16 columns, 22 bytes */
	static const char name[] = "hot_\xc3\xbc" "n\xc3\xaf" "c\xc3\xb6"
		"d\xc3\xa9" "_\xe6\xbc\xa2\xe5\xad\x97";
	static const char comb[] = "e\xcc\x81" "x";	/* e, U+0301, x */
	size_t w;

	CHECK(esc_width("main") == 4 && esc_width("") == 0, "ASCII");
	CHECK(esc_fit("main", 2, &w) == 2 && w == 2, "ASCII cut");
	CHECK(esc_fit("main", 9, &w) == 4 && w == 4, "ASCII fits");
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		printf("note: no C.UTF-8 locale: UTF-8 widths not checked\n");
		return;
	}
	CHECK(esc_width(name) == 16, "UTF-8 width %zu", esc_width(name));
	/* 15 columns: the last CJK character does not fit */
	CHECK(esc_fit(name, 15, &w) == strlen(name) - 3 && w == 14,
	      "cut before a wide character: %zu", w);
	CHECK(esc_fit(name, 16, &w) == strlen(name) && w == 16, "all fits");
	CHECK(esc_fit(name, 5, &w) == 6 && w == 5, "u-umlaut whole");
	CHECK(esc_width(comb) == 2, "combining mark: %zu", esc_width(comb));
	CHECK(esc_fit(comb, 1, &w) == 3 && w == 1, "the mark stays with e");
	CHECK(esc_width("\xff") == 1, "an invalid byte: one column");
	setlocale(LC_CTYPE, "C");
	CHECK(esc_width(name) == 14, "C locale: %zu", esc_width(name));
}

int main(void)
{
	test_table();
	test_cuts();
	test_xml();
	test_ascii();
	test_width();
	return check_done();
}
