/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawn.c - fork a command, hold it before exec, then let it go. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/spawn.h"

static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

char *spawn_path_search(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return runnable(name) ? realpath(name, NULL) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = colon + 1) {
		size_t len;

		colon = strchr(p, ':');
		len = colon ? (size_t)(colon - p) : strlen(p);
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len,
			     len ? p : ".", name) < (int)sizeof(buf) &&
		    runnable(buf))
			return realpath(buf, NULL);
		if (!colon)
			break;
	}
	errno = ENOENT;
	return NULL;
}

int spawn_hold(struct spawn *sp, char *const argv[], const sigset_t *child_mask)
{
	char *found = spawn_path_search(argv[0]);
	int go[2], err[2], e;
	char b;

	/* searched here, not in the child: execv() of one path, so that
	   no /bin/sh fallback and no second search can happen */
	snprintf(sp->path, sizeof(sp->path), "%s", found ? found : argv[0]);
	free(found);

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
		execv(sp->path, argv);
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

const char *spawn_strerror(const struct spawn *sp, int err, char *buf,
			   size_t size)
{
	char line[256] = "";
	ssize_t n = 0;
	int fd;

	if (err != ENOENT && err != ENOEXEC)
		return snprintf(buf, size, "%s", strerror(err)), buf;
	fd = open(sp->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		n = read(fd, line, sizeof(line) - 1);
		close(fd);
	}
	if (fd < 0 || n < 0)
		return snprintf(buf, size, "%s", strerror(err)), buf;
	line[n > 0 ? n : 0] = '\0';
	if (err == ENOENT && strncmp(line, "#!", 2) == 0) {
		const char *interp = line + 2 + strspn(line + 2, " \t");

		snprintf(buf, size, "bad interpreter '%.*s': %s (the #! line "
			 "names a program that does not exist)",
			 (int)strcspn(interp, " \t\n"), interp, strerror(err));
	} else if (err == ENOEXEC) {
		snprintf(buf, size, "%s (%s)", strerror(err),
			 strncmp(line, "\177ELF", 4) == 0 ?
			 "an ELF file this machine cannot run, or corrupt" :
			 "not a program, and no #! line names an interpreter");
	} else {
		snprintf(buf, size, "%s", strerror(err));
	}
	return buf;
}

int spawn_exit_status(const struct spawn *sp, int err)
{
	return err == ENOENT && access(sp->path, F_OK) != 0 ? 127 : 126;
}
