/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* atomic-file.c - a temporary beside the file, renamed over it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic-file.h"

static void clear(struct atomic_file *af)
{
	if (af->dirfd >= 0)
		close(af->dirfd);
	free(af->name);
	free(af->tmp);
	*af = (struct atomic_file){ .dirfd = -1 };
}

/* Create the temporary beside af->name: a descriptor, or -1 with errno. */
static int temp_create(struct atomic_file *af)
{
	static unsigned serial;
	/* a long name is cut, so that the temporary's fits NAME_MAX */
	int keep = (int)strnlen(af->name, 200), tries, fd, n;

	n = snprintf(NULL, 0, ".%.*s.tmp-%d-%u", keep, af->name,
		     (int)getpid(), ~0u);
	af->tmp = malloc((size_t)n + 1);
	if (!af->tmp)
		return -1;
	for (tries = 0; tries < 100; tries++) {
		snprintf(af->tmp, (size_t)n + 1, ".%.*s.tmp-%d-%u", keep,
			 af->name, (int)getpid(), serial++);
		/* O_EXCL with 0666: the umask applies, as for the file */
		fd = openat(af->dirfd, af->tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/*
 * How the end of a walk is written: 1 in place, 0 by a temporary
 * renamed over the name, -1 refused (errno).
 */
static int in_place(const struct path_walk *w, unsigned flags)
{
	if (w->kind == PATH_ABSENT || w->kind == PATH_LINK)
		return 0;
	if (S_ISDIR(w->st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (!(flags & ATOMIC_FILE_DEVICES))
		return 0;
	if (w->kind == PATH_PROC_LINK)
		return 1;
	if (S_ISREG(w->st.st_mode))
		return 0;
	if (S_ISFIFO(w->st.st_mode) || S_ISSOCK(w->st.st_mode)) {
		errno = ATOMIC_FILE_EFIFO;
		return -1;
	}
	return 1;
}

/* Drop O_NONBLOCK from fd once open: writes wait as on any stream,
   only the open must not.  fd, or -1 (closed) with errno. */
static int blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL), err;

	if (fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/*
 * Open the device, or what the /proc link names, where it is: truncated
 * with ATOMIC_FILE_DEVICES (a write), appended to with
 * ATOMIC_FILE_APPEND, else left as it is (a check).
 */
static int open_in_place(const struct path_walk *w, unsigned flags)
{
	int fd = openat(w->dirfd, w->name, O_WRONLY | O_NOCTTY | O_NONBLOCK |
			O_CLOEXEC |
			(flags & ATOMIC_FILE_APPEND ? O_APPEND :
			 flags & ATOMIC_FILE_DEVICES ? O_TRUNC : 0) |
			(w->kind == PATH_PROC_LINK ? 0 : O_NOFOLLOW));

	return fd < 0 ? -1 : blocking(fd);
}

/*
 * Walk path and open what is to be written: a temporary in the
 * directory the walk ended in (af keeps both), or the file in place
 * (af keeps nothing).  The descriptor, or -1 with errno and af empty.
 */
static int begin(struct atomic_file *af, const char *path, unsigned flags)
{
	struct path_walk w;
	int fd = -1, err;

	*af = (struct atomic_file){ .dirfd = -1, .flags = flags };
	if (path_walk(&w, path, flags & ATOMIC_FILE_DEVICES ?
		      PATH_WALK_FOLLOW : 0) != 0)
		return -1;
	switch (in_place(&w, flags)) {
	case 1:
		fd = open_in_place(&w, flags);
		break;
	case 0:
		af->dirfd = w.dirfd;
		af->name = w.name;
		w.dirfd = -1;
		w.name = NULL;
		fd = temp_create(af);
		break;
	}
	err = errno;
	path_walk_release(&w);
	if (fd < 0)
		clear(af);
	errno = err;
	return fd;
}

FILE *atomic_file_start(struct atomic_file *af, const char *path,
			unsigned flags)
{
	int fd = begin(af, path, flags & ~ATOMIC_FILE_APPEND), err;

	if (fd < 0)
		return NULL;
	af->f = fdopen(fd, "w");
	if (af->f)
		return af->f;
	err = errno;
	close(fd);
	if (af->tmp)
		unlinkat(af->dirfd, af->tmp, 0);
	clear(af);
	errno = err;
	return NULL;
}

/* fsync the directory, so that the rename lasts (best effort). */
static void dir_sync(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int atomic_file_commit(struct atomic_file *af)
{
	bool sync = af->flags & ATOMIC_FILE_SYNC;
	int err = 0;

	/* an earlier implicit flush may have failed: ferror() keeps it */
	errno = 0;
	if (fflush(af->f) != 0 || ferror(af->f))
		err = errno ? errno : EIO;
	if (!err && sync && af->tmp && fsync(fileno(af->f)) != 0)
		err = errno;
	if (fclose(af->f) != 0 && !err)
		err = errno;
	if (!err && af->tmp &&
	    renameat(af->dirfd, af->tmp, af->dirfd, af->name) != 0)
		err = errno;
	if (err && af->tmp)
		unlinkat(af->dirfd, af->tmp, 0);
	if (!err && sync && af->tmp)
		dir_sync(af->dirfd);
	clear(af);
	errno = err;
	return err ? -1 : 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f) {
		fclose(af->f);
		if (af->tmp)
			unlinkat(af->dirfd, af->tmp, 0);
	}
	clear(af);
}

int atomic_file_check(const char *path, unsigned flags)
{
	struct atomic_file af;
	struct path_walk w;
	int fd, how, rc, err;

	if (path_walk(&w, path, flags & ATOMIC_FILE_DEVICES ?
		      PATH_WALK_FOLLOW : 0) != 0)
		return -1;
	rc = how = in_place(&w, flags);
	if (how == 1 && w.kind == PATH_PROC_LINK) {
		/* opened, not truncated: a FIFO without a reader fails
		   (ENXIO) here rather than at the end */
		fd = open_in_place(&w, flags & ~ATOMIC_FILE_DEVICES);
		rc = fd < 0 ? -1 : close(fd);
	} else if (how == 1) {
		/* a device is not opened: opening some does something */
		rc = faccessat(w.dirfd, w.name, W_OK, 0);
	}
	err = errno;
	path_walk_release(&w);
	errno = err;
	if (how != 0)
		return rc;
	fd = begin(&af, path, flags & ~ATOMIC_FILE_APPEND);
	if (fd < 0)
		return -1;
	close(fd);
	unlinkat(af.dirfd, af.tmp, 0);
	clear(&af);
	return 0;
}

/*
 * Open the file path names where it is, under the rules of
 * atomic_file_open(): appended to with ATOMIC_FILE_APPEND (made if there
 * is none), else truncated (none there: ENOENT).
 */
static int open_where_it_is(const char *path, unsigned flags)
{
	bool append = flags & ATOMIC_FILE_APPEND;
	struct path_walk w;
	struct stat st;
	int fd = -1, err;

	if (path_walk(&w, path, flags & ATOMIC_FILE_DEVICES ?
		      PATH_WALK_FOLLOW : 0) != 0)
		return -1;
	switch (in_place(&w, flags)) {
	case 1:
		fd = open_in_place(&w, flags);
		break;
	case 0:
		if (w.kind == PATH_ABSENT) {
			errno = ENOENT;
			if (append)
				fd = openat(w.dirfd, w.name, O_WRONLY |
					    O_APPEND | O_CREAT | O_EXCL |
					    O_NOFOLLOW | O_CLOEXEC, 0666);
			break;
		}
		fd = openat(w.dirfd, w.name, O_WRONLY | O_NOFOLLOW |
			    O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			    (append ? O_APPEND : 0));
		if (fd < 0)
			break;
		/* the file opened, not the one walked: it may have been
		   swapped since; checked before it is truncated */
		if (fstat(fd, &st) != 0)
			err = errno;
		else if (!S_ISREG(st.st_mode))
			err = ATOMIC_FILE_EFIFO;
		else if (path_walk_shared_dir(&w.dir) &&
			 (st.st_uid != geteuid() || st.st_nlink > 1))
			err = ATOMIC_FILE_ESHARED;
		else if (!append && ftruncate(fd, 0) != 0)
			err = errno;
		else {
			fd = blocking(fd);
			break;
		}
		close(fd);
		fd = -1;
		errno = err;
		break;
	}
	err = errno;
	path_walk_release(&w);
	errno = err;
	return fd;
}

/*
 * Open a new file at path now: the temporary renamed at once.  Where the
 * directory takes no new file (EACCES, EPERM) but the file there may be
 * written, it is, in place, as fopen(3) would.
 */
static int replace_now(const char *path, unsigned flags)
{
	struct atomic_file af;
	int fd = begin(&af, path, flags), err;

	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		err = errno;
		fd = open_where_it_is(path, flags);
		if (fd < 0 && errno == ENOENT)
			errno = err;
		return fd;
	}
	if (fd < 0 || !af.tmp)
		return fd;
	if (renameat(af.dirfd, af.tmp, af.dirfd, af.name) != 0) {
		err = errno;
		close(fd);
		unlinkat(af.dirfd, af.tmp, 0);
		clear(&af);
		errno = err;
		return -1;
	}
	clear(&af);
	return fd;
}

FILE *atomic_file_open(const char *path, unsigned flags)
{
	bool append = flags & ATOMIC_FILE_APPEND;
	int fd = append ? open_where_it_is(path, flags)
		      : replace_now(path, flags);
	FILE *f;
	int err;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, append ? "a" : "w");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

/* What writing a path writes, to compare: no name and no file for a
   device or a pipe. */
struct target {
	dev_t dir_dev, dev;
	ino_t dir_ino, ino;
	char *name;		/* the name replaced in the directory */
	bool file;		/* dev and ino: the regular file there now */
};

static int target(const char *path, unsigned flags, struct target *t)
{
	struct path_walk w;
	int how;

	*t = (struct target){ 0 };
	if (path_walk(&w, path, flags & ATOMIC_FILE_DEVICES ?
		      PATH_WALK_FOLLOW : 0) != 0)
		return -1;
	how = in_place(&w, flags);
	if (how == 0) {
		t->dir_dev = w.dir.st_dev;
		t->dir_ino = w.dir.st_ino;
		t->name = w.name;
		w.name = NULL;
	}
	if (how >= 0 && w.kind != PATH_ABSENT && S_ISREG(w.st.st_mode)) {
		t->file = true;
		t->dev = w.st.st_dev;
		t->ino = w.st.st_ino;
	}
	path_walk_release(&w);
	return how < 0 ? -1 : 0;
}

int atomic_file_same(const char *a, const char *b, unsigned flags)
{
	struct target ta, tb;
	int same = -1;

	if (target(a, flags, &ta) == 0 && target(b, flags, &tb) == 0) {
		same = (ta.name && tb.name && ta.dir_dev == tb.dir_dev &&
			ta.dir_ino == tb.dir_ino && !strcmp(ta.name, tb.name)) ||
		       (ta.file && tb.file && ta.dev == tb.dev &&
			ta.ino == tb.ino);
		free(tb.name);
	}
	free(ta.name);
	return same;
}

const char *atomic_file_strerror(int err)
{
	switch (err) {
	case PATH_WALK_ELINK:
		return "a symbolic link on the path is another user's, in a "
		       "sticky directory anyone may write";
	case ATOMIC_FILE_EFIFO:
		return "a FIFO or a socket, not a regular file";
	case ATOMIC_FILE_ESHARED:
		return "another user's file, or one with other hard links, in "
		       "a sticky directory anyone may write";
	}
	return strerror(err);
}
