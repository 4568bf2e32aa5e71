/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * array.h - growable arrays: git's ALLOC_GROW, for libraries.
 *
 * An array is a pointer, a count the caller keeps, and an allocated
 * length (alloc) that array_grow() keeps.  The caller owns the storage and
 * releases it with free(3); a zero alloc and a NULL pointer are an empty
 * array.
 *
 * Never prints, never exits: a failure returns -1 with errno set and
 * leaves the old array as it was, so the caller can report and go on.
 */
#ifndef BASE_ARRAY_H
#define BASE_ARRAY_H

#include <stddef.h>

/*
 * Make *(void **)ptrp hold at least need elements of elsize bytes; grows
 * by doubling (at least 8 elements).  Returns 0, or -1 with errno ENOMEM
 * (also when need * elsize overflows); on failure the old array is
 * untouched.  Elements beyond the old alloc are not initialised.
 */
int array_grow(void *ptrp, size_t *alloc, size_t need, size_t elsize);

/* ARRAY_GROW(p, need, alloc): array_grow() for an lvalue pointer p. */
#define ARRAY_GROW(p, need, alloc) \
	array_grow(&(p), &(alloc), (need), sizeof(*(p)))

#endif
