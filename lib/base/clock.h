/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clock.h - the time now, the one way the tree reads it: a clock's
 * nanoseconds (CLOCK_MONOTONIC for intervals, CLOCK_REALTIME for
 * dates), or its seconds or milliseconds as a double.  Never prints,
 * never fails (a clock id the kernel refuses reads as 0).
 */
#ifndef BASE_CLOCK_H
#define BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline double clock_s(clockid_t id)
{
	return (double)clock_ns(id) / 1e9;
}

static inline double clock_ms(clockid_t id)
{
	return (double)clock_ns(id) / 1e6;
}

#endif
