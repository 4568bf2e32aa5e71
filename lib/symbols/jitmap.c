/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* jitmap.c - read perf-PID.map files, again as they grow. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbols/jitmap.h"

struct jit_sym {
	uint64_t start, size;
	char *name;
};

struct jitmap {
	char *path;
	struct jit_sym *sym;
	size_t n;
	off_t size_read;	/* file size when last read; -1 never read */
	int exists;
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
	jm->size_read = -1;
	return jm;
}

static void jitmap_release(struct jitmap *jm)
{
	size_t i;

	for (i = 0; i < jm->n; i++)
		free(jm->sym[i].name);
	free(jm->sym);
	jm->sym = NULL;
	jm->n = 0;
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

/* Read the whole file again; a JIT may rewrite as well as append. */
static int jitmap_read(struct jitmap *jm, off_t size)
{
	FILE *f = fopen(jm->path, "re");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	struct jit_sym *ns;

	if (!f)
		return -1;
	jitmap_release(jm);
	while (getline(&line, &cap, f) > 0) {
		uint64_t start, len;
		int pos = 0;
		char *name;

		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &len,
			   &pos) < 2 || pos == 0)
			continue;
		name = line + pos;
		name[strcspn(name, "\n")] = '\0';
		if (jm->n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			ns = realloc(jm->sym, alloc * sizeof(*ns));
			if (!ns)
				break;
			jm->sym = ns;
		}
		jm->sym[jm->n].name = strdup(name);
		if (!jm->sym[jm->n].name)
			break;
		jm->sym[jm->n].start = start;
		jm->sym[jm->n].size = len;
		jm->n++;
	}
	free(line);
	fclose(f);
	qsort(jm->sym, jm->n, sizeof(*jm->sym), jit_cmp);
	jm->size_read = size;
	return 0;
}

static const struct jit_sym *jitmap_find(const struct jitmap *jm,
					 uint64_t addr)
{
	size_t lo = 0, hi = jm->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (jm->sym[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
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
		if (stat(jm->path, &st) != 0) {
			jm->exists = 0;
			return NULL;
		}
		jm->exists = 1;
		if (st.st_size == jm->size_read)
			return NULL;
		if (jitmap_read(jm, st.st_size) != 0)
			return NULL;
		js = jitmap_find(jm, addr);
		if (!js)
			return NULL;
	}
	*off = addr - js->start;
	return js->name;
}

int jitmap_exists(const struct jitmap *jm)
{
	return jm->exists;
}
