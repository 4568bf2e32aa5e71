/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-pkgdb.c - lib/symbols/pkgdb on a dpkg info directory made here:
 * owners found under both spellings of a merged /usr, ":arch" dropped,
 * one scan for a batch and none for a path asked again, the byte limit
 * holding, and a FIFO among the lists never blocking the scan.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/pkgdb.h"
#include "../check.h"

static char dir[] = "/tmp/pct-pkgdb.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

static void cleanup(void)
{
	static const char *const names[] = {
		"liblzma5:amd64.list", "coreutils.list", "big.list",
		"liblzma5:amd64.md5sums", "fifo.list",
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const char *paths[] = {
		"/usr/lib/x86_64-linux-gnu/liblzma.so.5.4.1",	/* as /lib */
		"/usr/bin/sha256sum",				/* as is */
		"/bin/ls",					/* as /usr */
		"/opt/none",
	};
	const char *owners[4];
	struct pkgdb_stats st;
	struct pkgdb *db;
	char path[128];

	if (!mkdtemp(dir))
		SKIP("no temporary directory");
	atexit(cleanup);
	put("liblzma5:amd64.list", "/.\n/lib\n/lib/x86_64-linux-gnu\n"
	    "/lib/x86_64-linux-gnu/liblzma.so.5.4.1\n");
	/* not a list: never read as one */
	put("liblzma5:amd64.md5sums", "/opt/none\n");
	put("coreutils.list", "/.\n/usr/bin/sha256sum\n/usr/bin/ls\n");
	snprintf(path, sizeof(path), "%s/fifo.list", dir);
	CHECK(mkfifo(path, 0600) == 0, "a FIFO among the lists");

	db = pkgdb_new(dir, 0);
	CHECK(db, "new");
	CHECK(pkgdb_owners(db, paths, 4, owners) == 0, "owners");
	CHECK(owners[0] && !strcmp(owners[0], "liblzma5"),
	      "/usr/lib listed as /lib, \":amd64\" dropped: %s",
	      owners[0] ? owners[0] : "(none)");
	CHECK(owners[1] && !strcmp(owners[1], "coreutils"), "as listed: %s",
	      owners[1] ? owners[1] : "(none)");
	CHECK(owners[2] && !strcmp(owners[2], "coreutils"),
	      "/bin listed as /usr/bin: %s", owners[2] ? owners[2] : "(none)");
	CHECK(!owners[3], "no owner: %s", owners[3] ? owners[3] : "");
	pkgdb_stats(db, &st);
	CHECK(st.scans == 1, "one scan for the batch: %u", st.scans);

	/* asked again: the cache answers, found or not */
	CHECK(pkgdb_owner(db, paths[0]) == owners[0] &&
	      !pkgdb_owner(db, "/opt/none"), "cached answers");
	pkgdb_stats(db, &st);
	CHECK(st.scans == 1, "no scan for known paths: %u", st.scans);
	pkgdb_free(db);

	/* the byte limit: a list past it is not read to its end */
	put("big.list", "/a/very/long/path/that/fills/the/budget/of/this/scan\n"
	    "/usr/bin/late\n");
	db = pkgdb_new(dir, 64);
	CHECK(!pkgdb_owner(db, "/usr/bin/late"), "past the limit: none");
	pkgdb_stats(db, &st);
	CHECK(st.bytes <= 64 && st.truncated == 1,
	      "read %llu bytes, truncated %u", (unsigned long long)st.bytes,
	      st.truncated);
	pkgdb_free(db);

	/* a directory that is not there: no owner, no error */
	db = pkgdb_new("/nonexistent/dpkg/info", 0);
	CHECK(db && !pkgdb_owner(db, paths[0]), "no database");
	pkgdb_free(db);
	return check_done();
}
