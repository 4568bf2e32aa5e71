/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * optsz.h - the one rule for option structs that carry their own size.
 *
 * A library's options struct starts with "size_t sz", which the caller
 * sets to sizeof the struct it was compiled with (the PC_OPEN_TASK() and
 * SYMBOLS_OPTS() macros do).  As in libbpf's OPTS_VALID: an older,
 * smaller struct is accepted (the fields it lacks keep their defaults); a
 * newer, larger one is accepted only when every byte this library does
 * not know is zero, because a non-zero one asks for something it cannot
 * do.
 *
 * Never prints, never exits: -1 with errno set.
 */
#ifndef BASE_OPTSZ_H
#define BASE_OPTSZ_H

#include <stddef.h>

/*
 * Copy the caller's options src (NULL: none) over dst, which holds the
 * defaults and is size bytes long (the library's own sizeof).  dst's sz
 * field is then size.  Returns 0, or -1 with errno EINVAL (src's sz is
 * smaller than the sz field itself) or E2BIG (non-zero bytes past size);
 * dst is unchanged on failure.
 */
int optsz_copy(void *dst, size_t size, const void *src);

#endif
