/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* optsz.c - libbpf's rule for sz-prefixed option structs. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/optsz.h"

int optsz_copy(void *dst, size_t size, const void *src)
{
	const unsigned char *s = src;
	size_t sz, i;

	if (!src)
		return 0;
	memcpy(&sz, src, sizeof(sz));
	if (sz < sizeof(sz)) {
		errno = EINVAL;
		return -1;
	}
	for (i = size; i < sz; i++) {
		if (s[i]) {
			errno = E2BIG;
			return -1;
		}
	}
	memcpy(dst, src, sz < size ? sz : size);
	memcpy(dst, &size, sizeof(size));
	return 0;
}
