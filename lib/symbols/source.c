/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* source.c - the text of source lines named by DWARF (see source.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/regular-file.h"
#include "symbols/source.h"

/* A copy of a source line with tabs expanded to 8 columns, cut to fit. */
static char *detab(const char *src)
{
	char *out = malloc(SOURCE_LINE_MAX), *p = out;

	if (!out)
		return NULL;
	for (; *src && p < out + SOURCE_LINE_MAX - 9; src++) {
		if (*src != '\t') {
			*p++ = *src;
			continue;
		}
		do
			*p++ = ' ';
		while ((p - out) % 8);
	}
	*p = '\0';
	return out;
}

static void texts_free(char **text, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(text[i]);
		text[i] = NULL;
	}
}

int source_lines(const char *path, const int *want, size_t n, char **text)
{
	char *buf = NULL;
	size_t cap = 0, i;
	struct stat st;
	ssize_t len;
	int fd, last = 0, no = 0, err = 0;
	FILE *f;

	for (i = 0; i < n; i++) {
		text[i] = NULL;
		if (want[i] > last)
			last = want[i];
	}
	fd = regular_file_open(path, 0, &st);
	if (fd < 0)
		return -1;
	if (st.st_size > SOURCE_MAX_BYTES) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	f = fdopen(fd, "r");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	while (no < last && (len = getline(&buf, &cap, f)) >= 0) {
		no++;
		if (len > 0 && buf[len - 1] == '\n')
			buf[len - 1] = '\0';
		for (i = 0; i < n && !err; i++)
			if (want[i] == no && !text[i] && !(text[i] = detab(buf)))
				err = ENOMEM;
		if (err)
			break;
	}
	if (!err && ferror(f))
		err = errno ? errno : EIO;
	free(buf);
	fclose(f);
	if (err) {
		texts_free(text, n);
		errno = err;
		return -1;
	}
	return 0;
}
