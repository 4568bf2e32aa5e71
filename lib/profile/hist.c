/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hist.c - (function, DSO) -> count, in lib/base's hash table. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashtab.h"
#include "profile/hist.h"

/* An item of the table: the count and both strings, "sym\0dso\0". */
struct hist_item {
	uint64_t count;
	size_t sym_len;
	char key[];
};

/* What a lookup compares with. */
struct hist_key {
	const char *sym, *dso;
	size_t sym_len;
};

struct hist {
	struct hashtab items;
	uint64_t total;
	struct hist_entry *sorted;
	size_t asorted;
};

struct hist *hist_new(void)
{
	return calloc(1, sizeof(struct hist));
}

void hist_free(struct hist *h)
{
	if (!h)
		return;
	hashtab_free_items(&h->items);
	free(h->sorted);
	free(h);
}

static bool item_eq(const void *item, const void *key)
{
	const struct hist_item *it = item;
	const struct hist_key *k = key;

	return it->sym_len == k->sym_len && strcmp(it->key, k->sym) == 0 &&
	       strcmp(it->key + it->sym_len + 1, k->dso) == 0;
}

int hist_add(struct hist *h, const char *sym, const char *dso,
	     uint64_t weight)
{
	struct hist_key k = { sym, dso, strlen(sym) };
	/* both strings with their terminators: "a","bc" is not "ab","c" */
	size_t hash = hash_bytes(dso, strlen(dso),
				 hash_bytes(sym, k.sym_len + 1, 0));
	struct hist_item *it = hashtab_find(&h->items, hash, item_eq, &k);

	if (!it) {
		size_t ld = strlen(dso);

		it = malloc(sizeof(*it) + k.sym_len + ld + 2);
		if (!it) {
			errno = ENOMEM;
			return -1;
		}
		it->count = 0;
		it->sym_len = k.sym_len;
		memcpy(it->key, sym, k.sym_len + 1);
		memcpy(it->key + k.sym_len + 1, dso, ld + 1);
		if (hashtab_add(&h->items, hash, it) != 0) {
			free(it);
			return -1;
		}
	}
	it->count += weight;
	h->total += weight;
	return 0;
}

uint64_t hist_total(const struct hist *h)
{
	return h->total;
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
	const struct hist_item *it;
	size_t i = 0, k = 0;

	if (ARRAY_GROW(h->sorted, hashtab_count(&h->items) + 1, h->asorted))
		return NULL;
	while ((it = hashtab_next(&h->items, &i)))
		h->sorted[k++] = (struct hist_entry){ it->key,
			it->key + it->sym_len + 1, it->count };
	qsort(h->sorted, k, sizeof(*h->sorted), entry_cmp);
	*n = k;
	return h->sorted;
}
