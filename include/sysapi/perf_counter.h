/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf_counter.h - the December 2008 "Performance Counters for Linux" ABI.
 *
 * One system call, one file descriptor per counter:
 *
 *	fd = perf_counter_open(hw_event_type, hw_event_period, record_type,
 *			       pid, cpu);
 *
 * SIMPLE counters return their 64-bit count from read(2) of exactly 8
 * bytes (with a hw_event_period, read(2) blocks until that many events
 * have passed since the previous read).  IRQ counters record the interrupted instruction pointer every
 * hw_event_period events; read(2) returns those IPs as 8-byte records.
 *
 * The call exists only on kernels carrying pctools' kernel-patches/.  Such
 * a kernel publishes the syscall number in PERF_COUNTER_MARKER; the number
 * is not stable (451 is the first free x86_64 number in 6.1, but mainline
 * gave 451 to cachestat in 6.5), so user space must read the marker and
 * never probe by calling a number.  See perf_counter_open(2).
 */
#ifndef SYSAPI_PERF_COUNTER_H
#define SYSAPI_PERF_COUNTER_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/ioctl.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * hw_event_type.  0..5 are the generic hardware events of 2008.  A negative
 * value is a raw, CPU-specific event code: the kernel programs -type into
 * the PMU (so raw code 0x1c2 is passed as -0x1c2).  The software events
 * that the pctools patch adds live at PERF_COUNT_SW_BASE and up, a range
 * that can clash with neither.
 */
enum hw_event_types {
	PERF_COUNT_CYCLES		= 0,
	PERF_COUNT_INSTRUCTIONS		= 1,
	PERF_COUNT_CACHE_REFERENCES	= 2,
	PERF_COUNT_CACHE_MISSES		= 3,
	PERF_COUNT_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_BRANCH_MISSES	= 5,
	PERF_HW_EVENTS_MAX		= 6,

	PERF_COUNT_SW_BASE		= 0x1000,
	PERF_COUNT_CPU_CLOCK		= PERF_COUNT_SW_BASE + 0,
	PERF_COUNT_TASK_CLOCK		= PERF_COUNT_SW_BASE + 1,
	PERF_COUNT_PAGE_FAULTS		= PERF_COUNT_SW_BASE + 2,
	PERF_COUNT_CONTEXT_SWITCHES	= PERF_COUNT_SW_BASE + 3,
	PERF_COUNT_CPU_MIGRATIONS	= PERF_COUNT_SW_BASE + 4,
	PERF_COUNT_PAGE_FAULTS_MIN	= PERF_COUNT_SW_BASE + 5,
	PERF_COUNT_PAGE_FAULTS_MAJ	= PERF_COUNT_SW_BASE + 6,
	PERF_SW_EVENTS_MAX		= PERF_COUNT_SW_BASE + 7,
};

/* record_type */
enum perf_record_type {
	PERF_RECORD_SIMPLE		= 0,	/* read() gives the u64 count */
	PERF_RECORD_IRQ			= 1,	/* read() gives u64 IPs */
};

/*
 * ioctl on an IRQ counter: the number of IP records dropped because the
 * reader was too slow (the per-counter buffer holds PERF_COUNTER_IRQ_SLOTS
 * records).  Overruns are never silent.
 */
#define PERF_COUNTER_IOC_LOST		_IOR('$', 0x80, uint64_t)
#define PERF_COUNTER_IRQ_SLOTS		4096

/*
 * ioctl on any counter: the count with how long the counter was enabled
 * and running (ns), read together.  The times differ when the counter
 * took turns on the PMU with others (multiplexing, or a reservation in
 * PERF_COUNTER_RESOURCES); the count then scales by enabled / running.
 * Kernels before the pctools patch 9 answer ENOTTY.
 */
struct perf_counter_read {
	uint64_t	value;
	uint64_t	time_enabled;
	uint64_t	time_running;
};
#define PERF_COUNTER_IOC_READ		_IOR('$', 0x81, struct perf_counter_read)

/*
 * The 2008 resource controls: "reserve_percpu" hardware counters of every
 * CPU kept for privileged CPU-wide counting, and "overcommit" (0/1):
 * whether an unprivileged task counter beyond what is left still opens
 * (and takes turns) or fails with ENOSPC.
 */
#define PERF_COUNTER_RESOURCES		"/sys/devices/system/cpu/perf_counters"

/*
 * The marker a patched kernel exposes: a directory whose "syscall_nr"
 * file holds the call's number in decimal, and "version" the ABI version
 * (PERF_COUNTER_ABI_VERSION).
 */
#define PERF_COUNTER_MARKER		"/sys/kernel/perf_counter"
#define PERF_COUNTER_MARKER_NR		PERF_COUNTER_MARKER "/syscall_nr"
#define PERF_COUNTER_MARKER_VERSION	PERF_COUNTER_MARKER "/version"
#define PERF_COUNTER_ABI_VERSION	1

/*
 * Open a counter with the 2008 call.  Returns a file descriptor, or -1
 * with errno set.  On a kernel without the pctools patch (no marker) it
 * fails with ENOSYS and issues no system call.
 */
int perf_counter_open(int32_t hw_event_type, uint32_t hw_event_period,
		      uint32_t record_type, pid_t pid, int cpu);

/*
 * The syscall number read from the marker, or -1 with errno ENOSYS when
 * the running kernel lacks the call.  Read once and cached.
 */
long perf_counter_syscall_nr(void);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_PERF_COUNTER_H */
