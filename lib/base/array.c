/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* array.c - growing an array by doubling, without dying. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"

int array_grow(void *ptrp, size_t *alloc, size_t need, size_t elsize)
{
	void *p;
	size_t n;

	if (need <= *alloc)
		return 0;
	n = *alloc < 8 ? 8 : *alloc;
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			n = need;
			break;
		}
		n *= 2;
	}
	if (elsize && n > SIZE_MAX / elsize) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(&p, ptrp, sizeof(p));
	p = realloc(p, n * elsize > 0 ? n * elsize : 1);
	if (!p)
		return -1;	/* errno ENOMEM from realloc */
	memcpy(ptrp, &p, sizeof(p));
	*alloc = n;
	return 0;
}
