/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz-util.c - files and strings for the fuzz targets (fuzz.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

/*
 * Leaks that are not ours, for LeakSanitizer (libFuzzer's and the
 * sanitizer build's): elfutils' dwarf_getscopes() drops the scopes it
 * allocated when its second pass fails on malformed DWARF (0.188 and
 * every later release read: "if (result > 0) *scopes = a.scopes;" with
 * no free otherwise); the caller gets -1 and no pointer to free.  libdw
 * has no frame pointers, so the leak's stack ends in libdw.so and is
 * matched by that.  What we allocate ourselves (a dso, its Dwfl's owner)
 * still shows when we lose it.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libdw.so\n";
}

/* ... and no table of the suppressions used after every leak check. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static char dir[64];
static char path[4096];

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void dir_remove(void)
{
	if (dir[0])
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_dir(const char *name)
{
	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "/tmp/pcfuzz-%s.XXXXXX", name);
	if (!mkdtemp(dir)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	atexit(dir_remove);
	return dir;
}

static void write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size > 0) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror("fuzz: write");
			abort();
		}
		p += n;
		size -= (size_t)n;
	}
}

const char *fuzz_file(const char *rel, const void *data, size_t size)
{
	int fd;

	FUZZ_CHECK(dir[0]);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			perror("fuzz: mkdir");
			abort();
		}
		*s = '/';
	}
	/* a new inode each time: nothing cached of the last input stays
	   valid by accident */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror("fuzz: open");
		abort();
	}
	write_all(fd, data, size);
	close(fd);
	return path;
}

void fuzz_append(const char *p, const void *data, size_t size)
{
	int fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd < 0) {
		perror("fuzz: open");
		abort();
	}
	write_all(fd, data, size);
	close(fd);
}

char *fuzz_string(const uint8_t *data, size_t size)
{
	size_t n = strnlen((const char *)data, size);
	char *s = malloc(n + 1);

	FUZZ_CHECK(s != NULL);
	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}
