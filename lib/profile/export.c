/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export.c - the table of export formats and the atomic file each is
 * written to (see export.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/export-internal.h"

static const struct {
	const char *name;
	export_writer write;	/* NULL: not in this build */
} formats[EXPORT_FORMAT_MAX] = {
	[EXPORT_FOLDED] = { "folded", export_folded },
	[EXPORT_SVG] = { "svg", export_svg },
#ifdef HAVE_PPROF
	[EXPORT_PPROF] = { "pprof", export_pprof },
#else
	[EXPORT_PPROF] = { "pprof", NULL },
#endif
	[EXPORT_SPEEDSCOPE] = { "speedscope", export_speedscope },
};

const char *export_format_name(enum export_format f)
{
	return (unsigned)f < EXPORT_FORMAT_MAX ? formats[f].name : NULL;
}

bool export_available(enum export_format f)
{
	return (unsigned)f < EXPORT_FORMAT_MAX && formats[f].write;
}

/* --- the atomic file ------------------------------------------------------ */

/*
 * Create a new file beside path ("DIR/.NAME.tmp-PID-N", mode 0666 less
 * the umask, as the destination would get) and put its name in tmp.
 * Returns the descriptor, or -1 with errno.
 */
static int temp_create(const char *path, char *tmp, size_t size)
{
	static unsigned serial;
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0, tries, fd;

	for (tries = 0; tries < 100; tries++) {
		if ((size_t)snprintf(tmp, size, "%.*s.%s.tmp-%d-%u", dirlen, path,
				     path + dirlen, (int)getpid(),
				     serial++) >= size) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Make the rename durable: fsync the directory (best effort). */
static void dir_sync(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int fd;

	if ((size_t)snprintf(dir, sizeof(dir), "%.*s",
			     slash ? (int)(slash - path + 1) : 1,
			     slash ? path : ".") >= sizeof(dir))
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Whether path names something that exists and is not a regular file;
   a directory is EISDIR. */
static int in_place(const char *path, bool *yes)
{
	struct stat st;

	*yes = false;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	*yes = !S_ISREG(st.st_mode);
	return 0;
}

int export_check_path(const char *path)
{
	char tmp[4096 + 64];
	bool dev;
	int fd;

	if (in_place(path, &dev) != 0)
		return -1;
	if (dev)
		return access(path, W_OK);
	fd = temp_create(path, tmp, sizeof(tmp));
	if (fd < 0)
		return -1;
	close(fd);
	unlink(tmp);
	return 0;
}

/* Write and close f; -1 with errno on any failure (the first one). */
static int finish(FILE *f, int rc, bool sync)
{
	int err = rc ? errno : 0;

	if (!err && (fflush(f) != 0 || ferror(f)))
		err = errno ? errno : EIO;
	if (!err && sync && fsync(fileno(f)) != 0 && errno != EINVAL)
		err = errno;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int export_write(struct stacks *s, enum export_format fmt, const char *path,
		 const struct export_meta *m)
{
	char tmp[4096 + 64];
	bool dev;
	FILE *f;
	int fd, err;

	if (!export_available(fmt)) {
		errno = (unsigned)fmt < EXPORT_FORMAT_MAX ? ENOTSUP : EINVAL;
		return -1;
	}
	if (!m || m->sz < sizeof(*m)) {
		errno = EINVAL;
		return -1;
	}
	if (in_place(path, &dev) != 0)
		return -1;
	if (dev) {
		f = fopen(path, "we");
		if (!f)
			return -1;
		errno = 0;
		return finish(f, formats[fmt].write(f, s, m), false);
	}
	fd = temp_create(path, tmp, sizeof(tmp));
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		unlink(tmp);
		errno = err;
		return -1;
	}
	errno = 0;
	if (finish(f, formats[fmt].write(f, s, m), true) != 0 ||
	    rename(tmp, path) != 0) {
		err = errno;
		unlink(tmp);
		errno = err;
		return -1;
	}
	dir_sync(path);
	return 0;
}
