/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c - standard descriptors guarded, writes checked. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic-file.h"
#include "util/die.h"
#include "util/output.h"

static unsigned closed_at_start;	/* 1 << fd */

void std_fds_guard(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free descriptor: this one */
		nfd = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
		if (nfd != fd) {
			/* no message: stderr may be the one missing */
			_exit(1);
		}
		closed_at_start |= 1u << fd;
	}
}

/* Whether fd (0, 1 or 2) was closed when std_fds_guard() ran. */
static bool std_fd_was_closed(int fd)
{
	return fd >= 0 && fd <= STDERR_FILENO && (closed_at_start >> fd & 1);
}

void std_fd_require(int fd, const char *fix)
{
	if (std_fd_was_closed(fd))
		die("%s is closed (%s)", fd == STDOUT_FILENO ?
		    "standard output" : "standard error", fix);
}

/* A pipe or FIFO whose readers have all gone: poll() says POLLERR. */
static bool reader_gone(FILE *f)
{
	struct pollfd p = { .fd = fileno(f), .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/* What output_note() saw: the errno of each stream's first failed write. */
static struct {
	FILE *f;
	int err;
} noted[4];

void output_note(FILE *f)
{
	int err = errno;
	size_t i;

	if (!ferror(f))
		return;
	for (i = 0; i < sizeof(noted) / sizeof(noted[0]); i++) {
		if (noted[i].f == f)
			return;		/* the first failure says it */
		if (noted[i].f == NULL) {
			noted[i].f = f;
			noted[i].err = err;
			return;
		}
	}
}

static int noted_errno(FILE *f)
{
	for (size_t i = 0; i < sizeof(noted) / sizeof(noted[0]); i++)
		if (noted[i].f == f)
			return noted[i].err;
	return 0;
}

/* Flush f: 0, or -1 with errno when the pipe's reader is gone and
   pipe_gone is set; any other failure ends the tool. */
static int check(FILE *f, const char *name, bool pipe_gone)
{
	bool failed_before = ferror(f);

	/* glibc drops what a failed flush could not write: this errno is
	   the only one there will be */
	if (fflush(f) != 0) {
		if (pipe_gone && errno == EPIPE)
			return -1;
		die_errno("cannot write to %s", name);
	}
	/* the write failed earlier (an unbuffered stream, or a full
	   buffer flushed inside printf), and its errno is gone: ferror()
	   keeps none, and glibc dropped what it could not write */
	if (failed_before) {
		int err = reader_gone(f) ? EPIPE : noted_errno(f);

		if (err == EPIPE && pipe_gone)
			return -1;
		if (err) {
			errno = err;
			die_errno("cannot write to %s", name);
		}
		die("cannot write to %s (a write failed)", name);
	}
	return 0;
}

void output_check(FILE *f, const char *name)
{
	check(f, name, false);
}

bool output_reader_gone(FILE *f, const char *name)
{
	return check(f, name, true) != 0;
}

void output_close(FILE *f, const char *name)
{
	output_check(f, name);
	if (fclose(f) != 0)
		die_errno("cannot write to %s", name);
}

static const struct {
	int err;
	const char *fix;
} path_fixes[] = {
	{ ENOENT, " (the directory does not exist: create it, or name "
		  "another)" },
	{ ENOTDIR, " (a part of the path is not a directory)" },
	{ EACCES, " (no permission to create files there: choose a "
		  "directory you can write)" },
	{ EPERM, " (no permission to create files there: choose a "
		 "directory you can write)" },
	{ EROFS, " (a read-only file system: choose another place)" },
	{ EISDIR, " (that is a directory: name a file in it)" },
	{ ENOSPC, " (the file system is full: free space or choose "
		  "another place)" },
	{ EDQUOT, " (over the disk quota: free space or choose another "
		  "place)" },
	{ ENAMETOOLONG, " (the name is too long)" },
	{ ELOOP, " (too many symbolic links, or a loop of them)" },
	{ ETXTBSY, " (a program running now: name another file)" },
	{ ENXIO, " (a pipe or FIFO with no reader, or a device that is "
		 "not there)" },
	{ PATH_WALK_ELINK, " (not followed, as with fs.protected_symlinks "
			   "= 1: anyone may have planted it; remove it, or "
			   "name another file)" },
	{ ATOMIC_FILE_EFIFO, " (opening it would wait for a reader: name a "
			     "regular file, or /dev/stdout for a pipe)" },
	{ ATOMIC_FILE_ESHARED, " (not appended to: anyone could have put it "
			       "there; remove it, or name another file)" },
};

const char *output_path_fix(int err)
{
	for (size_t i = 0; i < sizeof(path_fixes) / sizeof(path_fixes[0]); i++)
		if (path_fixes[i].err == err)
			return path_fixes[i].fix;
	return "";
}

const char *output_strerror(int err)
{
	return atomic_file_strerror(err);
}

void output_paths_distinct(const char *const opt[], const char *const path[],
			   size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; path[i] && j < i; j++)
			if (path[j] && atomic_file_same(path[j], path[i],
						ATOMIC_FILE_DEVICES) == 1)
				die_status(2, "%s and %s write the same file "
					   "(%s%s%s): only the one written "
					   "last would stay (give each its "
					   "own file)", opt[j], opt[i],
					   path[j], strcmp(path[j], path[i]) ?
					   " and " : "", strcmp(path[j],
					   path[i]) ? path[i] : "");
}
