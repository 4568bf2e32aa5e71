/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-atomic-file.c - a file rewritten whole or not at all: commit
   replaces, abort and failures keep the old content, no temporary stays,
   devices are written in place, bad paths say why. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic-file.h"
#include "../check.h"

static char dir[] = "/tmp/test-atomic-file.XXXXXX";

static void slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Files in dir other than "keep". */
static int others(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		     strcmp(de->d_name, "keep");
	if (d)
		closedir(d);
	return n;
}

/* Write text whole to path through an atomic file: each step checked,
   named by what (how the path is reached). */
static void put(const char *path, int flags, const char *text,
		const char *what)
{
	struct atomic_file af;
	FILE *f = atomic_file_start(&af, path, flags);

	CHECK(f != NULL, "start %s: %s", what, strerror(errno));
	if (f) {
		fputs(text, f);
		CHECK(atomic_file_commit(&af) == 0, "commit %s", what);
	}
}

int main(void)
{
	struct atomic_file af;
	char path[64], buf[64], bad[80], lnk[80];
	struct stat st;
	FILE *f;

	if (!mkdtemp(dir))
		SKIP("cannot make a temporary directory");
	snprintf(path, sizeof(path), "%s/keep", dir);

	f = atomic_file_start(&af, path, ATOMIC_FILE_SYNC);
	CHECK(f != NULL, "start: %s", strerror(errno));
	fputs("one\n", f);
	CHECK(atomic_file_commit(&af) == 0, "commit");
	slurp(path, buf, sizeof(buf));
	CHECK(!strcmp(buf, "one\n"), "new file: '%s'", buf);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~umask(022)),
	      "mode 0666 less the umask: %o", st.st_mode & 0777);

	f = atomic_file_start(&af, path, 0);
	fputs("two\n", f);
	slurp(path, buf, sizeof(buf));
	CHECK(!strcmp(buf, "one\n") && others() == 1,
	      "while writing: the old content, one temporary");
	atomic_file_abort(&af);
	slurp(path, buf, sizeof(buf));
	CHECK(!strcmp(buf, "one\n") && others() == 0, "abort: old content");

	f = atomic_file_start(&af, path, 0);
	fputs("three\n", f);
	CHECK(atomic_file_commit(&af) == 0 && others() == 0, "replace");
	slurp(path, buf, sizeof(buf));
	CHECK(!strcmp(buf, "three\n"), "replaced: '%s'", buf);

	/* a path the user named that is a symbolic link (/dev/stdout ->
	   /proc/self/fd/1 -> a file): its target gets the content, the
	   link stays */
	snprintf(lnk, sizeof(lnk), "%s/link", dir);
	CHECK(symlink("keep", lnk) == 0, "symlink: %s", strerror(errno));
	put(lnk, ATOMIC_FILE_DEVICES, "four\n", "through a link");
	slurp(path, buf, sizeof(buf));
	CHECK(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode) &&
	      !strcmp(buf, "four\n"), "the link kept, its target '%s'", buf);
	/* without the flag (a name of the tool's own in a shared
	   directory) the name is replaced, nothing written through */
	put(lnk, 0, "five\n", "over a link");
	slurp(path, buf, sizeof(buf));
	CHECK(lstat(lnk, &st) == 0 && S_ISREG(st.st_mode) &&
	      !strcmp(buf, "four\n"), "the link replaced, its target kept");
	unlink(lnk);
	/* a link to a file not there yet: the file is made, the link stays */
	CHECK(symlink("new", lnk) == 0, "symlink: %s", strerror(errno));
	put(lnk, ATOMIC_FILE_DEVICES, "six\n", "through a dangling link");
	slurp(lnk, buf, sizeof(buf));
	CHECK(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode) &&
	      !strcmp(buf, "six\n"), "the dangling link kept, its target made");
	unlink(lnk);
	snprintf(lnk, sizeof(lnk), "%s/new", dir);
	unlink(lnk);

	/* a device: written in place, and a write error is an error */
	f = atomic_file_start(&af, "/dev/full", ATOMIC_FILE_DEVICES);
	CHECK(f != NULL, "/dev/full opens");
	if (f) {
		fputs("x\n", f);
		CHECK(atomic_file_commit(&af) == -1 && errno == ENOSPC,
		      "/dev/full: ENOSPC");
	}
	CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode),
	      "/dev/full still a device");
	CHECK(atomic_file_check("/dev/null", ATOMIC_FILE_DEVICES) == 0,
	      "/dev/null can be written");

	snprintf(bad, sizeof(bad), "%s/no-dir/x", dir);
	CHECK(atomic_file_check(bad, 0) == -1 && errno == ENOENT,
	      "missing directory: ENOENT");
	CHECK(atomic_file_check(dir, 0) == -1 && errno == EISDIR,
	      "a directory: EISDIR");
	CHECK(atomic_file_check(path, 0) == 0 && others() == 0,
	      "check leaves nothing");
	unlink(path);
	rmdir(dir);
	return check_done();
}
