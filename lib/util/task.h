/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task.h - facts about a target task that decide what a tool says. */
#ifndef UTIL_TASK_H
#define UTIL_TASK_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Whether pid exists but belongs to another user whom we may not watch:
 * then a counter on it fails with EACCES/EPERM whatever
 * perf_event_paranoid says, and the fix is to run as its owner or as
 * root, not to lower paranoid.
 */
bool task_is_others(pid_t pid);

/*
 * Whether pid has exited but its parent has not reaped it (state Z): it
 * still answers kill(pid, 0), but no counter can be opened on it.
 */
bool task_is_zombie(pid_t pid);

/*
 * Thread tid's name from /proc/TID/comm into buf (sz bytes), without the
 * newline; "" when it cannot be read (the thread has gone).  The name is
 * the task's own: show it through esc_visible().
 */
void task_comm(pid_t tid, char *buf, size_t sz);

#endif
