/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-atomic-file.c - a file rewritten whole or not at all: commit
   replaces, abort and failures keep the old content, no temporary stays,
   devices are written in place, bad paths say why; nothing is written
   through a link another user planted in a sticky directory, a FIFO
   never blocks, and two spellings of one file are one file. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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


/* Whether path holds text, and is still the file st was taken of. */
static int intact(const char *path, const char *text, const struct stat *st)
{
	struct stat now;
	char buf[64];

	slurp(path, buf, sizeof(buf));
	return !strcmp(buf, text) && lstat(path, &now) == 0 &&
	       now.st_ino == st->st_ino && S_ISREG(now.st_mode);
}

/*
 * As uid 65534 (nobody): make a symbolic link at path to target (what
 * 'l'), or an empty file at path ('f'), as another user plants it.
 * Needs root: 0, or -1.
 */
static int as_nobody(int what, const char *target, const char *path)
{
	pid_t pid;
	int st;

	if (geteuid() != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(1);
		if (what == 'l')
			_exit(symlink(target, path) != 0);
		_exit(open(path, O_WRONLY | O_CREAT | O_EXCL, 0644) < 0);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Every way of writing path fails with err, and victim stays as it was. */
static void refused(const char *path, int err, const char *victim,
		    const char *what)
{
	struct atomic_file af;
	struct stat st;
	FILE *f;

	CHECK(stat(victim, &st) == 0, "%s: stat the victim", what);
	errno = 0;
	f = atomic_file_start(&af, path, ATOMIC_FILE_DEVICES);
	CHECK(!f && errno == err, "%s: start: %s", what, strerror(errno));
	if (f)
		atomic_file_commit(&af);
	errno = 0;
	CHECK(atomic_file_check(path, ATOMIC_FILE_DEVICES) == -1 &&
	      errno == err, "%s: check: %s", what, strerror(errno));
	errno = 0;
	f = atomic_file_open(path, ATOMIC_FILE_DEVICES);
	CHECK(!f && errno == err, "%s: open: %s", what, strerror(errno));
	if (f)
		fclose(f);
	errno = 0;
	f = atomic_file_open(path, ATOMIC_FILE_DEVICES | ATOMIC_FILE_APPEND);
	CHECK(!f && errno == err, "%s: append: %s", what, strerror(errno));
	if (f)
		fclose(f);
	CHECK(intact(victim, "root:x:0:0\n", &st), "%s: the victim kept",
	      what);
}

/*
 * A sticky directory anyone may write, as /tmp (a private one, so that
 * nothing here depends on the machine's /tmp), with links that another
 * user planted to a file of root's ("passwd" in the private dir):
 * never followed, whatever fs.protected_symlinks says; a link of the
 * directory's owner is.
 */
static void planted(void)
{
	char shared[] = "/tmp/test-atomic-shared.XXXXXX";
	char victim[80], lnk[80], sub[80], hard[80], mine[80];
	struct atomic_file af;
	struct stat st;
	FILE *f;

	if (geteuid() != 0) {
		printf("note: not root: links of another user not tried\n");
		return;
	}
	if (!mkdtemp(shared) || chmod(shared, 01777) != 0) {
		CHECK(0, "a sticky directory: %s", strerror(errno));
		return;
	}
	snprintf(victim, sizeof(victim), "%s/passwd", dir);
	f = fopen(victim, "w");
	CHECK(f && fputs("root:x:0:0\n", f) >= 0 && fclose(f) == 0,
	      "the victim");

	/* the last name a link to it */
	snprintf(lnk, sizeof(lnk), "%s/x.prom", shared);
	CHECK(as_nobody('l', victim, lnk) == 0, "plant %s", lnk);
	refused(lnk, PATH_WALK_ELINK, victim, "a planted link");
	/* a name of the tool's own (no ATOMIC_FILE_DEVICES): the link is
	   replaced, never followed */
	put(lnk, 0, "mine\n", "over a planted link");
	CHECK(lstat(lnk, &st) == 0 && S_ISREG(st.st_mode),
	      "the planted link replaced");
	stat(victim, &st);
	CHECK(intact(victim, "root:x:0:0\n", &st), "the victim kept");
	unlink(lnk);

	/* a planted link to a directory, on the way */
	snprintf(sub, sizeof(sub), "%s/d", shared);
	CHECK(as_nobody('l', dir, sub) == 0, "plant %s", sub);
	snprintf(lnk, sizeof(lnk), "%s/d/passwd", shared);
	refused(lnk, PATH_WALK_ELINK, victim, "a planted directory link");
	f = atomic_file_start(&af, lnk, 0);
	CHECK(!f && errno == PATH_WALK_ELINK,
	      "a planted directory link, own name: %s", strerror(errno));
	if (f)
		atomic_file_abort(&af);
	unlink(sub);

	/* a hard link to it (root may make one whatever
	   fs.protected_hardlinks says): the name is replaced */
	snprintf(hard, sizeof(hard), "%s/h", shared);
	CHECK(link(victim, hard) == 0, "link: %s", strerror(errno));
	f = atomic_file_open(hard, ATOMIC_FILE_DEVICES | ATOMIC_FILE_APPEND);
	CHECK(!f && errno == ATOMIC_FILE_ESHARED,
	      "append to a hard link in a shared directory: %s",
	      strerror(errno));
	if (f)
		fclose(f);
	stat(victim, &st);
	f = atomic_file_open(hard, ATOMIC_FILE_DEVICES);
	CHECK(f && fputs("new\n", f) >= 0 && fclose(f) == 0,
	      "open over a hard link: %s", strerror(errno));
	CHECK(intact(victim, "root:x:0:0\n", &st), "the victim kept");
	unlink(hard);
	/* another user's file there: not appended to */
	CHECK(as_nobody('f', NULL, hard) == 0, "plant %s", hard);
	f = atomic_file_open(hard, ATOMIC_FILE_DEVICES | ATOMIC_FILE_APPEND);
	CHECK(!f && errno == ATOMIC_FILE_ESHARED,
	      "append to another user's file there: %s", strerror(errno));
	if (f)
		fclose(f);
	unlink(hard);

	/* a link of the directory's owner (here root) is followed, and so
	   is one when the directory is the link owner's */
	snprintf(mine, sizeof(mine), "%s/mine", shared);
	CHECK(symlink(victim, mine) == 0, "symlink: %s", strerror(errno));
	put(mine, ATOMIC_FILE_DEVICES, "followed\n", "root's link");
	slurp(victim, hard, sizeof(hard));
	CHECK(!strcmp(hard, "followed\n"), "root's link followed: '%s'", hard);
	unlink(mine);
	/* root's own link to a directory, on the way */
	CHECK(symlink(dir, mine) == 0, "symlink: %s", strerror(errno));
	snprintf(lnk, sizeof(lnk), "%s/mine/passwd", shared);
	put(lnk, 0, "dir\n", "root's directory link");
	slurp(victim, hard, sizeof(hard));
	CHECK(!strcmp(hard, "dir\n"), "root's directory link followed: '%s'",
	      hard);
	unlink(mine);
	CHECK(chown(shared, 65534, 65534) == 0, "chown: %s", strerror(errno));
	CHECK(as_nobody('l', victim, mine) == 0, "plant %s", mine);
	put(mine, ATOMIC_FILE_DEVICES, "owner\n", "the directory owner's link");
	slurp(victim, hard, sizeof(hard));
	CHECK(!strcmp(hard, "owner\n"), "the owner's link followed: '%s'",
	      hard);
	unlink(mine);
	unlink(victim);
	rmdir(shared);
}

/* A FIFO is refused at once (opening it would wait for a reader); a
   pipe reached through /proc (as /dev/stdout is) is written in place. */
static void fifos(void)
{
	char fifo[80], fd_path[40], buf[64];
	struct atomic_file af;
	int p[2];
	ssize_t n;
	FILE *f;

	alarm(20);	/* a hang fails, with SIGALRM */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
	errno = 0;
	f = atomic_file_start(&af, fifo, ATOMIC_FILE_DEVICES);
	CHECK(!f && errno == ATOMIC_FILE_EFIFO, "FIFO start: %s",
	      strerror(errno));
	CHECK(atomic_file_check(fifo, ATOMIC_FILE_DEVICES) == -1 &&
	      errno == ATOMIC_FILE_EFIFO, "FIFO check: %s", strerror(errno));
	f = atomic_file_open(fifo, ATOMIC_FILE_DEVICES | ATOMIC_FILE_APPEND);
	CHECK(!f && errno == ATOMIC_FILE_EFIFO, "FIFO append: %s",
	      strerror(errno));
	unlink(fifo);

	CHECK(pipe(p) == 0, "pipe");
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", p[1]);
	CHECK(atomic_file_check(fd_path, ATOMIC_FILE_DEVICES) == 0,
	      "a pipe through /proc: check");
	put(fd_path, ATOMIC_FILE_DEVICES, "piped\n", "a pipe through /proc");
	n = read(p[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(!strcmp(buf, "piped\n"), "the pipe got '%s'", buf);
	/* its reader gone: the open does not wait, the write fails */
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	f = atomic_file_start(&af, fd_path, ATOMIC_FILE_DEVICES);
	CHECK(f != NULL, "a pipe without a reader opens: %s",
	      strerror(errno));
	if (f) {
		fputs("lost\n", f);
		CHECK(atomic_file_commit(&af) == -1 && errno == EPIPE,
		      "a pipe without a reader: %s", strerror(errno));
	}
	close(p[1]);
	alarm(0);
}

/* Two spellings of one file are one file; devices never are. */
static void same(const char *path)
{
	char a[80], b[80], hard[80], lnk[80];

	snprintf(a, sizeof(a), "%s/new", dir);
	snprintf(b, sizeof(b), "%s/./new", dir);
	CHECK(atomic_file_same(a, b, ATOMIC_FILE_DEVICES) == 1,
	      "a new file, two spellings");
	snprintf(b, sizeof(b), "%s/other", dir);
	CHECK(atomic_file_same(a, b, ATOMIC_FILE_DEVICES) == 0,
	      "two new files");
	snprintf(lnk, sizeof(lnk), "%s/lnk", dir);
	snprintf(hard, sizeof(hard), "%s/hard", dir);
	CHECK(symlink("keep", lnk) == 0 && link(path, hard) == 0,
	      "links: %s", strerror(errno));
	CHECK(atomic_file_same(path, lnk, ATOMIC_FILE_DEVICES) == 1,
	      "a file and a link to it");
	CHECK(atomic_file_same(path, hard, ATOMIC_FILE_DEVICES) == 1,
	      "a file and a hard link to it");
	CHECK(atomic_file_same(path, lnk, 0) == 0,
	      "a file and a link replaced as a name");
	CHECK(atomic_file_same("/dev/null", "/dev/null",
			       ATOMIC_FILE_DEVICES) == 0, "devices");
	unlink(lnk);
	unlink(hard);
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
	/* a link of the user's own to a directory, on the way (a snapshot
	   directory): followed, the file made in the directory */
	snprintf(lnk, sizeof(lnk), "%s/dirlink", dir);
	CHECK(symlink(".", lnk) == 0, "symlink: %s", strerror(errno));
	snprintf(bad, sizeof(bad), "%s/dirlink//keep", dir);
	put(bad, 0, "seven\n", "through a link to a directory");
	slurp(path, buf, sizeof(buf));
	CHECK(!strcmp(buf, "seven\n"), "through a link to a directory: '%s'",
	      buf);
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
	same(path);
	fifos();
	planted();
	unlink(path);
	rmdir(dir);
	return check_done();
}
