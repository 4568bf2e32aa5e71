/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * atomic-file.h - rewrite a file whole, so that a reader sees the old
 * content or the new one, never a part, and a failure leaves the old
 * one: write a temporary beside the file (same directory, so the rename
 * cannot cross file systems), then rename(2) it over the file.
 *
 * The temporary is ".NAME.tmp-PID-N": hidden, and matched by no
 * "*.prom" or "*.svg" a collector or a browser would pick up.  It is made
 * with mode 0666 less the umask, as fopen(3) would make the file.
 *
 * Never prints, never exits, never reads the umask by setting it:
 * failures return NULL or -1 with errno set, ENOMEM included.
 */
#ifndef BASE_ATOMIC_FILE_H
#define BASE_ATOMIC_FILE_H

#include <stdio.h>

enum {
	/* fsync the file before the rename and the directory after it, so
	   that a crash keeps the old content or the whole new one */
	ATOMIC_FILE_SYNC = 1 << 0,
	/* a destination that exists and is not a regular file (a device:
	   /dev/stdout, /dev/full; a FIFO) is written in place, as it cannot
	   be replaced; without this flag it is replaced like a file.  And
	   a symbolic link is followed: its target is replaced, the link
	   stays (without the flag the link itself is replaced, so that
	   nothing planted in a shared directory is written through) */
	ATOMIC_FILE_DEVICES = 1 << 1,
};

struct atomic_file {
	char *path;		/* the file to replace */
	char *tmp;		/* the temporary beside it; NULL in place */
	FILE *f;		/* the stream being written */
	unsigned flags;		/* ATOMIC_FILE_* */
};

/*
 * Start the new content of path.  Returns the stream to write, or NULL
 * with errno (ENOENT: no such directory; EACCES, EROFS, EISDIR...); af
 * is then empty.
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
   0, or -1 with errno; nothing is left behind. */
int atomic_file_check(const char *path, unsigned flags);

#endif
