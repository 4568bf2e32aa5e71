/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* atomic-file.c - a temporary beside the file, renamed over it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic-file.h"

static void clear(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->f = NULL;
}

/* Create the temporary beside af->path: a descriptor, or -1 with errno. */
static int temp_create(struct atomic_file *af)
{
	static unsigned serial;
	const char *path = af->path, *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0, tries, fd, n;

	n = snprintf(NULL, 0, "%.*s.%s.tmp-%d-%u", dirlen, path,
		     path + dirlen, (int)getpid(), ~0u);
	af->tmp = malloc((size_t)n + 1);
	if (!af->tmp)
		return -1;
	for (tries = 0; tries < 100; tries++) {
		snprintf(af->tmp, (size_t)n + 1, "%.*s.%s.tmp-%d-%u", dirlen,
			 path, path + dirlen, (int)getpid(), serial++);
		/* O_EXCL with 0666: the umask applies, as for the file */
		fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Whether path exists and is not a regular file; a directory is EISDIR. */
static int special(const char *path, bool *yes)
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

/*
 * The path to replace: with ATOMIC_FILE_DEVICES (a path the user named),
 * a symbolic link is followed to the file it names, as fopen(3) would
 * follow it, so that the link stays and its target gets the content
 * (/dev/stdout -> /proc/self/fd/1 -> a file: the file, never the link in
 * /dev).  Without the flag the name itself is replaced, so that nothing
 * planted in a shared directory is written through.
 */
static char *target(const char *path, unsigned flags)
{
	char *cur = strdup(path), *next, link[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (!(flags & ATOMIC_FILE_DEVICES))
		return cur;
	/* link by link, as the kernel follows them: a link whose target
	   does not exist yet names the file to create */
	for (int hops = 0; cur && hops < 40; hops++) {
		const char *slash = strrchr(cur, '/');
		int dirlen = slash ? (int)(slash - cur + 1) : 0;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return cur;
		link[n] = '\0';
		if (link[0] == '/')
			next = strdup(link);
		else if ((next = malloc((size_t)dirlen + (size_t)n + 1)))
			snprintf(next, (size_t)dirlen + (size_t)n + 1, "%.*s%s",
				 dirlen, cur, link);
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

FILE *atomic_file_start(struct atomic_file *af, const char *path,
			unsigned flags)
{
	bool dev;
	int fd, err;

	*af = (struct atomic_file){ .flags = flags };
	if (!*path) {		/* else a temporary in . renamed over "" */
		errno = ENOENT;
		return NULL;
	}
	if (special(path, &dev) != 0)
		return NULL;
	/* a device is opened by the name given (/dev/stdout on a pipe
	   reads as a link to "pipe:[N]") */
	af->path = dev ? strdup(path) : target(path, flags);
	if (!af->path)
		return NULL;
	if (dev && (flags & ATOMIC_FILE_DEVICES)) {
		af->f = fopen(path, "we");
		if (!af->f)
			goto fail;
		return af->f;
	}
	fd = temp_create(af);
	if (fd < 0)
		goto fail;
	af->f = fdopen(fd, "w");
	if (!af->f) {
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

/* fsync the directory of path, so that the rename lasts (best effort). */
static void dir_sync(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path + 1))
			  : strdup(".");
	int fd;

	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
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
	if (!err && af->tmp && rename(af->tmp, af->path) != 0)
		err = errno;
	if (err && af->tmp)
		unlink(af->tmp);
	if (!err && sync && af->tmp)
		dir_sync(af->path);
	clear(af);
	errno = err;
	return err ? -1 : 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f) {
		fclose(af->f);
		if (af->tmp)
			unlink(af->tmp);
	}
	clear(af);
}

int atomic_file_check(const char *path, unsigned flags)
{
	struct atomic_file af;
	bool dev;

	/* a device is checked, not opened: opening a FIFO would block */
	if (special(path, &dev) != 0)
		return -1;
	if (dev && (flags & ATOMIC_FILE_DEVICES))
		return access(path, W_OK);
	if (!atomic_file_start(&af, path, flags))
		return -1;
	atomic_file_abort(&af);
	return 0;
}
