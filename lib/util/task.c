/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task.c - facts about a target task that decide what a tool says. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

void task_comm(pid_t tid, char *buf, size_t sz)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sz - 1);
		close(fd);
	}
	if (n <= 0)
		n = 0;
	/* the kernel's newline ends it; one inside is the name's own */
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
}
