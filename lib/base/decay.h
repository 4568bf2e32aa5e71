/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * decay.h - the live profiles' decay, one refresh of it: 7/8 of a count,
 * in integers, as the 2008 kerneltop.  Never prints, never fails.
 */
#ifndef BASE_DECAY_H
#define BASE_DECAY_H

#include <stdint.h>

/* floor(c * 7 / 8), for every c: written as c - ceil(c / 8), which is
   the same, because c * 7 overflows from UINT64_MAX / 7 up. */
static inline uint64_t decay_7_8(uint64_t c)
{
	return c - c / 8 - (c % 8 != 0);
}

#endif
