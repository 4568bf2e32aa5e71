/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* maps.c - sorted interval table of a process's mappings. */
#include "config.h"

#include <stddef.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "symbols/dso.h"
#include "symbols/maps.h"

static void map_drop(struct map *mp)
{
	if (mp->dso)
		dso_put(mp->dso);
	mp->dso = NULL;
}

/* The first mapping whose end is above addr. */
static size_t maps_lower(const struct maps *ms, uint64_t addr)
{
	return addr_upper_bound(ms->m, ms->n, sizeof(*ms->m),
				offsetof(struct map, end), addr);
}

int maps_insert(struct maps *ms, const struct map *mp)
{
	size_t i, j;
	struct map nm = *mp;

	/* At most one mapping is split in two: room for it and mp. */
	if (ARRAY_GROW(ms->m, ms->n + 2, ms->alloc) != 0) {
		if (nm.dso)
			dso_put(nm.dso);
		errno = ENOMEM;
		return -1;
	}
	i = maps_lower(ms, nm.start);
	/* A mapping that starts before mp and runs past its end: split. */
	if (i < ms->n && ms->m[i].start < nm.start && ms->m[i].end > nm.end) {
		struct map tail = ms->m[i];

		tail.pgoff += nm.end - tail.start;
		tail.start = nm.end;
		if (tail.dso)
			dso_get(tail.dso);
		ms->m[i].end = nm.start;
		/* [head, nm, tail]: what followed moves up by two */
		memmove(&ms->m[i + 3], &ms->m[i + 1],
			(ms->n - i - 1) * sizeof(*ms->m));
		ms->m[i + 1] = nm;
		ms->m[i + 2] = tail;
		ms->n += 2;
		ms->last = 0;
		return 0;
	}
	if (i < ms->n && ms->m[i].start < nm.start) {
		ms->m[i].end = nm.start;	/* trim its tail */
		i++;
	}
	/* Remove those entirely covered; trim the head of the last one. */
	for (j = i; j < ms->n && ms->m[j].start < nm.end; j++) {
		if (ms->m[j].end <= nm.end) {
			map_drop(&ms->m[j]);
			continue;
		}
		ms->m[j].pgoff += nm.end - ms->m[j].start;
		ms->m[j].start = nm.end;
		break;
	}
	/* Replace [i, j) by nm. */
	if (j == i) {
		memmove(&ms->m[i + 1], &ms->m[i], (ms->n - i) * sizeof(*ms->m));
		ms->n++;
	} else if (j > i + 1) {
		memmove(&ms->m[i + 1], &ms->m[j], (ms->n - j) * sizeof(*ms->m));
		ms->n -= j - i - 1;
	}
	ms->m[i] = nm;
	ms->last = 0;
	return 0;
}

const struct map *maps_find(struct maps *ms, uint64_t addr)
{
	size_t i;

	if (ms->last < ms->n && addr >= ms->m[ms->last].start &&
	    addr < ms->m[ms->last].end)
		return &ms->m[ms->last];
	i = maps_lower(ms, addr);
	if (i < ms->n && ms->m[i].start <= addr) {
		ms->last = i;
		return &ms->m[i];
	}
	return NULL;
}

int maps_copy(struct maps *dst, const struct maps *src)
{
	size_t i;

	if (ARRAY_GROW(dst->m, src->n, dst->alloc) != 0) {
		errno = ENOMEM;
		return -1;
	}
	if (src->n)	/* an empty map may have no array at all */
		memcpy(dst->m, src->m, src->n * sizeof(*src->m));
	dst->n = src->n;
	for (i = 0; i < dst->n; i++)
		if (dst->m[i].dso)
			dso_get(dst->m[i].dso);
	return 0;
}

void maps_release(struct maps *ms)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		map_drop(&ms->m[i]);
	free(ms->m);
	memset(ms, 0, sizeof(*ms));
}
