/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task.c - facts about a target task that decide what a tool says. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "util/task.h"

bool task_is_others(pid_t pid)
{
	/* kill(2)'s permission rule is the ptrace-read one perf applies to
	   a task of another user: EPERM means it is not ours */
	return pid > 0 && kill(pid, 0) < 0 && errno == EPERM;
}

bool task_is_zombie(pid_t pid)
{
	char path[64], buf[512], *state;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	state = strrchr(buf, ')');	/* comm may hold ") " */
	return state && state[1] == ' ' && state[2] == 'Z';
}
