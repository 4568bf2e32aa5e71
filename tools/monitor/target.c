/* target.c - the target: a command monitor starts, or a running thread. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor.h"

int child_start(struct monitor_child *c, char *const argv[])
{
	int go[2], err[2];
	int e = 0;
	char b;

	if (pipe2(go, O_CLOEXEC) != 0)
		return -1;
	/* err: the child reports a failed exec through it (CLOEXEC closes
	   it on success, so the read sees EOF) */
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		errno = e;
		return -1;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(err[0]);
		/* wait until the parent's counters are open */
		while (read(go[0], &b, 1) < 0 && errno == EINTR)
			;
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

int child_go(struct monitor_child *c)
{
	ssize_t n;
	int e = 0;

	close(c->go_fd);
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	if (n == (ssize_t)sizeof(e)) {
		errno = e;
		return -1;
	}
	return 0;
}

char *path_search(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? realpath(name, NULL) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = colon + 1) {
		size_t len;

		colon = strchr(p, ':');
		len = colon ? (size_t)(colon - p) : strlen(p);
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len,
			     len ? p : ".", name) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return realpath(buf, NULL);
		if (!colon)
			break;
	}
	errno = ENOENT;
	return NULL;
}

pid_t thread_tgid(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f) {
		errno = ESRCH;
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	if (tgid <= 0)
		errno = ESRCH;
	return tgid;
}
