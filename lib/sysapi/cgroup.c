/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cgroup.c - the cgroup hierarchy perf_event counts in, and its cgroups. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <sysapi/cgroup.h>

static char mount_v1[4096], mount_v2[4096];
static int mount_err;
static pthread_once_t mount_once = PTHREAD_ONCE_INIT;

/* Does the comma list opts name opt? */
static int has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = opts; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, opt, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/*
 * perf's cgroupfs_find_mountpoint(): "DEV DIR TYPE OPTS ..." lines; a v1
 * perf_event hierarchy wins over the v2 one, which has every controller.
 * (A mount point with a space in it is escaped as \040 and skipped.)
 */
static void mount_find(void)
{
	char line[8192], dir[4096], type[64], opts[4096];
	FILE *f = fopen("/proc/mounts", "re");

	mount_err = ENOENT;
	if (f == NULL) {
		mount_err = errno;
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s %4095s", dir, type, opts) != 3 ||
		    strchr(dir, '\\'))
			continue;
		if (strcmp(type, "cgroup") == 0 && !mount_v1[0] &&
		    has_option(opts, "perf_event"))
			snprintf(mount_v1, sizeof(mount_v1), "%s", dir);
		else if (strcmp(type, "cgroup2") == 0 && !mount_v2[0])
			snprintf(mount_v2, sizeof(mount_v2), "%s", dir);
	}
	fclose(f);
}

const char *pc_cgroup_mount(void)
{
	pthread_once(&mount_once, mount_find);
	if (mount_v1[0])
		return mount_v1;
	if (mount_v2[0])
		return mount_v2;
	errno = mount_err;
	return NULL;
}

int pc_cgroup_open(const char *name)
{
	const char *mnt = pc_cgroup_mount();
	char path[8192];
	struct statfs fs;
	int fd;

	if (mnt == NULL)
		return -1;
	if (name == NULL) {
		errno = EINVAL;
		return -1;
	}
	while (*name == '/')
		name++;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", mnt, name) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* "../.." leaves the hierarchy: a directory, but no cgroup (the
	   kernel would answer the counter's open with EBADF) */
	if (fd >= 0 && (fstatfs(fd, &fs) != 0 ||
			(fs.f_type != CGROUP2_SUPER_MAGIC &&
			 fs.f_type != CGROUP_SUPER_MAGIC))) {
		close(fd);
		errno = ENOENT;
		return -1;
	}
	return fd;
}
