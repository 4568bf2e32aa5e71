/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* jitmap.c - read perf-PID.map files, again as they grow. */
#include "config.h"

#include <stddef.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array.h"
#include "symbols/jitmap.h"
#include "symbols/addrsearch.h"

struct jit_sym {
	uint64_t start, size;
	char *name;
};

/* Longer lines are not a JIT's symbol but garbage: skipped, not stored. */
#define JIT_LINE_MAX 4096

struct jitmap {
	char *path;
	struct jit_sym *sym;
	size_t n, alloc;
	off_t consumed;		/* bytes of whole lines parsed */
	off_t size_seen;	/* file size when last read; -1 never read */
	bool skipping;		/* inside an overlong line */
	dev_t dev;		/* the file read, to see it replaced */
	ino_t ino;
};

struct jitmap *jitmap_new(const char *path)
{
	struct jitmap *jm = calloc(1, sizeof(*jm));

	if (!jm)
		return NULL;
	jm->path = strdup(path);
	if (!jm->path) {
		free(jm);
		return NULL;
	}
	jm->size_seen = -1;
	return jm;
}

static void jitmap_release(struct jitmap *jm)
{
	size_t i;

	for (i = 0; i < jm->n; i++)
		free(jm->sym[i].name);
	free(jm->sym);
	jm->sym = NULL;
	jm->n = jm->alloc = 0;
	jm->consumed = 0;
	jm->skipping = false;
}

void jitmap_free(struct jitmap *jm)
{
	if (!jm)
		return;
	jitmap_release(jm);
	free(jm->path);
	free(jm);
}

static int jit_cmp(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void jitmap_parse(struct jitmap *jm, char *line)
{
	uint64_t start, len;
	int pos = 0;
	char *name;

	if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &len,
		   &pos) < 2 || pos == 0)
		return;
	name = line + pos;
	name[strcspn(name, "\n")] = '\0';
	if (ARRAY_GROW(jm->sym, jm->n + 1, jm->alloc) != 0)
		return;
	jm->sym[jm->n].name = strdup(name);
	if (!jm->sym[jm->n].name)
		return;
	jm->sym[jm->n].start = start;
	jm->sym[jm->n].size = len;
	jm->n++;
}

/*
 * Parse the whole lines added since the last read.  A JIT may be writing
 * as we read: a last line without its newline is left for the next read,
 * so that a half-written "START SIZE na" never becomes a symbol.
 */
static int jitmap_read(struct jitmap *jm, const struct stat *st)
{
	char line[JIT_LINE_MAX];
	FILE *f;

	if (st->st_dev != jm->dev || st->st_ino != jm->ino ||
	    st->st_size < jm->consumed)
		jitmap_release(jm);	/* rewritten: start over */
	f = fopen(jm->path, "re");
	if (!f)
		return -1;
	if (fseeko(f, jm->consumed, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	jm->dev = st->st_dev;
	jm->ino = st->st_ino;
	while (fgets(line, sizeof(line), f)) {
		/* what fgets() took, a NUL byte included: strlen() would
		   stop at one, and the next read start inside this line */
		off_t end = ftello(f);
		size_t len = end > jm->consumed ? (size_t)(end - jm->consumed) : 0;
		bool whole = len && line[len - 1] == '\n';

		if (!whole && feof(f) && !jm->skipping)
			break;		/* being written: next time */
		jm->consumed += (off_t)len;
		if (!jm->skipping && whole)
			jitmap_parse(jm, line);
		jm->skipping = !whole;
	}
	fclose(f);
	if (jm->n > 1)	/* a map with no symbol yet has no array */
		qsort(jm->sym, jm->n, sizeof(*jm->sym), jit_cmp);
	jm->size_seen = st->st_size;
	return 0;
}

static const struct jit_sym *jitmap_find(const struct jitmap *jm,
					 uint64_t addr)
{
	size_t lo = addr_upper_bound(jm->sym, jm->n, sizeof(*jm->sym),
				     offsetof(struct jit_sym, start), addr);

	/* Entries may overlap when code was regenerated: newest is later in
	   the file, but we keep it simple and take the nearest start. */
	if (lo == 0)
		return NULL;
	lo--;
	if (addr - jm->sym[lo].start < jm->sym[lo].size)
		return &jm->sym[lo];
	return NULL;
}

const char *jitmap_lookup(struct jitmap *jm, uint64_t addr, uint64_t *off)
{
	const struct jit_sym *js = jitmap_find(jm, addr);
	struct stat st;

	if (!js) {
		if (stat(jm->path, &st) != 0)
			return NULL;
		if (st.st_size == jm->size_seen && st.st_ino == jm->ino &&
		    st.st_dev == jm->dev)
			return NULL;
		if (jitmap_read(jm, &st) != 0)
			return NULL;
		js = jitmap_find(jm, addr);
		if (!js)
			return NULL;
	}
	*off = addr - js->start;
	return js->name;
}
