/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * legacy.c - the December 2008 perf_counter_open(2), present only on a
 * kernel carrying pctools' kernel-patches/: the call through the number
 * its marker gives (marker.c), and which events it can count.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sysapi/perf_counter.h>
#include "sysapi-internal.h"

int perf_counter_open(int32_t hw_event_type, uint32_t hw_event_period,
		      uint32_t record_type, pid_t pid, int cpu)
{
	long nr = perf_counter_syscall_nr();

	if (nr < 0)
		return -1;	/* ENOSYS: no marker, no call issued */
	return pc_sys_counter_open(nr, hw_event_type, hw_event_period,
				   record_type, pid, cpu);
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
