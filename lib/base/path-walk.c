/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* path-walk.c - a path walked name by name, links under the kernel's
   protected_symlinks rule. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/path-walk.h"

#define MAX_LINKS 40	/* the kernel's MAXSYMLINKS */
#define DIR_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)

bool path_walk_shared_dir(const struct stat *dir)
{
	return (dir->st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
}

/* Whether the directory fd is in procfs. */
static bool in_proc(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/* Move w->dirfd to nd (a descriptor, or -1 with errno): 0 or -1. */
static int enter(struct path_walk *w, int nd)
{
	if (nd < 0)
		return -1;
	close(w->dirfd);
	w->dirfd = nd;
	return 0;
}

/*
 * The link name in w->dirfd, whose lstat is st: -1 with PATH_WALK_ELINK
 * when the rule forbids following it, else its text followed by what
 * is left of the path (rest, after the link's name), malloc'd, in *next.
 */
static int link_text(struct path_walk *w, const char *name,
		     const struct stat *st, const char *rest, char **next)
{
	size_t size = (size_t)st->st_size + 1, rlen = strlen(rest);
	struct stat dir;
	char *text;
	ssize_t n;

	if (fstat(w->dirfd, &dir) != 0)
		return -1;
	if (path_walk_shared_dir(&dir) && st->st_uid != geteuid() &&
	    st->st_uid != dir.st_uid) {
		errno = PATH_WALK_ELINK;
		return -1;
	}
	/* st_size is 0 for some file systems' links: grow as needed */
	if (size < 64)
		size = 64;
	for (;;) {
		text = malloc(size + rlen + 2);
		if (!text)
			return -1;
		n = readlinkat(w->dirfd, name, text, size);
		if (n < 0) {
			free(text);
			return -1;
		}
		if ((size_t)n < size)
			break;
		free(text);
		size *= 2;
	}
	if (n == 0) {
		free(text);
		errno = ENOENT;
		return -1;
	}
	text[n] = '\0';
	if (rlen) {
		text[n] = '/';
		memcpy(text + n + 1, rest, rlen + 1);
	}
	*next = text;
	return 0;
}

/* The walk, on a copy of the path that it cuts up name by name. */
static int walk(struct path_walk *w, char *path, unsigned flags)
{
	char *p = path, *end, *next = NULL, *buf = NULL;
	int links = 0, rc = -1;

	w->dirfd = open(*p == '/' ? "/" : ".", DIR_FLAGS);
	if (w->dirfd < 0)
		return -1;
	for (;;) {
		bool last, slash;
		struct stat st;
		char save;

		p += strspn(p, "/");
		end = p + strcspn(p, "/");
		slash = *end == '/';
		last = !end[strspn(end, "/")];
		save = *end;
		*end = '\0';
		/* "/", "dir/", "dir/..": no name to write */
		if (!*p ||
		    (last && (slash || !strcmp(p, ".") || !strcmp(p, "..")))) {
			errno = EISDIR;
			break;
		}
		/* ".": where we are; "..": up */
		if (!strcmp(p, ".") || !strcmp(p, "..")) {
			if (p[1] && enter(w, openat(w->dirfd, "..",
						     DIR_FLAGS)) != 0)
				break;
			*end = save;
			p = end;
			continue;
		}
		if (fstatat(w->dirfd, p, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno == ENOENT && last) {
				w->kind = PATH_ABSENT;
				goto found;
			}
			break;
		}
		if (S_ISLNK(st.st_mode) && last && !(flags & PATH_WALK_FOLLOW)) {
			w->kind = PATH_LINK;
			w->st = st;
			goto found;
		}
		if (S_ISLNK(st.st_mode) && in_proc(w->dirfd)) {
			/* the kernel's own: it follows them */
			if (last) {
				if (fstatat(w->dirfd, p, &w->st, 0) != 0)
					break;
				w->kind = PATH_PROC_LINK;
				goto found;
			}
			if (enter(w, openat(w->dirfd, p, DIR_FLAGS)) != 0)
				break;
			*end = save;
			p = end;
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			if (++links > MAX_LINKS) {
				errno = ELOOP;
				break;
			}
			/* p is the link's name alone while it is read:
			   what follows it is the rest */
			if (link_text(w, p, &st, last ? "" :
				      end + 1 + strspn(end + 1, "/"),
				      &next) != 0)
				break;
			free(buf);
			buf = p = next;
			if (*p == '/' && enter(w, open("/", DIR_FLAGS)) != 0)
				break;
			continue;
		}
		if (last) {
			w->kind = PATH_FILE;
			w->st = st;
			goto found;
		}
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			break;
		}
		if (enter(w, openat(w->dirfd, p, DIR_FLAGS | O_NOFOLLOW)) != 0)
			break;
		*end = save;
		p = end;
	}
	free(buf);
	return -1;
found:
	w->name = strdup(p);
	if (w->name && fstat(w->dirfd, &w->dir) == 0)
		rc = 0;
	free(buf);
	return rc;
}

int path_walk(struct path_walk *w, const char *path, unsigned flags)
{
	char *copy;
	int rc, err;

	*w = (struct path_walk){ .dirfd = -1 };
	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	copy = strdup(path);
	if (!copy)
		return -1;
	rc = walk(w, copy, flags);
	err = errno;
	free(copy);
	if (rc != 0) {
		path_walk_release(w);
		errno = err;
	}
	return rc;
}

void path_walk_release(struct path_walk *w)
{
	if (w->dirfd >= 0)
		close(w->dirfd);
	free(w->name);
	*w = (struct path_walk){ .dirfd = -1 };
}
