/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * atomic-file.h - rewrite a file whole, so that a reader sees the old
 * content or the new one, never a part, and a failure leaves the old
 * one: write a temporary beside the file (same directory, so the rename
 * cannot cross file systems), then rename(2) it over the file.
 *
 * The temporary is ".NAME.tmp-PID-N": hidden, and matched by no
 * "*.prom" or "*.svg" a collector or a browser would pick up.  It is made
 * with O_EXCL|O_NOFOLLOW and mode 0666 less the umask, as fopen(3) would
 * make the file.
 *
 * Never written through a link that someone else planted.  The path is
 * walked as path-walk.h says: a symbolic link anywhere on it that lies
 * in a sticky directory anyone may write (/tmp) is followed only when
 * it is the caller's own or the directory owner's, as the kernel's
 * fs.protected_symlinks = 1 would allow, whatever that sysctl says;
 * any other fails with PATH_WALK_ELINK.  The rename replaces the name
 * the walk ended at, never what a link there names.
 *
 * Never prints, never exits, never reads the umask by setting it:
 * failures return NULL or -1 with errno set, ENOMEM included.
 */
#ifndef BASE_ATOMIC_FILE_H
#define BASE_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/path-walk.h"

enum {
	/* fsync the file before the rename and the directory after it, so
	   that a crash keeps the old content or the whole new one */
	ATOMIC_FILE_SYNC = 1 << 0,
	/*
	 * A path the user named.  A symbolic link as its last name is
	 * followed (under the rule above): the file it names gets the
	 * content, the link stays.  What is not a regular file is written
	 * in place, for it cannot be replaced: a device (/dev/null, a
	 * tty), and whatever a link in /proc names (/dev/stdout ->
	 * /proc/self/fd/1: the pipe, terminal or file that standard
	 * output is, truncated as fopen(3) would).  A FIFO or a socket
	 * is refused with ATOMIC_FILE_EFIFO: opening one waits for a
	 * reader, which may never come.
	 * Without this flag (a name of the tool's own), the last name is
	 * replaced whatever it is, a link included.
	 */
	ATOMIC_FILE_DEVICES = 1 << 1,
	/* atomic_file_open() only: append to the file instead */
	ATOMIC_FILE_APPEND = 1 << 2,
};

/* The refusals that have no errno of their own, after PATH_WALK_ELINK;
   atomic_file_strerror() says them. */
enum {
	ATOMIC_FILE_EFIFO = PATH_WALK_ELINK + 1,   /* a FIFO or socket */
	ATOMIC_FILE_ESHARED,	/* ATOMIC_FILE_APPEND to a file in a sticky
				   directory anyone may write, that another
				   user owns or that has other hard links */
};

struct atomic_file {
	char *name;		/* the name to replace, in dirfd */
	char *tmp;		/* the temporary beside it; NULL in place */
	int dirfd;		/* the directory; -1 in place */
	FILE *f;		/* the stream being written */
	unsigned flags;		/* ATOMIC_FILE_* */
};

/*
 * Start the new content of path.  Returns the stream to write, or NULL
 * with errno (ENOENT: no such directory; EACCES, EROFS, EISDIR,
 * PATH_WALK_ELINK, ATOMIC_FILE_EFIFO...); af is then empty.  Opening
 * never blocks.
 */
FILE *atomic_file_start(struct atomic_file *af, const char *path,
			unsigned flags);

/*
 * Flush and close the stream (and fsync, with ATOMIC_FILE_SYNC), rename
 * the temporary over path.  Returns 0, or -1 with errno: a write error
 * (ENOSPC, EFBIG, EIO), a failed close or rename; the temporary is then
 * removed and path keeps its old content.  af is empty afterwards.
 */
int atomic_file_commit(struct atomic_file *af);

/* Close and remove the temporary; path keeps its old content. */
void atomic_file_abort(struct atomic_file *af);

/* Whether path could be written (atomic_file_start() then abort):
   0, or -1 with errno; nothing is left behind, nothing blocks. */
int atomic_file_check(const char *path, unsigned flags);

/*
 * For a file written as it goes and never committed (pcstat -o), under
 * the same rules: the new empty file is renamed over path at once.
 * With ATOMIC_FILE_APPEND the file path names is opened to append
 * instead (made if there is none); and where the directory takes no new
 * file (EACCES, EPERM), a file there is truncated in place, as
 * fopen(3) would.  Either way, in a sticky directory anyone may write,
 * only a file of the caller's own with no other hard link
 * (ATOMIC_FILE_ESHARED).  Devices and /proc links as in
 * atomic_file_start().  Returns a stream for the caller to fclose(),
 * or NULL with errno.  Not atomic: a reader may see a part.
 */
FILE *atomic_file_open(const char *path, unsigned flags);

/*
 * Whether writing a and b (both with flags) would write one file, so
 * that the one written last is all that stays: the same name however
 * spelt (./F and F, through links), or the same file (a hard link, or
 * standard output through /dev/stdout).  Devices and pipes, written in
 * place one after the other, are never the same.  1, 0, or -1 with
 * errno when either path cannot be walked.
 */
int atomic_file_same(const char *a, const char *b, unsigned flags);

/* strerror(err), or the words for PATH_WALK_ELINK and ATOMIC_FILE_E*. */
const char *atomic_file_strerror(int err);

#endif
