/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fnthreads.c - the distinct threads of each function (fnthreads.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashtab.h"
#include "profile/fnthreads.h"

struct fn {
	const char *sym, *dso;		/* in the same block, after tids */
	pid_t last;			/* the latest sample's thread */
	unsigned n;			/* tids[0..n), ascending */
	bool more;			/* a thread past FNTHREADS_MAX */
	pid_t tids[FNTHREADS_MAX];
};

struct fnthreads {
	struct hashtab fns;		/* of struct fn */
};

struct fn_key {
	const char *sym, *dso;
};

static size_t fn_hash(const char *sym, const char *dso)
{
	return hash_bytes(dso, strlen(dso), hash_str(sym));
}

static bool fn_eq(const void *item, const void *key)
{
	const struct fn *f = item;
	const struct fn_key *k = key;

	return !strcmp(f->sym, k->sym) && !strcmp(f->dso, k->dso);
}

struct fnthreads *fnthreads_new(void)
{
	return calloc(1, sizeof(struct fnthreads));
}

void fnthreads_free(struct fnthreads *t)
{
	if (!t)
		return;
	hashtab_free_items(&t->fns);
	free(t);
}

static struct fn *fn_get(struct fnthreads *t, const char *sym,
			 const char *dso, size_t hash)
{
	size_t ls = strlen(sym) + 1, ld = strlen(dso) + 1;
	struct fn *f;
	char *s;

	f = hashtab_find(&t->fns, hash, fn_eq, &(struct fn_key){ sym, dso });
	if (f)
		return f;
	f = calloc(1, sizeof(*f) + ls + ld);
	if (!f)
		return NULL;
	s = (char *)(f + 1);
	f->sym = memcpy(s, sym, ls);
	f->dso = memcpy(s + ls, dso, ld);
	f->last = -1;
	if (hashtab_add(&t->fns, hash, f) != 0) {
		free(f);
		return NULL;
	}
	return f;
}

int fnthreads_add(struct fnthreads *t, const char *sym, const char *dso,
		  pid_t tid)
{
	struct fn *f;
	size_t lo = 0, hi;

	sym = sym ? sym : "[unknown]";
	dso = dso ? dso : "[unknown]";
	f = fn_get(t, sym, dso, fn_hash(sym, dso));
	if (!f)
		return -1;
	if (tid == f->last)
		return 0;
	f->last = tid;
	for (hi = f->n; lo < hi;) {	/* the first id >= tid */
		size_t mid = lo + (hi - lo) / 2;

		if (f->tids[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->n && f->tids[lo] == tid)
		return 0;
	if (f->n == FNTHREADS_MAX) {
		f->more = true;
		return 0;
	}
	memmove(&f->tids[lo + 1], &f->tids[lo], (f->n - lo) * sizeof(pid_t));
	f->tids[lo] = tid;
	f->n++;
	return 0;
}

unsigned fnthreads_count(const struct fnthreads *t, const char *sym,
			 const char *dso)
{
	const struct fn *f;

	sym = sym ? sym : "[unknown]";
	dso = dso ? dso : "[unknown]";
	f = hashtab_find(&t->fns, fn_hash(sym, dso), fn_eq,
			 &(struct fn_key){ sym, dso });
	return !f ? 0 : f->more ? FNTHREADS_MAX + 1 : f->n;
}
