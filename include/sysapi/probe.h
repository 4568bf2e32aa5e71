/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * probe.h - what this machine's kernel offers, asked once and cached.
 */
#ifndef SYSAPI_PROBE_H
#define SYSAPI_PROBE_H

#include <stdbool.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pc_probe {
	bool perf_event;	/* perf_event_open works (a software event
				   on self opens) */
	bool hw_pmu;		/* PERF_COUNT_HW_INSTRUCTIONS opens */
	bool legacy;		/* the 2008 call is present (marker found) */
	long legacy_nr;		/* its syscall number, -1 when absent */
	int paranoid;		/* /proc/sys/kernel/perf_event_paranoid,
				   or 2 (the default) when unreadable */
	int max_sample_rate;	/* perf_event_max_sample_rate (Hz), 0 when
				   unknown */
	int mlock_kb;		/* perf_event_mlock_kb, 0 when unknown */
	int kptr_restrict;	/* /proc/sys/kernel/kptr_restrict */
	bool cap_perfmon;	/* caller has CAP_PERFMON or CAP_SYS_ADMIN */
	int ncpus;		/* CPUs online */
	bool format_lost;	/* PERF_FORMAT_LOST: a sampling counter
				   reads its lost samples (Linux 6.0) */
};

/*
 * Probe the machine (on first call) and return the cached answers.  Never
 * fails: what cannot be read gets the conservative value above.
 */
const struct pc_probe *pc_probe(void);

/*
 * Parse a CPU list such as "0-3,5" into a sorted, deduplicated array the
 * caller frees.  Returns the count, or -1 with errno EINVAL (and *errpos
 * when not NULL) for a malformed list.
 */
int pc_cpulist_parse(const char *str, int **cpus, size_t *errpos);

/* The online CPUs (from /sys/devices/system/cpu/online), as above. */
int pc_cpus_online(int **cpus);

/*
 * The thread ids of process pid (from /proc/PID/task), sorted, into an
 * array the caller frees.  Returns the count, or -1 with errno (ESRCH for
 * a process that does not exist).
 */
int pc_task_threads(pid_t pid, pid_t **tids);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_PROBE_H */
