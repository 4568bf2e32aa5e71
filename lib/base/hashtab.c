/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hashtab.c - open addressing with linear probing, of caller-owned items. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashtab.h"

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull
#define MIN_SLOTS 16

size_t hash_bytes(const void *p, size_t n, size_t seed)
{
	const unsigned char *b = p;
	uint64_t h = seed ? seed : FNV_OFFSET;

	while (n--) {
		h ^= *b++;
		h *= FNV_PRIME;
	}
	return (size_t)h;
}

size_t hash_str(const char *s)
{
	return hash_bytes(s, strlen(s), 0);
}

/* The finaliser of MurmurHash3: every input bit reaches the low bits,
   which are the ones the mask keeps. */
size_t hash_u64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ull;
	v ^= v >> 33;
	return (size_t)v;
}

void *hashtab_find(const struct hashtab *t, size_t hash,
		   bool (*eq)(const void *item, const void *key),
		   const void *key)
{
	size_t i;

	if (!t->slot)
		return NULL;
	for (i = hash & t->mask; t->slot[i].item; i = (i + 1) & t->mask)
		if (t->slot[i].hash == hash && eq(t->slot[i].item, key))
			return t->slot[i].item;
	return NULL;
}

/* Put an item into the first free slot from its home; there is one. */
static void place(struct hashtab_slot *slot, size_t mask, size_t hash,
		  void *item)
{
	size_t i;

	for (i = hash & mask; slot[i].item; i = (i + 1) & mask)
		;
	slot[i].item = item;
	slot[i].hash = hash;
}

static int resize(struct hashtab *t, size_t n)
{
	struct hashtab_slot *ns = calloc(n, sizeof(*ns));
	size_t i;

	if (!ns)
		return -1;
	for (i = 0; t->slot && i <= t->mask; i++)
		if (t->slot[i].item)
			place(ns, n - 1, t->slot[i].hash, t->slot[i].item);
	free(t->slot);
	t->slot = ns;
	t->mask = n - 1;
	return 0;
}

int hashtab_add(struct hashtab *t, size_t hash, void *item)
{
	if (!item) {
		errno = EINVAL;
		return -1;
	}
	if (!t->slot || 2 * (t->used + 1) > t->mask + 1) {
		size_t n = t->slot ? 2 * (t->mask + 1) : MIN_SLOTS;

		if (n == 0 || n > SIZE_MAX / sizeof(*t->slot)) {
			errno = ENOMEM;
			return -1;
		}
		if (resize(t, n) != 0)
			return -1;
	}
	place(t->slot, t->mask, hash, item);
	t->used++;
	return 0;
}

/*
 * Empty the dropped slots, then move every remaining item to the first
 * free slot from its home.  The walk starts after a slot that was empty
 * before any drop: no item's probe run crosses it, so in walk order each
 * item's home comes before its slot, and moving it can only bring it
 * closer to home -- the table is a plain array in that order.
 */
void hashtab_remove_if(struct hashtab *t, bool (*drop)(void *item, void *arg),
		       void *arg)
{
	size_t i, start, k, removed = 0;

	if (!t->slot)
		return;
	for (start = 0; t->slot[start].item; start++)
		;
	for (i = 0; i <= t->mask; i++) {
		if (t->slot[i].item && drop(t->slot[i].item, arg)) {
			t->slot[i].item = NULL;
			removed++;
		}
	}
	if (!removed)
		return;
	t->used -= removed;
	for (k = 1; k <= t->mask; k++) {
		struct hashtab_slot s;

		i = (start + k) & t->mask;
		s = t->slot[i];
		if (!s.item)
			continue;
		t->slot[i].item = NULL;
		place(t->slot, t->mask, s.hash, s.item);
	}
}

void *hashtab_next(const struct hashtab *t, size_t *i)
{
	while (t->slot && *i <= t->mask) {
		void *item = t->slot[(*i)++].item;

		if (item)
			return item;
	}
	return NULL;
}

size_t hashtab_count(const struct hashtab *t)
{
	return t->used;
}

void hashtab_release(struct hashtab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->mask = t->used = 0;
}

void hashtab_release_items(struct hashtab *t, void (*item_free)(void *item))
{
	size_t i = 0;
	void *item;

	while ((item = hashtab_next(t, &i)))
		item_free(item);
	hashtab_release(t);
}

void hashtab_free_items(struct hashtab *t)
{
	hashtab_release_items(t, free);
}
