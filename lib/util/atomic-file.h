/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic-file.h - rewrite a file whole, so that a reader polling it (a
 * metrics collector) sees the old content or the new one, never a part:
 * write a temporary in the same directory, then rename(2) it over the
 * file.  Not durable across a crash (no fsync): readers on the same
 * machine are what it is for.
 *
 * Never prints, never exits: failures return NULL or -1 with errno set.
 * Memory runs out: die (xmalloc), as everywhere in lib/util.
 */
#ifndef UTIL_ATOMIC_FILE_H
#define UTIL_ATOMIC_FILE_H

#include <stdio.h>

struct atomic_file {
	char *path;		/* the file to replace */
	char *tmp;		/* the temporary beside it, while writing */
	FILE *f;		/* the temporary's stream, while writing */
};

/*
 * Start the new content of path: a temporary ".NAME.XXXXXX" in path's
 * directory (hidden, and not matched by a collector's "*.prom"), with the
 * mode fopen(3) would give path: 0666 less the umask.  Returns the stream
 * to write, or NULL with errno (af is left empty).  Reads the umask by
 * setting it: not for threaded programs.
 */
FILE *atomic_file_start(struct atomic_file *af, const char *path);

/*
 * Flush and close the stream, and rename the temporary over path.
 * Returns 0, or -1 with errno: a write error (ENOSPC, EFBIG, EIO), a
 * failed close or rename; the temporary is then removed and path keeps
 * its old content.  af is empty afterwards either way.
 */
int atomic_file_commit(struct atomic_file *af);

/* Close and remove the temporary; path keeps its old content. */
void atomic_file_abort(struct atomic_file *af);

#endif
