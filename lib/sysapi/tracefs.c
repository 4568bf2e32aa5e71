/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tracefs.c - where tracefs is mounted, found once: what the tracepoint
 * resolver reads and the event parser's advice looks at.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include <sysapi/tracepoint.h>

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};
static const char *tracefs;
static int tracefs_err;
static pthread_once_t tracefs_once = PTHREAD_ONCE_INIT;

static void tracefs_find(void)
{
	tracefs_err = ENOENT;
	for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(*tracefs_dirs); i++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/events", tracefs_dirs[i]);
		if (access(path, R_OK | X_OK) == 0) {
			tracefs = tracefs_dirs[i];
			return;
		}
		if (errno == EACCES)
			tracefs_err = EACCES;
	}
}

const char *pc_tracefs_dir(void)
{
	pthread_once(&tracefs_once, tracefs_find);
	if (tracefs == NULL)
		errno = tracefs_err;
	return tracefs;
}
