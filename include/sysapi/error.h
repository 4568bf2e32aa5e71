/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * error.h - errno from opening a counter, turned into advice.
 */
#ifndef SYSAPI_ERROR_H
#define SYSAPI_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A buffer of this size holds every message pc_strerror() writes whole. */
#define PC_STRERROR_SIZE 1024

/*
 * Explain errnum, as returned by pc_counter_open() for attr (may be NULL),
 * in one line without a trailing newline: what is wrong, then the fix.
 * EACCES/EPERM name the perf_event_paranoid level and the ways out
 * (sysctl, CAP_PERFMON, a :u modifier); ENOENT/EOPNOTSUPP on a hardware
 * event say the machine has no PMU for it; ESRCH says no such process;
 * EMFILE names the ulimit to raise.  Writes into buf and returns it.
 */
const char *pc_strerror(int errnum, const struct perf_event_attr *attr,
			char *buf, size_t sz);

/* What a counter that failed to open was to count. */
enum pc_scope {
	PC_SCOPE_GUESS,	/* unknown: what the paranoid level refuses */
	PC_SCOPE_TASK,	/* a task (pid >= 0) */
	PC_SCOPE_CPU,	/* a CPU, every task on it (pid -1, -a, -C) */
};

/*
 * pc_strerror() for a counter of that scope: at EACCES/EPERM the fix
 * named is one that works at the perf_event_paranoid level read (a CPU
 * needs 0 or less, a task's kernel space 1, its user space 2), or, where
 * the level allows it, the other causes (another user's task, a security
 * module).
 */
const char *pc_strerror_scope(int errnum, const struct perf_event_attr *attr,
			      enum pc_scope scope, char *buf, size_t sz);

/*
 * Whether errnum, from pc_counter_open(), means "this machine cannot count
 * that event" (perf's <not supported>: no PMU for it, a kernel without
 * it) rather than a fault of the target or of permission, which a tool
 * should report.
 */
bool pc_errno_unsupported(int errnum);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_ERROR_H */
