/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * addrsearch.h - the one binary search of lib/symbols: in an array sorted
 * by a u64 address field, how many leading elements have that field <= addr.
 * Mappings (by end), function tables and JIT maps (by start) all use it.
 */
#ifndef SYMBOLS_ADDRSEARCH_H
#define SYMBOLS_ADDRSEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * base: n elements of stride bytes, sorted by the uint64_t at key_off.
 * Returns the index of the first element whose key is > addr (n if none).
 */
static inline size_t addr_upper_bound(const void *base, size_t n,
				      size_t stride, size_t key_off,
				      uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t key;

		memcpy(&key, (const char *)base + mid * stride + key_off,
		       sizeof(key));
		if (key <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
