/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscall.c - the thin layer: one wrapper per system call, returning an
 * fd or -1 with errno, nothing else.  It knows no marker: the 2008 call's
 * number is its caller's to find (marker.c).
 */
#include "config.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "sysapi-internal.h"

int pc_sys_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		      int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

int pc_sys_counter_open(long nr, int32_t type, uint32_t period,
			uint32_t record, pid_t pid, int cpu)
{
	return (int)syscall(nr, type, period, record, pid, cpu);
}
