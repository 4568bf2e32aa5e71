/* SPDX-License-Identifier: GPL-2.0-or-later */
/* atomic-file.c - a temporary beside the file, renamed over it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic-file.h"
#include "util/xmalloc.h"

static void clear(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->f = NULL;
}

FILE *atomic_file_start(struct atomic_file *af, const char *path)
{
	const char *base = strrchr(path, '/');
	int dirlen = base ? (int)(base - path + 1) : 0;
	mode_t mask;
	int fd, err;

	base = base ? base + 1 : path;
	af->path = xstrdup(path);
	af->tmp = xasprintf("%.*s.%s.XXXXXX", dirlen, path, base);
	af->f = NULL;
	fd = mkostemp(af->tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	/* mkstemp makes 0600: a collector running as another user could
	   not read it. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(af->f = fdopen(fd, "w"))) {
		err = errno;
		close(fd);
		unlink(af->tmp);
		errno = err;
		goto fail;
	}
	return af->f;
fail:
	err = errno;
	clear(af);
	errno = err;
	return NULL;
}

int atomic_file_commit(struct atomic_file *af)
{
	int err = 0;

	/* An earlier implicit flush may have failed: ferror() keeps it. */
	errno = 0;
	if (fflush(af->f) != 0 || ferror(af->f))
		err = errno ? errno : EIO;
	if (fclose(af->f) != 0 && !err)
		err = errno;
	if (!err && rename(af->tmp, af->path) != 0)
		err = errno;
	if (err)
		unlink(af->tmp);
	clear(af);
	errno = err;
	return err ? -1 : 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f) {
		fclose(af->f);
		unlink(af->tmp);
	}
	clear(af);
}
