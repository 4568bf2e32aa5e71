/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-escape.c - esc_visible() and esc_json(): a table of inputs and
   their escaped forms, then truncation. */
#include "config.h"

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

int main(void)
{
	test_table();
	test_cuts();
	test_xml();
	return check_done();
}
