/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-regular-file.c - regular_file_open() on every kind of file that
   can be planted where a regular one is expected: only a regular file
   opens, and nothing blocks (a FIFO without a writer would hang a plain
   open(2): the test would time out). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/regular-file.h"
#include "../check.h"

static char dir[] = "/tmp/test-regular-file.XXXXXX";

static const struct {
	const char *name;	/* in dir, or an absolute path */
	int flags;
	int want_errno;		/* 0: opens */
} cases[] = {
	{ "file", 0, 0 },
	{ "link-to-file", 0, 0 },
	{ "link-to-file", O_NOFOLLOW, ELOOP },
	{ "fifo", 0, EINVAL },
	{ "link-to-fifo", 0, EINVAL },
	{ "sock", 0, ENXIO },		/* open(2) itself refuses a socket */
	{ "subdir", 0, EISDIR },
	{ "/dev/zero", 0, EINVAL },
	{ "/dev/null", 0, EINVAL },
	{ "missing", 0, ENOENT },
	{ "file/below", 0, ENOTDIR },
};

int main(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char path[128];
	struct stat st;
	size_t i;
	int fd, s;

	if (!mkdtemp(dir))
		SKIP("cannot make a temporary directory");
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	CHECK(fd >= 0 && write(fd, "12345", 5) == 5, "make file");
	close(fd);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0644) == 0, "mkfifo: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/subdir", dir);
	CHECK(mkdir(path, 0755) == 0, "mkdir");
	snprintf(path, sizeof(path), "%s/link-to-file", dir);
	CHECK(symlink("file", path) == 0, "symlink");
	snprintf(path, sizeof(path), "%s/link-to-fifo", dir);
	CHECK(symlink("fifo", path) == 0, "symlink");
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/sock", dir);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(s >= 0 && bind(s, (struct sockaddr *)&sun, sizeof(sun)) == 0,
	      "bind: %s", strerror(errno));

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].name[0] == '/')
			snprintf(path, sizeof(path), "%s", cases[i].name);
		else
			snprintf(path, sizeof(path), "%s/%s", dir,
				 cases[i].name);
		errno = 0;
		memset(&st, 0, sizeof(st));
		fd = regular_file_open(path, cases[i].flags, &st);
		if (cases[i].want_errno == 0) {
			CHECK(fd >= 0, "%s: %s", path, strerror(errno));
			CHECK(st.st_size == 5 && S_ISREG(st.st_mode),
			      "%s: stat filled", path);
			CHECK(fd < 0 || (fcntl(fd, F_GETFD) & FD_CLOEXEC),
			      "%s: close-on-exec", path);
		} else {
			CHECK(fd == -1 && errno == cases[i].want_errno,
			      "%s: fd %d, errno %s, want %s", path, fd,
			      strerror(errno), strerror(cases[i].want_errno));
		}
		if (fd >= 0)
			close(fd);
	}
	/* st may be NULL */
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = regular_file_open(path, 0, NULL);
	CHECK(fd >= 0, "NULL st: %s", strerror(errno));
	if (fd >= 0)
		close(fd);

	if (s >= 0)
		close(s);
	for (i = 0; i < 6; i++) {
		static const char *const names[] = { "file", "fifo", "sock",
			"link-to-file", "link-to-fifo", "subdir" };

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (strcmp(names[i], "subdir") == 0)
			rmdir(path);
		else
			unlink(path);
	}
	rmdir(dir);
	return check_done();
}
