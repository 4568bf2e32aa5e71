/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscall.c - the thin layer: one wrapper per system call, returning an
 * fd or -1 with errno, nothing else.
 */
#include "config.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>
#include "sysapi-internal.h"

int pc_sys_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		      int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

int pc_sys_counter_open(int32_t type, uint32_t period, uint32_t record,
			pid_t pid, int cpu)
{
	long nr = perf_counter_syscall_nr();

	if (nr < 0)
		return -1;	/* ENOSYS: no marker, no call issued */
	return (int)syscall(nr, type, period, record, pid, cpu);
}
