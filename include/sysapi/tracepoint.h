/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tracepoint.h - kernel tracepoints by name, through tracefs.
 *
 * Never prints or exits: functions return -1 (or NULL) with errno set.
 * A tracefs directory argument lets tests point at a fake tree; NULL
 * means the mounted one (pc_tracefs_dir()).  Strings returned are the
 * caller's to free(3).
 */
#ifndef SYSAPI_TRACEPOINT_H
#define SYSAPI_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

#include <sysapi/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The mounted tracefs ("/sys/kernel/tracing", else the debugfs copy
 * "/sys/kernel/debug/tracing"), found once; NULL with errno ENOENT when
 * neither has an events/ directory, EACCES when it cannot be read.
 */
const char *pc_tracefs_dir(void);

/*
 * A pc_event_resolve_fn for tracepoints: NAME (len bytes) is
 * "SYS:EVENT", either part a glob ("sched:*", "syscalls:sys_enter_open*");
 * arg is the tracefs directory (const char *) or NULL.  Appends one
 * PERF_TYPE_TRACEPOINT event per match, named "SYS:EVENT", in the order
 * perf expands a glob in (tracefs's directory order).  Returns the number appended,
 * 0 when NAME is not of that form or nothing matches, -1 with errno
 * (EACCES: tracefs not readable; ENOMEM).
 */
int pc_tracepoint_resolve(void *arg, const char *name, size_t len,
			  struct pc_event_list *list);

/*
 * Every tracepoint as "SYS:EVENT", sorted as `perf list tracepoint`
 * sorts them, into *names (NULL-terminated; free each string and the
 * array).  tracefs NULL: the mounted one.  Returns the count, or -1 with
 * errno.
 */
int pc_tracepoint_list(const char *tracefs, char ***names);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_TRACEPOINT_H */
