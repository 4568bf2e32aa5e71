/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* regular-file.c - open a file only if it is a regular one. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/regular-file.h"

int regular_file_open(const char *path, int flags, struct stat *st)
{
	struct stat tmp;
	int fd, e;

	if (!st)
		st = &tmp;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		e = errno;
	} else if (S_ISREG(st->st_mode)) {
		return fd;
	} else {
		e = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
	}
	close(fd);
	errno = e;
	return -1;
}
