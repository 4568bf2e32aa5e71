/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawn.c - fork a command, hold it before exec, then let it go. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/spawn.h"

int spawn_hold(struct spawn *sp, char *const argv[], const sigset_t *child_mask)
{
	int go[2], err[2], e;
	char b;

	if (pipe2(go, O_CLOEXEC) != 0)
		return -1;
	/* The child reports a failed exec through err; on success CLOEXEC
	   closes it and the parent reads EOF. */
	if (pipe2(err, O_CLOEXEC) != 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		errno = e;
		return -1;
	}
	sp->pid = fork();
	if (sp->pid < 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		errno = e;
		return -1;
	}
	if (sp->pid == 0) {
		ssize_t n;

		close(go[1]);
		close(err[0]);
		if (child_mask)
			sigprocmask(SIG_SETMASK, child_mask, NULL);
		do
			n = read(go[0], &b, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);	/* the tool gave up before the exec */
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	sp->go_fd = go[1];
	sp->err_fd = err[0];
	return 0;
}

void spawn_park(const struct spawn *sp)
{
	char path[64], buf[512];

	/* Its only sleep before exec is the read of go_fd: state S. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)sp->pid);
	for (int i = 0; i < 10000; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		const char *state;

		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return;
		buf[n] = '\0';
		state = strrchr(buf, ')');	/* comm may hold ") " */
		if (state == NULL || state[1] == '\0' || state[2] == 'S')
			return;
		usleep(100);
	}
}

int spawn_release(struct spawn *sp)
{
	ssize_t n;
	int e = 0;

	n = write(sp->go_fd, "x", 1);
	close(sp->go_fd);
	if (n != 1) {
		close(sp->err_fd);
		return errno;
	}
	do
		n = read(sp->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(sp->err_fd);
	return n == (ssize_t)sizeof(e) ? e : 0;
}
