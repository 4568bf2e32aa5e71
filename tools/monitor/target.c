/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.c - facts about the target: its process, the executable on PATH. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor.h"

char *path_search(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? realpath(name, NULL) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = colon + 1) {
		size_t len;

		colon = strchr(p, ':');
		len = colon ? (size_t)(colon - p) : strlen(p);
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len,
			     len ? p : ".", name) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return realpath(buf, NULL);
		if (!colon)
			break;
	}
	errno = ENOENT;
	return NULL;
}

pid_t thread_tgid(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f) {
		errno = ESRCH;
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	if (tgid <= 0)
		errno = ESRCH;
	return tgid;
}
