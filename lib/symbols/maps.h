/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* maps.h - one process's executable mappings, sorted, without overlaps.
   Private to lib/symbols. */
#ifndef SYMBOLS_MAPS_H
#define SYMBOLS_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct dso;

enum map_kind {
	MAPK_FILE,	/* dso is the file */
	MAPK_ANON,	/* anonymous executable memory: JIT code */
	MAPK_VDSO,	/* dso is the session's vDSO image */
};

struct map {
	uint64_t start, end, pgoff;	/* [start, end) */
	struct dso *dso;		/* a reference held by the map */
	enum map_kind kind;
};

/* Zero-initialise before use. */
struct maps {
	struct map *m;
	size_t n, alloc;
	size_t last;			/* index of the last hit */
};

/*
 * Add mp (taking over the reference mp->dso holds), cutting away whatever
 * part of the existing mappings it overlaps.  Returns 0, or -1 with errno
 * ENOMEM (mp's reference is then dropped).
 */
int maps_insert(struct maps *ms, const struct map *mp);

/* The mapping that holds addr, or NULL. */
const struct map *maps_find(struct maps *ms, uint64_t addr);

/* dst (empty) becomes a copy of src, with references of its own. */
int maps_copy(struct maps *dst, const struct maps *src);

/* Drop every mapping and the storage; ms is then empty and reusable. */
void maps_release(struct maps *ms);

#endif
