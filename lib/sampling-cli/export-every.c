/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export-every.c - --export-every's parts: the samples of each interval in
 * a stacks aggregate of their own, the snapshots' names, and the oldest
 * removed past --export-keep (see exports.h; exports.c writes them).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/path-walk.h"
#include "sampling-cli/exports.h"
#include "util/xmalloc.h"

#define SNAP_PREFIX "profile-"
#define SNAP_STAMP "YYYYMMDDTHHMMSS.mmmZ"	/* its shape, for its length */

static const char *const ext[EXPORT_FORMAT_MAX] = {
	[EXPORT_FOLDED] = ".folded",
	[EXPORT_SVG] = ".svg",
	[EXPORT_PPROF] = ".pb.gz",
	[EXPORT_SPEEDSCOPE] = ".speedscope.json",
};

int exports_every_name(char *buf, size_t size, const char *dir,
		       enum export_format f, uint64_t time_ns)
{
	time_t t = (time_t)(time_ns / 1000000000);
	char stamp[32];
	struct tm tm;
	size_t len = strlen(dir);

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	return snprintf(buf, size, "%s%s" SNAP_PREFIX "%s.%03uZ%s", dir,
			len && dir[len - 1] == '/' ? "" : "/", stamp,
			(unsigned)(time_ns / 1000000 % 1000), ext[f]);
}

/* Whether name is a snapshot of format f: the prefix, the stamp's
   digits where it has digits, the extension, nothing else. */
static bool snap_match(const char *name, enum export_format f)
{
	const char *shape = SNAP_STAMP;
	size_t i;

	if (strncmp(name, SNAP_PREFIX, strlen(SNAP_PREFIX)) != 0)
		return false;
	name += strlen(SNAP_PREFIX);
	for (i = 0; shape[i]; i++) {
		bool digit = isalpha((unsigned char)shape[i]) &&
			     shape[i] != 'T' && shape[i] != 'Z';

		if (digit ? name[i] < '0' || name[i] > '9'
			  : name[i] != shape[i])
			return false;
	}
	return strcmp(name + i, ext[f]) == 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether this run wrote name as a snapshot of format f. */
static bool written_by_us(const struct exports *e, enum export_format f,
			  const char *name)
{
	for (size_t i = 0; i < e->nwritten[f]; i++)
		if (!strcmp(e->written[f][i], name))
			return true;
	return false;
}

/* Record the snapshot just written (its path). */
static void written_add(struct exports *e, enum export_format f,
			const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = e->nwritten[f];

	e->written[f] = xreallocarray(e->written[f], n + 1,
				      sizeof(*e->written[f]));
	e->written[f][n] = xstrdup(slash ? slash + 1 : path);
	e->nwritten[f] = n + 1;
}

/* Forget all but the newest e->keep names: the older were removed. */
static void written_trim(struct exports *e, enum export_format f)
{
	size_t n = e->nwritten[f];

	while (n > e->keep) {
		free(e->written[f][0]);
		memmove(e->written[f], e->written[f] + 1,
			--n * sizeof(*e->written[f]));
	}
	e->nwritten[f] = n;
}

/*
 * The snapshots of format f in d that may be removed, into *names (*n):
 * regular files of the caller's own, and in a sticky directory anyone
 * may write (/tmp), only those this run wrote.  0, or an errno.
 */
static int prunable(const struct exports *e, enum export_format f, DIR *d,
		    bool shared, char ***names, size_t *n)
{
	size_t alloc = 0;
	struct dirent *de;
	struct stat st;

	while ((de = readdir(d)) != NULL) {
		if (!snap_match(de->d_name, f) ||
		    fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    (shared && !written_by_us(e, f, de->d_name)))
			continue;
		if (*n == alloc) {
			char **grown;

			alloc = alloc ? 2 * alloc : 16;
			grown = realloc(*names, alloc * sizeof(**names));
			if (!grown)
				return ENOMEM;
			*names = grown;
		}
		(*names)[*n] = strdup(de->d_name);
		if (!(*names)[*n])
			return ENOMEM;
		++*n;
	}
	return 0;
}

int exports_every_prune(struct exports *e, const char *written,
			enum export_format f)
{
	struct path_walk w;
	char **names = NULL;
	size_t n = 0, i;
	bool shared;
	int fd, err;
	DIR *d;

	written_add(e, f, written);
	if (path_walk(&w, written, 0) != 0)
		return -1;
	shared = path_walk_shared_dir(&w.dir);
	fd = openat(w.dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	path_walk_release(&w);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	err = prunable(e, f, d, shared, &names, &n);
	if (!err) {
		qsort(names, n, sizeof(*names), cmp_name);
		for (i = 0; i + e->keep < n; i++)
			if (unlinkat(fd, names[i], 0) != 0 && errno != ENOENT)
				err = errno;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	written_trim(e, f);
	errno = err;
	return err ? -1 : 0;
}

static void interval_new(struct exports *e, uint64_t start_ns)
{
	e->interval = stacks_new();
	if (!e->interval)
		die_nomem();
	e->interval_ns = start_ns;
}

void exports_every_start(struct exports *e, uint64_t start_ns)
{
	if (!e->every_ns)
		return;
	interval_new(e, start_ns);
	e->due_ns = clock_ns(CLOCK_MONOTONIC) + e->every_ns;
}

void exports_every_next(struct exports *e, uint64_t start_ns,
			uint64_t now_ns)
{
	stacks_free(e->interval);
	interval_new(e, start_ns);
	e->due_ns += e->every_ns;
	if (e->due_ns <= now_ns)	/* a slow write: do not catch up */
		e->due_ns = now_ns + e->every_ns;
	/* a late snapshot, then one on time: a millisecond apart at least,
	   or the two would have one name, the second replacing the first */
	if (e->due_ns < now_ns + 1000000)
		e->due_ns = now_ns + 1000000;
}

void exports_every_add(struct exports *e, const struct stk_sample_frame *f,
		       unsigned n, uint64_t period, uint64_t time_ns)
{
	if (e->interval && stacks_add_at(e->interval, f, n, period,
					 time_ns) != 0)
		die_nomem();
}

void exports_every_add_weight(struct exports *e,
			      const struct stk_sample_frame *f, unsigned n,
			      uint64_t weight, uint64_t time_ns)
{
	if (e->interval && stacks_add_weight(e->interval, f, n, weight,
					     weight, time_ns) != 0)
		die_nomem();
}

void exports_every_release(struct exports *e)
{
	stacks_free(e->interval);
	e->interval = NULL;
	for (int f = 0; f < EXPORT_FORMAT_MAX; f++) {
		for (size_t i = 0; i < e->nwritten[f]; i++)
			free(e->written[f][i]);
		free(e->written[f]);
		e->written[f] = NULL;
		e->nwritten[f] = 0;
	}
}
