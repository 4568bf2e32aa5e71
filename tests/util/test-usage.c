/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usage.c - usage_parse(): each kind of row stores what it says into
 * its member, of whatever size; the rows without a target reach the
 * tool's code in order; a number out of its row's range exits 2 with the
 * row's words and its range as far as it limits; an unknown option or a
 * bad table never returns.  The exits run in a child.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/opts.h"
#include "util/die.h"
#include "util/usage.h"
#include "../check.h"

struct o {
	bool flag, off;
	int mode;
	const char *name;
	unsigned verbose;
	uint8_t small;
	uint16_t mid;
	unsigned n32;
	uint64_t n64;
	size_t calls;
	struct sub { int letters, times; } sub;	/* OPT_CALL_ON's */
	char seen[16];		/* the ids code() saw, in order */
};

static void call(void *p, const char *arg)
{
	struct o *o = p;

	o->calls += strlen(arg);
}

/* Called with the member itself, as a handler shared by tools is. */
static void sub_call(void *p, const char *arg)
{
	struct sub *sub = p;

	sub->letters += (int)strlen(arg);
	sub->times++;
}

static bool code(void *p, int id, char *arg)
{
	struct o *o = p;
	size_t n = strlen(o->seen);

	(void)arg;
	if (id != 'x' && id != 300)
		return false;
	if (n + 1 < sizeof(o->seen))
		o->seen[n] = id == 'x' ? 'x' : 'L';
	return true;
}

static const struct opt_def defs[] = {
	{ "flag", 'f', 'f', NULL, "h", OPT_SET(struct o, flag, 1) },
	{ "no-off", 0, 256, NULL, "h", OPT_SET(struct o, off, 0) },
	{ "mode", 'm', 'm', NULL, "h", OPT_SET(struct o, mode, 7) },
	{ "name", 'N', 'N', "S", "h", OPT_STRING(struct o, name) },
	{ "verbose", 'v', 'v', NULL, "h", OPT_COUNT(struct o, verbose) },
	{ "small", 's', 's', "N", "h",
	  OPT_NUMBER(struct o, small, 1, 200, "wants a small one") },
	{ "mid", 0, 257, "N", "h",
	  OPT_NUMBER(struct o, mid, 0, UINT16_MAX, "wants a mid one") },
	{ "n32", 0, 258, "N", "h",
	  OPT_NUMBER(struct o, n32, 2, UINT32_MAX, "wants n32") },
	{ "n64", 0, 259, "N", "h",
	  OPT_NUMBER(struct o, n64, 0, UINT64_MAX, "wants n64") },
	{ "call", 'c', 'c', "S", "h", OPT_CALL(call) },
	{ "sub", 'S', 'S', "S", "h", OPT_CALL_ON(struct o, sub, sub_call) },
	{ "x", 'x', 'x', NULL, "h", OPT_CODE },
	{ "long-code", 0, 300, NULL, "h" },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static int parse(struct o *o, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	optind = 0;
	return usage_parse(defs, NDEFS, argc, argv, true, o, code);
}

/* Parse argv in a child; its exit status and first line of stderr. */
static int child(char **argv, const struct opt_def *table, size_t n,
		 char *err, size_t size)
{
	int e[2], status;
	ssize_t got;
	pid_t pid;

	if (pipe(e) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct o o = { 0 };
		int argc = 0;

		while (argv[argc])
			argc++;
		dup2(e[1], 2);
		optind = 0;
		usage_parse(table, n, argc, argv, true, &o, code);
		_exit(0);
	}
	close(e[1]);
	got = read(e[0], err, size - 1);
	err[got > 0 ? got : 0] = '\0';
	close(e[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void check_error(char **argv, int status, const char *want)
{
	char err[512];
	int got = child(argv, defs, NDEFS, err, sizeof(err));

	CHECK(got == status && strstr(err, want),
	      "%s %s: exit %d, '%s' (want %d, '%s')", argv[1],
	      argv[2] ? argv[2] : "", got, err, status, want);
}

int main(void)
{
	struct o o = { .off = true };
	char *argv[] = { "t", "-ff", "--no-off", "-m", "-N", "abc", "-vvv",
			 "-s", "200", "--mid", "65535", "--n32", "0x10",
			 "--n64", "18446744073709551615", "-c", "four",
			 "-x", "--long-code", "-c", "to", "-Sabc", "-x", "cmd",
			 "-f", NULL };
	int first;

	set_progname("test-usage");
	first = parse(&o, argv);
	CHECK(first == 23 && !strcmp(argv[first], "cmd"),
	      "the command at %d (want 23)", first);
	CHECK(o.flag && !o.off && o.mode == 7, "sets: %d %d %d", o.flag,
	      o.off, o.mode);
	CHECK(o.name && !strcmp(o.name, "abc"), "string: %s",
	      o.name ? o.name : "(null)");
	CHECK(o.verbose == 3, "count: %u", o.verbose);
	CHECK(o.small == 200 && o.mid == 65535 && o.n32 == 16 &&
	      o.n64 == UINT64_MAX, "numbers: %u %u %u %llu", o.small, o.mid,
	      o.n32, (unsigned long long)o.n64);
	CHECK(o.calls == 6, "calls: %zu letters (want 6)", o.calls);
	CHECK(o.sub.letters == 3 && o.sub.times == 1,
	      "call on a member: %d letters, %d times (want 3, 1)",
	      o.sub.letters, o.sub.times);
	CHECK(!strcmp(o.seen, "xLx"), "code saw '%s' (want xLx)", o.seen);

	/* the range as far as it limits, in the row's words */
	check_error((char *[]){ "t", "-s", "201", NULL }, 2,
		    "test-usage: -s wants a small one from 1 to 200, not '201'");
	check_error((char *[]){ "t", "--mid", "65536", NULL }, 2,
		    "--mid wants a mid one, not '65536'");
	check_error((char *[]){ "t", "--n32", "1", NULL }, 2,
		    "--n32 wants n32 >= 2, not '1'");
	check_error((char *[]){ "t", "--n32", "4294967296", NULL }, 2,
		    "--n32 wants n32 >= 2, not '4294967296'");
	check_error((char *[]){ "t", "--n64", "-1", NULL }, 2,
		    "--n64 wants n64, not '-1'");
	check_error((char *[]){ "t", "--nope", NULL }, 2,
		    "unknown option '--nope'");
	check_error((char *[]){ "t", "-s", NULL }, 2,
		    "option '-s' needs an argument");

	/* a target that does not fit its member is the table's bug */
	{
		struct opt_def bad[] = {
			{ "b", 'b', 'b', "S", "h",
			  OPT_STRING(struct o, verbose) },
		};
		char err[512];
		int got = child((char *[]){ "t", NULL }, bad, 1, err,
				sizeof(err));

		CHECK(got == 1 && strstr(err, "bad option table: --b"),
		      "bad table: exit %d, '%s'", got, err);
	}
	return check_done();
}
