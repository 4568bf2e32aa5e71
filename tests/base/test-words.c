/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-words.c - words_split(): a table of command lines and their argv. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"
#include "../check.h"

static const struct {
	const char *in;
	int n;			/* -1: refused */
	const char *words[5];
} cases[] = {
	{ "echo pre", 2, { "echo", "pre" } },
	{ "  sync\t", 1, { "sync" } },
	{ "sh -c 'echo a; echo b'", 3, { "sh", "-c", "echo a; echo b" } },
	{ "printf \"%s\\n\" \"a \\\"b\\\"\"", 3, { "printf", "%s\\n", "a \"b\"" } },
	{ "a\\ b c", 2, { "a b", "c" } },
	{ "x''y \"\"", 2, { "xy", "" } },
	{ "echo $HOME *", 3, { "echo", "$HOME", "*" } },	/* no expansion */
	{ "rm -f 'it'\"s\"", 3, { "rm", "-f", "its" } },
	{ "", -1, { NULL } },
	{ "   ", -1, { NULL } },
	{ "echo 'open", -1, { NULL } },
	{ "echo \"open", -1, { NULL } },
	{ "echo \\", -1, { NULL } },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char **argv = NULL;
		int n = words_split(cases[i].in, &argv);

		CHECK(n == cases[i].n, "'%s': %d words", cases[i].in, n);
		if (n < 0) {
			CHECK(errno == EINVAL, "'%s': errno %d", cases[i].in, errno);
			continue;
		}
		for (int w = 0; w < n && w < 5; w++)
			CHECK(argv[w] && !strcmp(argv[w], cases[i].words[w]),
			      "'%s': word %d is '%s'", cases[i].in, w, argv[w]);
		CHECK(argv[n] == NULL, "'%s': argv not terminated", cases[i].in);
		free(argv);
	}
	return check_done();
}
