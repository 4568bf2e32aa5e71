/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * addrsearch.h - the one binary search of the libraries.
 *
 * partition_point() is the search itself (C++'s std::partition_point):
 * over n elements of which a leading run answers true to a predicate and
 * the rest false, the length of that run.  The address searches below are
 * its common case, an array sorted by a u64 field: mappings (by end),
 * function tables, JIT maps, inline ranges and frame tables (by start),
 * PLT relocations (by slot), CIEs (by offset).  A search of other keys
 * (an int32 table) gives partition_point() a predicate of its own.
 *
 * Header only, inline: the predicate of a search is inlined with it.
 * Never prints, never exits, never allocates.
 */
#ifndef BASE_ADDRSEARCH_H
#define BASE_ADDRSEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The number of leading indexes i in [0, n) for which first(arg, i) is
 * true, where first is true for every index below some point and false
 * from it on.  O(log n) calls of first.
 */
static inline size_t partition_point(size_t n,
				     bool (*first)(const void *arg, size_t i),
				     const void *arg)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (first(arg, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* An array sorted by the uint64_t at key_off of each stride-byte element,
   and the address searched for. */
struct addr_search {
	const void *base;
	size_t stride, key_off;
	uint64_t addr;
};

static inline uint64_t addr_search_key(const struct addr_search *s, size_t i)
{
	uint64_t key;

	memcpy(&key, (const char *)s->base + i * s->stride + s->key_off,
	       sizeof(key));
	return key;
}

static inline bool addr_search_le(const void *arg, size_t i)
{
	const struct addr_search *s = arg;

	return addr_search_key(s, i) <= s->addr;
}

static inline bool addr_search_lt(const void *arg, size_t i)
{
	const struct addr_search *s = arg;

	return addr_search_key(s, i) < s->addr;
}

/*
 * base: n elements of stride bytes, sorted by the uint64_t at key_off.
 * addr_upper_bound(): the index of the first element whose key is > addr
 * (n if none); addr_lower_bound(): of the first whose key is >= addr.
 */
static inline size_t addr_upper_bound(const void *base, size_t n,
				      size_t stride, size_t key_off,
				      uint64_t addr)
{
	struct addr_search s = { base, stride, key_off, addr };

	return partition_point(n, addr_search_le, &s);
}

static inline size_t addr_lower_bound(const void *base, size_t n,
				      size_t stride, size_t key_off,
				      uint64_t addr)
{
	struct addr_search s = { base, stride, key_off, addr };

	return partition_point(n, addr_search_lt, &s);
}

#endif
