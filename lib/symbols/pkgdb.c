/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pkgdb.c - file -> Debian package, from dpkg's lists of files. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hashtab.h"
#include "base/regular-file.h"
#include "symbols/pkgdb.h"

#define PKGDB_DIR "/var/lib/dpkg/info"
#define PKGDB_MAX_BYTES (64u << 20)

/* A path asked for: its answer once a scan has looked for it. */
struct pkg_entry {
	char *path;
	char *owner;		/* NULL: none */
	bool known;
	bool queued;		/* in the scan being prepared */
};

/* One spelling of a pending path, as a list may write it. */
struct pkg_cand {
	char *spelling;
	struct pkg_entry *e;
};

struct pkgdb {
	char *dir;
	size_t max_bytes;
	struct hashtab paths;		/* of struct pkg_entry */
	struct pkgdb_stats stats;
};

struct pkgdb *pkgdb_new(const char *dir, size_t max_bytes)
{
	struct pkgdb *db = calloc(1, sizeof(*db));

	if (!db)
		return NULL;
	db->dir = strdup(dir ? dir : PKGDB_DIR);
	if (!db->dir) {
		free(db);
		errno = ENOMEM;
		return NULL;
	}
	db->max_bytes = max_bytes ? max_bytes : PKGDB_MAX_BYTES;
	return db;
}

static void entry_free(void *item)
{
	struct pkg_entry *e = item;

	free(e->path);
	free(e->owner);
	free(e);
}

void pkgdb_free(struct pkgdb *db)
{
	if (!db)
		return;
	hashtab_release_items(&db->paths, entry_free);
	free(db->dir);
	free(db);
}

void pkgdb_stats(const struct pkgdb *db, struct pkgdb_stats *st)
{
	*st = db->stats;
}

static bool entry_eq(const void *item, const void *key)
{
	return strcmp(((const struct pkg_entry *)item)->path, key) == 0;
}

static bool cand_eq(const void *item, const void *key)
{
	return strcmp(((const struct pkg_cand *)item)->spelling, key) == 0;
}

/* The entry of path, made (not known yet) on first sight; NULL: ENOMEM. */
static struct pkg_entry *entry_get(struct pkgdb *db, const char *path)
{
	size_t h = hash_str(path);
	struct pkg_entry *e = hashtab_find(&db->paths, h, entry_eq, path);

	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e || !(e->path = strdup(path)) ||
	    hashtab_add(&db->paths, h, e) != 0) {
		if (e)
			free(e->path);
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	return e;
}

/*
 * The other spelling of path on a merged-/usr system, in buf, or NULL:
 * /usr/lib/x <-> /lib/x, and bin, sbin, lib32, lib64, libx32 alike.
 */
static const char *usr_alias(const char *path, char *buf, size_t size)
{
	static const char *const merged[] = { "bin/", "sbin/", "lib/",
					      "lib32/", "lib64/", "libx32/" };
	bool usr = strncmp(path, "/usr/", 5) == 0;
	const char *rest = path + (usr ? 5 : 1);
	size_t i;

	if (path[0] != '/')
		return NULL;
	for (i = 0; i < sizeof(merged) / sizeof(merged[0]); i++)
		if (strncmp(rest, merged[i], strlen(merged[i])) == 0)
			break;
	if (i == sizeof(merged) / sizeof(merged[0]))
		return NULL;
	if ((size_t)snprintf(buf, size, "%s%s", usr ? "" : "/usr",
			     usr ? path + 4 : path) >= size)
		return NULL;
	return buf;
}

static int cand_add(struct hashtab *t, const char *spelling,
		    struct pkg_entry *e)
{
	struct pkg_cand *c = malloc(sizeof(*c));

	if (!c || !(c->spelling = strdup(spelling))) {
		free(c);
		return -1;
	}
	c->e = e;
	if (hashtab_add(t, hash_str(spelling), c) != 0) {
		free(c->spelling);
		free(c);
		return -1;
	}
	return 0;
}

static void cand_free(void *item)
{
	struct pkg_cand *c = item;

	free(c->spelling);
	free(c);
}

/* "liblzma5:amd64.list" -> "liblzma5"; NULL for a name not a list. */
static char *package_of(const char *file)
{
	size_t n = strlen(file), colon;

	if (n <= 5 || strcmp(file + n - 5, ".list") != 0)
		return NULL;
	n -= 5;
	colon = strcspn(file, ":");
	return strndup(file, colon < n ? colon : n);
}

/*
 * Read one list, answering the candidates it names; *left counts the
 * pending paths still without an answer, *budget the bytes we may still
 * read.  A list is opened as a regular file only (never a FIFO).
 */
static void scan_list(struct pkgdb *db, const char *name,
		      struct hashtab *cands, size_t *left, size_t *budget)
{
	char path[4096], *line = NULL, *pkg = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", db->dir, name) >=
	    sizeof(path))
		return;
	fd = regular_file_open(path, 0, NULL);
	if (fd < 0)
		return;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
	while (*left && (len = getline(&line, &cap, f)) > 0) {
		struct pkg_cand *c;

		if ((size_t)len > *budget) {
			*budget = 0;
			break;
		}
		*budget -= (size_t)len;
		db->stats.bytes += (uint64_t)len;
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		c = hashtab_find(cands, hash_str(line), cand_eq, line);
		if (!c || c->e->known)
			continue;
		if (!pkg && !(pkg = package_of(name)))
			break;
		c->e->owner = strdup(pkg);
		c->e->known = true;
		(*left)--;
	}
	free(pkg);
	free(line);
	fclose(f);
}

/* Look for every pending entry in one pass over the lists. */
static int scan(struct pkgdb *db, struct pkg_entry **pending, size_t n)
{
	struct hashtab cands = HASHTAB_INIT;
	size_t i, left = n, budget = db->max_bytes;
	char alias[4096];
	struct dirent *de;
	const char *a;
	int rc = 0;
	DIR *d;

	for (i = 0; i < n && rc == 0; i++) {
		rc = cand_add(&cands, pending[i]->path, pending[i]);
		a = usr_alias(pending[i]->path, alias, sizeof(alias));
		if (rc == 0 && a)
			rc = cand_add(&cands, a, pending[i]);
	}
	d = rc == 0 ? opendir(db->dir) : NULL;
	if (d) {
		db->stats.scans++;
		while (left && budget && (de = readdir(d)))
			scan_list(db, de->d_name, &cands, &left, &budget);
		if (!budget)
			db->stats.truncated++;
		closedir(d);
	}
	/* known now, found or not: the same path never costs a scan again */
	for (i = 0; i < n && rc == 0; i++)
		pending[i]->known = true;
	hashtab_release_items(&cands, cand_free);
	if (rc != 0)
		errno = ENOMEM;
	return rc;
}

int pkgdb_owners(struct pkgdb *db, const char *const *paths, size_t n,
		 const char **owners)
{
	struct pkg_entry **pending = calloc(n + 1, sizeof(*pending));
	size_t i, np = 0;
	int rc = pending ? 0 : -1;

	for (i = 0; i < n; i++) {
		struct pkg_entry *e = pending ? entry_get(db, paths[i]) : NULL;

		owners[i] = NULL;
		if (!e) {
			rc = -1;
			continue;
		}
		if (!e->known && !e->queued) {
			e->queued = true;
			pending[np++] = e;
		}
	}
	if (np && scan(db, pending, np) != 0)
		rc = -1;
	for (i = 0; i < n; i++) {
		struct pkg_entry *e = hashtab_find(&db->paths,
						   hash_str(paths[i]),
						   entry_eq, paths[i]);

		owners[i] = e ? e->owner : NULL;
	}
	free(pending);
	if (rc != 0)
		errno = ENOMEM;
	return rc;
}

const char *pkgdb_owner(struct pkgdb *db, const char *path)
{
	const char *owner = NULL;

	pkgdb_owners(db, &path, 1, &owner);
	return owner;
}
