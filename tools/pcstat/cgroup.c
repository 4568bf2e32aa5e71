/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup.c - -G and --for-each-cgroup, paired with events as perf pairs them. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/xmalloc.h"
#include "cgroup.h"

static const char *mount_or_die(void)
{
	const char *mnt = pc_cgroup_mount();

	if (mnt == NULL)
		die_status(2, "no cgroup hierarchy to count in: %s (mount "
			   "cgroup2, e.g. on /sys/fs/cgroup)", strerror(errno));
	return mnt;
}

/* The index of cgroup name in cfg->cgroups, opened on first use. */
static int cgroup_findnew(struct config *cfg, const char *name)
{
	struct cgrp *cg;
	int fd;

	for (size_t i = 0; i < cfg->ncgroups; i++)
		if (strcmp(cfg->cgroups[i].name, name) == 0)
			return (int)i;
	fd = pc_cgroup_open(name);
	if (fd < 0) {
		const char *mnt = mount_or_die();

		/* perf's words, and where to look */
		die_status(2, "no access to cgroup %s/%s: %s (the cgroups are "
			   "the directories under %s)", mnt,
			   name + strspn(name, "/"), strerror(errno), mnt);
	}
	cfg->cgroups = xreallocarray(cfg->cgroups, cfg->ncgroups + 1,
				     sizeof(*cfg->cgroups));
	cg = &cfg->cgroups[cfg->ncgroups];
	cg->name = xstrdup(name);
	cg->fd = fd;
	return (int)cfg->ncgroups++;
}

static void pair(struct config *cfg, size_t e, int cg)
{
	if (e >= cfg->ev_cgroup_nr) {
		cfg->ev_cgroup = xreallocarray(cfg->ev_cgroup, e + 1,
					       sizeof(*cfg->ev_cgroup));
		while (cfg->ev_cgroup_nr <= e)
			cfg->ev_cgroup[cfg->ev_cgroup_nr++] = -1;
	}
	cfg->ev_cgroup[e] = cg;
}

void cgroup_parse(struct config *cfg, const char *list)
{
	const char *s = list;

	if (cfg->events.nr == 0)	/* perf's words */
		usage_error("-G: must define events before cgroups (-e ... "
			    "-G CGROUP)");
	for (;;) {
		size_t len = strcspn(s, ",");

		if (len) {
			char *name = xasprintf("%.*s", (int)len, s);
			size_t e = cfg->cgroup_names;

			if (e >= cfg->events.nr)
				usage_error("-G: cgroup '%s' has no event in "
					    "its place (the Nth cgroup of -G "
					    "goes with the Nth event: %zu "
					    "events before it)", name,
					    cfg->events.nr);
			pair(cfg, e, cgroup_findnew(cfg, name));
			free(name);
		}
		cfg->cgroup_names++;	/* an empty name too */
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
	/* One cgroup for all the events so far. */
	if (cfg->cgroup_names == 1)
		for (size_t e = 1; e < cfg->events.nr; e++)
			pair(cfg, e, cgroup_of(cfg, 0));
}

/* --for-each-cgroup's candidates, in the order nftw() walks them. */
struct cg_names {
	char **name;
	bool *used;
	size_t nr;
	size_t skip;		/* the mount point's length */
};

static struct cg_names *walk_names;

static int walk_add(const char *path, const struct stat *sb, int type,
		    struct FTW *ftw)
{
	struct cg_names *w = walk_names;
	const char *name = path + w->skip;

	(void)sb;
	(void)ftw;
	if (type != FTW_D)
		return 0;
	/* perf's names: "" for the root, "a/b" below it */
	if (name[0] == '/' && name[1])
		name++;
	w->name = xreallocarray(w->name, w->nr + 1, sizeof(*w->name));
	w->used = xreallocarray(w->used, w->nr + 1, sizeof(*w->used));
	w->name[w->nr] = xstrdup(name);
	w->used[w->nr++] = false;
	return 0;
}

static void add_name(struct cg_names *w, const char *name)
{
	for (size_t i = 0; i < w->nr; i++)
		if (strcmp(w->name[i], name) == 0)
			return;
	w->name = xreallocarray(w->name, w->nr + 1, sizeof(*w->name));
	w->used = xreallocarray(w->used, w->nr + 1, sizeof(*w->used));
	w->name[w->nr] = xstrdup(name);
	w->used[w->nr++] = true;
}

/* perf's match_cgroups(): every cgroup some pattern of list matches. */
static void match_names(struct cg_names *w, const char *list)
{
	const char *mnt = mount_or_die();
	const char *s = list;

	w->skip = strlen(mnt);
	walk_names = w;
	if (nftw(mnt, walk_add, 20, 0) < 0)
		die_status(2, "cannot list the cgroups under %s: %s", mnt,
			   strerror(errno));
	walk_names = NULL;
	for (;;) {
		size_t len = strcspn(s, ",");

		if (len) {
			char *pat = xasprintf("%.*s", (int)len, s);
			regex_t re;

			if (regcomp(&re, pat, REG_NOSUB) != 0)
				usage_error("--for-each-cgroup: '%s' is not a "
					    "regular expression", pat);
			for (size_t i = 0; i < w->nr; i++)
				if (regexec(&re, w->name[i], 0, NULL, 0) == 0)
					w->used[i] = true;
			regfree(&re);
			free(pat);
		} else if (w->nr) {
			w->used[0] = true;	/* the root */
		}
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
}

void cgroup_expand(struct config *cfg, const char *list)
{
	struct pc_event_list orig = cfg->events;
	struct cg_names w = { 0 };
	size_t ncg = 0;

	if (strpbrk(list, "{}[]()|*+?^$")) {
		match_names(&w, list);
	} else {
		for (const char *s = list;; ) {
			size_t len = strcspn(s, ",");
			char *name = len ? xasprintf("%.*s", (int)len, s) : xstrdup("/");

			add_name(&w, name);
			free(name);
			if (s[len] == '\0')
				break;
			s += len + 1;
		}
	}
	memset(&cfg->events, 0, sizeof(cfg->events));
	for (size_t i = 0; i < w.nr; i++) {
		int cg;

		if (!w.used[i])
			continue;
		cg = cgroup_findnew(cfg, w.name[i]);
		for (size_t e = 0; e < orig.nr; e++) {
			const struct pc_event_spec *o = &orig.ev[e];
			struct pc_event_spec *n;

			if (pc_event_list_add(&cfg->events, o->name, &o->attr))
				die_nomem();
			n = &cfg->events.ev[cfg->events.nr - 1];
			/* each copy of a group is a group of its own */
			n->group = o->group < 0 ? -1 :
				   o->group + (int)ncg * orig.ngroups;
			n->leader = o->leader;
			pair(cfg, cfg->events.nr - 1, cg);
		}
		ncg++;
	}
	cfg->events.ngroups = orig.ngroups * (int)ncg;
	cfg->cgroup_names = (unsigned)ncg;
	for (size_t i = 0; i < w.nr; i++)
		free(w.name[i]);
	free(w.name);
	free(w.used);
	pc_event_list_release(&orig);
	if (ncg == 0)
		usage_error("--for-each-cgroup: no cgroup under %s matches "
			    "'%s'", mount_or_die(), list);
}

int cgroup_of(const struct config *cfg, size_t e)
{
	return e < cfg->ev_cgroup_nr ? cfg->ev_cgroup[e] : -1;
}

void cgroup_release(struct config *cfg)
{
	for (size_t i = 0; i < cfg->ncgroups; i++) {
		close(cfg->cgroups[i].fd);
		free(cfg->cgroups[i].name);
	}
	free(cfg->cgroups);
	free(cfg->ev_cgroup);
	cfg->cgroups = NULL;
	cfg->ev_cgroup = NULL;
	cfg->ncgroups = cfg->ev_cgroup_nr = 0;
}
