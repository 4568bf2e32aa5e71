/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* words.c - sh's word splitting, quotes and backslashes, nothing more. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"

int words_split(const char *str, char ***out)
{
	size_t len = strlen(str), nmax = len / 2 + 2;
	/* argv slots, then the words' bytes: never longer than str */
	char **argv = malloc(nmax * sizeof(*argv) + len + 1);
	char *dst;
	int n = 0;

	if (argv == NULL) {
		errno = ENOMEM;
		return -1;
	}
	dst = (char *)(argv + nmax);
	for (const char *p = str; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			break;
		argv[n++] = dst;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');

				if (end == NULL)
					goto bad;
				memcpy(dst, p + 1, (size_t)(end - p - 1));
				dst += end - p - 1;
				p = end + 1;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					*dst++ = *p;
				}
				if (*p != '"')
					goto bad;
				p++;
			} else if (*p == '\\') {
				if (p[1] == '\0')
					goto bad;
				*dst++ = p[1];
				p += 2;
			} else {
				*dst++ = *p++;
			}
		}
		*dst++ = '\0';
	}
	if (n == 0)
		goto bad;
	argv[n] = NULL;
	*out = argv;
	return n;
bad:
	free(argv);
	errno = EINVAL;
	return -1;
}
