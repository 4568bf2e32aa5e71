/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hist.c - (function, DSO) -> count, in an open-addressing hash table. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/hist.h"

struct hist_slot {
	char *key;		/* "sym\0dso\0" */
	size_t hash;
	uint64_t count;
};

struct hist {
	struct hist_slot *slot;
	size_t mask, used;
	uint64_t total;
	struct hist_entry *sorted;
};

struct hist *hist_new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->slot = calloc(256, sizeof(*h->slot));
	if (!h->slot) {
		free(h);
		return NULL;
	}
	h->mask = 255;
	return h;
}

void hist_free(struct hist *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i <= h->mask; i++)
		free(h->slot[i].key);
	free(h->slot);
	free(h->sorted);
	free(h);
}

/* FNV-1a over both strings with their terminators. */
static size_t hist_hash(const char *sym, const char *dso)
{
	uint64_t x = 0xcbf29ce484222325ULL;
	const char *p;

	for (p = sym;; p++) {
		x = (x ^ (unsigned char)*p) * 0x100000001b3ULL;
		if (!*p)
			break;
	}
	for (p = dso; *p; p++)
		x = (x ^ (unsigned char)*p) * 0x100000001b3ULL;
	return (size_t)x;
}

static int hist_grow(struct hist *h)
{
	size_t n = 2 * (h->mask + 1), i, j;
	struct hist_slot *ns = calloc(n, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i <= h->mask; i++) {
		if (!h->slot[i].key)
			continue;
		for (j = h->slot[i].hash & (n - 1); ns[j].key; j = (j + 1) & (n - 1))
			;
		ns[j] = h->slot[i];
	}
	free(h->slot);
	h->slot = ns;
	h->mask = n - 1;
	return 0;
}

int hist_add(struct hist *h, const char *sym, const char *dso,
	     uint64_t weight)
{
	size_t hash = hist_hash(sym, dso), j, ls = strlen(sym), ld;
	struct hist_slot *e;

	for (j = hash & h->mask; (e = &h->slot[j])->key; j = (j + 1) & h->mask)
		if (e->hash == hash && strcmp(e->key, sym) == 0 &&
		    strcmp(e->key + ls + 1, dso) == 0)
			goto found;
	if (2 * (h->used + 1) > h->mask + 1) {
		if (hist_grow(h) != 0)
			return -1;
		for (j = hash & h->mask; h->slot[j].key; j = (j + 1) & h->mask)
			;
		e = &h->slot[j];
	}
	ld = strlen(dso);
	e->key = malloc(ls + ld + 2);
	if (!e->key) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(e->key, sym, ls + 1);
	memcpy(e->key + ls + 1, dso, ld + 1);
	e->hash = hash;
	e->count = 0;
	h->used++;
found:
	e->count += weight;
	h->total += weight;
	return 0;
}

uint64_t hist_total(const struct hist *h)
{
	return h->total;
}

size_t hist_count(const struct hist *h)
{
	return h->used;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	c = strcmp(x->sym, y->sym);
	return c ? c : strcmp(x->dso, y->dso);
}

const struct hist_entry *hist_sorted(struct hist *h, size_t *n)
{
	struct hist_entry *e;
	size_t i, k = 0;

	e = realloc(h->sorted, (h->used ? h->used : 1) * sizeof(*e));
	if (!e)
		return NULL;
	h->sorted = e;
	for (i = 0; i <= h->mask; i++) {
		const char *key = h->slot[i].key;

		if (key)
			e[k++] = (struct hist_entry){ key,
				key + strlen(key) + 1, h->slot[i].count };
	}
	qsort(e, k, sizeof(*e), entry_cmp);
	*n = k;
	return e;
}
