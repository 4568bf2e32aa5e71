/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task.c - facts about a target task that decide what a tool says. */
#include "config.h"

#include <errno.h>
#include <signal.h>

#include "util/task.h"

bool task_is_others(pid_t pid)
{
	/* kill(2)'s permission rule is the ptrace-read one perf applies to
	   a task of another user: EPERM means it is not ours */
	return pid > 0 && kill(pid, 0) < 0 && errno == EPERM;
}
