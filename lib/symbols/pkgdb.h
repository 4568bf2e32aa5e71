/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pkgdb.h - which Debian package installed a file, for advice such as
 * "install liblzma5-dbgsym": read from dpkg's own database, the lists
 * of files /var/lib/dpkg/info/PKG[:ARCH].list (one path a line), as
 * data -- never by running dpkg -S.
 *
 * Answers are cached per path for the life of the struct pkgdb.  Paths
 * not asked before cost one scan of the lists together (a batch asks
 * once for all of them), and a scan reads at most max_bytes of lists:
 * what lies beyond is not known (the answer is "none").  On a merged-/usr
 * system dpkg may list /lib/x/libfoo.so where the mapping says
 * /usr/lib/x/libfoo.so: both spellings are looked for.
 *
 * Never prints, never exits, runs no program: NULL or -1 with errno.
 * Strings returned belong to the struct pkgdb and live until pkgdb_free.
 */
#ifndef SYMBOLS_PKGDB_H
#define SYMBOLS_PKGDB_H

#include <stddef.h>
#include <stdint.h>

struct pkgdb;

/*
 * A database read from dir (NULL: /var/lib/dpkg/info), each scan
 * reading at most max_bytes of lists (0: 64 MiB).  NULL with errno
 * ENOMEM.  A missing dir is no error: every answer is then "none".
 */
struct pkgdb *pkgdb_new(const char *dir, size_t max_bytes);
void pkgdb_free(struct pkgdb *db);

/*
 * The packages of paths[0..n) into owners[0..n): the package's name
 * ("liblzma5", without ":amd64"), or NULL when no list names the path
 * (or it was past the scan's limit).  Returns 0, or -1 with errno
 * ENOMEM (owners then holds what is known).
 */
int pkgdb_owners(struct pkgdb *db, const char *const *paths, size_t n,
		 const char **owners);

/* pkgdb_owners() of one path. */
const char *pkgdb_owner(struct pkgdb *db, const char *path);

/* What the database has cost: scans of the lists and bytes read. */
struct pkgdb_stats {
	unsigned scans;
	uint64_t bytes;
	unsigned truncated;	/* scans stopped by max_bytes */
};
void pkgdb_stats(const struct pkgdb *db, struct pkgdb_stats *st);

#endif
