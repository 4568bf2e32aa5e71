/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * legacy.c - the December 2008 perf_counter_open(2), present only on a
 * kernel carrying pctools' kernel-patches/.
 *
 * The syscall number comes from the marker the patch exposes, never from a
 * guess: numbers are reused (451 is cachestat on mainline since 6.5).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysapi/perf_counter.h>
#include "sysapi-internal.h"

static long legacy_nr = -1;
static pthread_once_t legacy_once = PTHREAD_ONCE_INIT;

/* A marker file's non-negative number, or -1 when absent or malformed. */
static long read_long(const char *path)
{
	long v;

	return pc_read_long(path, &v) == 0 && v >= 0 ? v : -1;
}

static void legacy_init(void)
{
	const char *path = getenv("PCTOOLS_LEGACY_MARKER");
	long nr;

	/* The environment may point at another marker directory: tests use
	   it to prove a missing marker means ENOSYS and no call. */
	if (path && *path) {
		char file[512];

		snprintf(file, sizeof(file), "%s/syscall_nr", path);
		nr = read_long(file);
		snprintf(file, sizeof(file), "%s/version", path);
		if (read_long(file) != PERF_COUNTER_ABI_VERSION)
			nr = -1;
	} else {
		nr = read_long(PERF_COUNTER_MARKER_NR);
		if (read_long(PERF_COUNTER_MARKER_VERSION) !=
		    PERF_COUNTER_ABI_VERSION)
			nr = -1;
	}
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

int perf_counter_open(int32_t hw_event_type, uint32_t hw_event_period,
		      uint32_t record_type, pid_t pid, int cpu)
{
	return pc_sys_counter_open(hw_event_type, hw_event_period, record_type,
				   pid, cpu);
}

bool pc_legacy_wanted(void)
{
	const char *b = getenv("PCTOOLS_BACKEND");

	return b && !strcmp(b, "legacy");
}

static const struct {
	uint32_t type;
	uint64_t config;
	int32_t legacy;
} legacy_map[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_INSTRUCTIONS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, PERF_COUNT_CACHE_REFERENCES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, PERF_COUNT_CACHE_MISSES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_BRANCH_INSTRUCTIONS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, PERF_COUNT_BRANCH_MISSES },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_CPU_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_TASK_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_PAGE_FAULTS },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_CONTEXT_SWITCHES },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_CPU_MIGRATIONS },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_PAGE_FAULTS_MIN },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_PAGE_FAULTS_MAJ },
};

int pc_legacy_type(const struct perf_event_attr *attr, int32_t *type)
{
	if (attr->type == PERF_TYPE_RAW) {
		if (attr->config == 0 || attr->config > 0x7fffffff)
			goto unsupported;
		*type = -(int32_t)attr->config;
		return 0;
	}
	for (size_t i = 0; i < sizeof(legacy_map) / sizeof(legacy_map[0]); i++) {
		if (legacy_map[i].type == attr->type &&
		    legacy_map[i].config == attr->config) {
			*type = legacy_map[i].legacy;
			return 0;
		}
	}
unsupported:
	errno = EOPNOTSUPP;
	return -1;
}
