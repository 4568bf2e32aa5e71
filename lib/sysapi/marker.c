/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * marker.c - small number files, and the one the perf_counter_open patch
 * publishes: which system call number it has on this kernel.
 *
 * The number comes from the marker, never from a guess: numbers are
 * reused (451 is cachestat on mainline since 6.5).  This file depends on
 * no other of lib/sysapi; the syscall layer is handed the number.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>
#include "sysapi-internal.h"

static long legacy_nr = -1;
static pthread_once_t legacy_once = PTHREAD_ONCE_INIT;

int pc_read_long(const char *path, long *out)
{
	char buf[32], *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	*out = strtol(buf, &end, 10);
	return end == buf || (*end != '\n' && *end != '\0') ? -1 : 0;
}

/* A marker file's non-negative number, or -1 when absent or malformed. */
static long read_marker(const char *dir, const char *file)
{
	char path[512];
	long v;

	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, file);
	else
		snprintf(path, sizeof(path), "%s/%s", PERF_COUNTER_MARKER,
			 file);
	return pc_read_long(path, &v) == 0 && v >= 0 ? v : -1;
}

static void legacy_init(void)
{
	/* The environment may point at another marker directory: tests use
	   it to prove a missing marker means ENOSYS and no call. */
	const char *dir = getenv("PCTOOLS_LEGACY_MARKER");
	long nr;

	if (dir && !*dir)
		dir = NULL;
	nr = read_marker(dir, "syscall_nr");
	if (read_marker(dir, "version") != PERF_COUNTER_ABI_VERSION)
		nr = -1;
	legacy_nr = nr;
}

long perf_counter_syscall_nr(void)
{
	pthread_once(&legacy_once, legacy_init);
	if (legacy_nr < 0) {
		errno = ENOSYS;
		return -1;
	}
	return legacy_nr;
}
