/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * debuginfo.c - where a file's separate debug information is: libdwfl's
 * standard search, without its debuginfod client unless the user asked
 * for one.
 *
 * libdw's standard search ends in a debuginfod query, and to make it it
 * dlopen()s libdebuginfod with curl, gnutls and libcrypto -- about 9 MB
 * of a sampler's resident memory -- even when DEBUGINFOD_URLS is unset
 * and the query cannot happen.  Without DEBUGINFOD_URLS we do the two
 * local steps ourselves: the build-id tree, then .gnu_debuglink in the
 * places the standard search looks (beside the file, in .debug/ beside
 * it, under /usr/lib/debug).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/regular-file.h"
#include "symbols/dso-internal.h"

/* Open dir/name unless it is the file itself; fd or -1. */
static int try_open(const char *dir, const char *sub, const char *name,
		    const struct stat *self, char **found)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s%s/%s", dir, sub, name) >=
	    sizeof(path))
		return -1;
	fd = regular_file_open(path, 0, &st);
	if (fd < 0)
		return -1;
	if (self && st.st_dev == self->st_dev && st.st_ino == self->st_ino) {
		close(fd);
		return -1;
	}
	*found = strdup(path);
	return fd;
}

static int find_debuglink(const char *file_name, const char *link,
			  char **found)
{
	char dir[PATH_MAX];
	const char *slash;
	struct stat self, *selfp = NULL;
	int fd;

	if (!file_name || !link || !*link || strchr(link, '/'))
		return -1;
	slash = strrchr(file_name, '/');
	if (!slash) {
		strcpy(dir, ".");	/* a file named relative to us */
	} else if ((size_t)(slash - file_name) < sizeof(dir)) {
		memcpy(dir, file_name, (size_t)(slash - file_name));
		dir[slash - file_name] = '\0';
	} else {
		return -1;
	}
	if (stat(file_name, &self) == 0)
		selfp = &self;
	fd = try_open(dir, "", link, selfp, found);
	if (fd < 0)
		fd = try_open(dir, "/.debug", link, selfp, found);
	if (fd < 0 && dir[0] == '/') {
		char sub[PATH_MAX + 16];

		snprintf(sub, sizeof(sub), "/usr/lib/debug%s", dir);
		fd = try_open(sub, "", link, selfp, found);
	}
	return fd;
}

int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
		   GElf_Addr base, const char *file_name,
		   const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	int fd;

	if (urls && *urls)
		return dwfl_standard_find_debuginfo(mod, userdata, modname,
			base, file_name, debuglink_file, debuglink_crc,
			debuginfo_file_name);
	errno = 0;
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base,
			file_name, debuglink_file, debuglink_crc,
			debuginfo_file_name);
	if (fd >= 0)
		return fd;
	fd = find_debuglink(file_name, debuglink_file, debuginfo_file_name);
	if (fd < 0)
		errno = 0;	/* "not found" is no error to libdwfl */
	return fd;
}
