/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tracepoint.c - tracepoint names and globs to ids, from tracefs. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sysapi/tracepoint.h>
#include "base/array.h"
#include "sysapi-internal.h"

/* The id in DIR/events/SYS/EVENT/id; -1 with errno when unreadable. */
static int read_id(const char *dir, const char *sys, const char *ev,
		   uint64_t *id)
{
	char path[1024], buf[32];

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, ev);
	if (pc_read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	*id = strtoull(buf, NULL, 10);
	return 0;
}

/*
 * Subdirectories of path matching glob, in readdir order (the order perf
 * expands a glob in: tracefs lists events as the kernel created them);
 * -1 with errno.
 */
static int subdirs(const char *path, const char *glob, char ***out)
{
	struct dirent **ents;
	char **v;
	int n, k = 0;

	n = scandir(path, &ents, NULL, NULL);
	if (n < 0)
		return -1;
	v = calloc((size_t)n + 1, sizeof(*v));
	for (int i = 0; i < n; i++) {
		if (v && ents[i]->d_type == DT_DIR && ents[i]->d_name[0] != '.' &&
		    fnmatch(glob, ents[i]->d_name, 0) == 0)
			v[k++] = strdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	if (v == NULL) {
		errno = ENOMEM;
		return -1;
	}
	*out = v;
	return k;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * Call fn for each tracepoint matching sysglob:evglob, in perf's order.
 * Returns what fn returned summed, or -1 with errno.
 */
static int walk(const char *dir, const char *sysglob, const char *evglob,
		int (*fn)(void *, const char *, const char *, uint64_t),
		void *arg)
{
	char path[1024], **sys = NULL;
	int nsys, total = 0;

	snprintf(path, sizeof(path), "%s/events", dir);
	nsys = subdirs(path, sysglob, &sys);
	if (nsys < 0)
		return -1;
	for (int s = 0; s < nsys && total >= 0; s++) {
		char **ev = NULL;
		int nev;

		snprintf(path, sizeof(path), "%s/events/%s", dir, sys[s]);
		nev = subdirs(path, evglob, &ev);
		for (int e = 0; e < nev && total >= 0; e++) {
			uint64_t id;
			int r;

			if (read_id(dir, sys[s], ev[e], &id) < 0)
				continue;	/* a directory without an id */
			r = fn(arg, sys[s], ev[e], id);
			total = r < 0 ? -1 : total + r;
		}
		strv_free(ev);
	}
	strv_free(sys);
	return total;
}

static int add_event(void *list, const char *sys, const char *ev, uint64_t id)
{
	struct perf_event_attr attr;
	char name[128];

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	snprintf(name, sizeof(name), "%s:%s", sys, ev);
	return pc_event_list_add(list, name, &attr) < 0 ? -1 : 1;
}

int pc_tracepoint_resolve(void *arg, const char *name, size_t len,
			  struct pc_event_list *list)
{
	const char *dir = arg ? arg : pc_tracefs_dir();
	const char *colon = memchr(name, ':', len);
	char sys[256], ev[256];
	int n;

	if (colon == NULL || colon == name || colon + 1 == name + len ||
	    memchr(colon + 1, ':', len - (size_t)(colon + 1 - name)) ||
	    (size_t)(colon - name) >= sizeof(sys) ||
	    len - (size_t)(colon + 1 - name) >= sizeof(ev))
		return 0;
	if (dir == NULL)
		return -1;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	snprintf(ev, sizeof(ev), "%.*s", (int)(len - (size_t)(colon + 1 - name)),
		 colon + 1);
	if (strpbrk(sys, "/.") || strpbrk(ev, "/."))
		return 0;	/* never leave events/ */
	if (!strpbrk(sys, "*?[") && !strpbrk(ev, "*?[")) {
		uint64_t id;

		if (read_id(dir, sys, ev, &id) < 0)
			return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
		return add_event(list, sys, ev, id);
	}
	n = walk(dir, sys, ev, add_event, list);
	if (n < 0 && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	return n;
}

struct collect {
	char **v;
	size_t nr, alloc;
};

static int collect_one(void *arg, const char *sys, const char *ev, uint64_t id)
{
	struct collect *c = arg;
	char *s;

	(void)id;
	if (ARRAY_GROW(c->v, c->nr + 2, c->alloc) != 0)
		return -1;
	if (asprintf(&s, "%s:%s", sys, ev) < 0) {
		errno = ENOMEM;
		return -1;
	}
	c->v[c->nr++] = s;
	c->v[c->nr] = NULL;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pc_tracepoint_list(const char *dir, char ***names)
{
	struct collect c = { 0 };
	int n;

	if (dir == NULL && (dir = pc_tracefs_dir()) == NULL)
		return -1;
	n = walk(dir, "*", "*", collect_one, &c);
	if (n < 0) {
		int e = errno;

		strv_free(c.v);
		errno = e;
		return -1;
	}
	/* perf list sorts "sys:event" as one string (strcmp). */
	if (c.nr)
		qsort(c.v, c.nr, sizeof(*c.v), cmp_str);
	if (c.v == NULL && (c.v = calloc(1, sizeof(*c.v))) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	*names = c.v;
	return n;
}
