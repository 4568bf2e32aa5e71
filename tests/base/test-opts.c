/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-opts.c - option tables: getopt strings, help lines, bad tables,
   and a real getopt_long run over the result. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "base/opts.h"
#include "../check.h"

enum { OPT_RAW = 256, OPT_TOP };

static const struct opt_def defs[] = {
	{ "count", 'c', 'c', "N", "sample every N events" },
	{ "raw", 0, OPT_RAW, NULL, "raw lines" },
	{ "top", 0, OPT_TOP, "N", "functions in the summary" },
	{ "kernel", 'k', 'k', NULL, "kernel only" },
	{ "interval-print-very-long", 'I', 'I', "MILLISECONDS", "long" },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static const struct {
	size_t i;
	const char *line;
} help[] = {
	{ 0, "  -c, --count N                sample every N events" },
	{ 1, "      --raw                    raw lines" },
	{ 2, "      --top N                  functions in the summary" },
	{ 3, "  -k, --kernel                 kernel only" },
	/* wider than the column: one space, as printf's %-28s */
	{ 4, "  -I, --interval-print-very-long MILLISECONDS long" },
};

static void test_help(void)
{
	for (size_t i = 0; i < sizeof(help) / sizeof(help[0]); i++) {
		char buf[128];
		size_t n = opts_help_line(&defs[help[i].i], buf, sizeof(buf));

		CHECK(strcmp(buf, help[i].line) == 0 && n == strlen(help[i].line),
		      "help %zu: '%s'", i, buf);
	}
	{
		char small[8];
		size_t n = opts_help_line(&defs[0], small, sizeof(small));

		CHECK(n == strlen(help[0].line) && strlen(small) == 7,
		      "help cut: %zu", n);
	}
}

static void test_getopt(void)
{
	struct option lo[NDEFS + 1];
	char so[OPTS_SHORT_SIZE(NDEFS)];
	char *argv[] = { "prog", "-kc", "5", "--top", "3", "--raw", "cmd",
			 "-c", "7", NULL };
	int argc = 9, c, got[8], n = 0;

	CHECK(3 * NDEFS + 2 >= sizeof(so), "3n + 2 covers the short string");
	CHECK(opts_getopt(defs, NDEFS, lo, so, true) == 0, "table accepted");
	CHECK(strcmp(so, "+:c:kI:") == 0, "short options '%s'", so);
	CHECK(lo[NDEFS].name == NULL, "long options zero-terminated");
	CHECK(lo[2].has_arg == required_argument && lo[2].val == OPT_TOP &&
	      lo[1].has_arg == no_argument, "long options from the table");
	CHECK(opts_getopt(defs, NDEFS, lo, so, false) == 0 &&
	      strcmp(so, ":c:kI:") == 0, "no '+': '%s'", so);

	opts_getopt(defs, NDEFS, lo, so, true);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1 && n < 8)
		got[n++] = c;
	CHECK(n == 4 && got[0] == 'k' && got[1] == 'c' && got[2] == OPT_TOP &&
	      got[3] == OPT_RAW, "parsed %d options", n);
	CHECK(optind == 6, "stopped at the command (optind %d)", optind);

	{
		char *bad[] = { "prog", "-c", NULL };

		optind = 1;
		c = getopt_long(2, bad, so, lo, NULL);
		CHECK(c == ':', "missing argument gives ':' (%d)", c);
	}
}

static const struct {
	struct opt_def d[2];
	const char *why;
} bad[] = {
	{ { { "a", 'x', 'x', NULL, "" }, { "b", 'x', 'x', NULL, "" } },
	  "duplicate letter" },
	{ { { "a", 0, 300, NULL, "" }, { "a", 0, 301, NULL, "" } },
	  "duplicate name" },
	{ { { "a", 'x', 300, NULL, "" }, { "b", 0, 301, NULL, "" } },
	  "letter and id differ" },
};

static void test_bad_tables(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct option lo[3];
		char so[OPTS_SHORT_SIZE(2)];
		int r;

		errno = 0;
		r = opts_getopt(bad[i].d, 2, lo, so, false);
		CHECK(r == -1 && errno == EINVAL, "%s refused", bad[i].why);
	}
}

/* "[=L]": an optional argument, --per=L or --per alone. */
static void test_optional(void)
{
	static const struct opt_def d[] = {
		{ "per", 0, 300, "[=L]", "per level" },
		{ "x", 'x', 'x', NULL, "x" },
	};
	char *argv[] = { "prog", "--per", "--per=L2", "-x", NULL };
	struct option lo[3];
	char so[OPTS_SHORT_SIZE(2)], line[128];
	const char *got[2] = { "unset", "unset" };
	int c, n = 0;

	CHECK(opts_getopt(d, 2, lo, so, false) == 0, "optional table valid");
	CHECK(lo[0].has_arg == optional_argument, "optional_argument");
	opts_help_line(&d[0], line, sizeof(line));
	CHECK(strstr(line, "--per[=L] ") != NULL, "help shows --per[=L]: '%s'",
	      line);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(4, argv, so, lo, NULL)) != -1)
		if (c == 300 && n < 2)
			got[n++] = optarg;
	CHECK(n == 2 && got[0] == NULL && got[1] && strcmp(got[1], "L2") == 0,
	      "--per alone, then --per=L2");
}

static void test_find(void)
{
	CHECK(opts_find(defs, NDEFS, OPT_TOP) == &defs[2], "find --top");
	CHECK(opts_find(defs, NDEFS, 'z') == NULL, "find absent");
}

int main(void)
{
	test_help();
	test_getopt();
	test_bad_tables();
	test_optional();
	test_find();
	return check_done();
}
