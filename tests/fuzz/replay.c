/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - a fuzz target without libFuzzer: every file named on the
 * command line (a directory: every file in it, sorted) is fed to
 * LLVMFuzzerTestOneInput() once.  Without arguments it replays the
 * target's seed corpus and crash reproducers from the source tree
 * ($top_srcdir/tests/fuzz/{corpus,regress}/FUZZ_NAME), as make check
 * does; a corpus with no file at all is a failure, not a pass.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static size_t replayed;

static void replay_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	/* one byte more than needed, so that an empty file has a buffer */
	buf = malloc((size_t)st.st_size + 1);
	if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
	free(buf);
	replayed++;
}

static int skip_dots(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* A file, or the files of a directory; a missing path is no input. */
static void replay_path(const char *path, int must_exist)
{
	struct dirent **ents;
	struct stat st;
	int n;

	if (stat(path, &st) != 0) {
		if (!must_exist && errno == ENOENT)
			return;
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	n = scandir(path, &ents, skip_dots, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/%s", path, ents[i]->d_name);
		replay_file(p);
		free(ents[i]);
	}
	free(ents);
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			replay_path(argv[i], 1);
	} else {
		const char *top = getenv("top_srcdir");
		char p[4096];

		if (!top)
			top = ".";
		snprintf(p, sizeof(p), "%s/tests/fuzz/corpus/%s", top, FUZZ_NAME);
		replay_path(p, 1);
		snprintf(p, sizeof(p), "%s/tests/fuzz/regress/%s", top, FUZZ_NAME);
		replay_path(p, 0);
	}
	if (replayed == 0) {
		fprintf(stderr, "replay: no input replayed\n");
		return 1;
	}
	printf("%s: %zu inputs replayed\n", FUZZ_NAME, replayed);
	return 0;
}
