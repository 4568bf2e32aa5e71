/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hashtab.h - a hash table of caller-owned items: open addressing,
 * linear probing, a power-of-two number of slots kept at most half full.
 *
 * The table stores pointers and their hashes; it never copies, compares
 * or frees an item itself.  The caller owns every item, computes the hash
 * (hash_str(), hash_bytes(), hash_u64()) and says what "equal" means at
 * lookup.  A zeroed struct hashtab (HASHTAB_INIT) is an empty table;
 * hashtab_release() frees the slots, not the items.
 *
 * Never prints, never exits: hashtab_add() is the only call that
 * allocates or fails, and it returns -1 with errno set.
 * Adding or removing items invalidates iteration in progress.
 */
#ifndef BASE_HASHTAB_H
#define BASE_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hashtab_slot {
	void *item;		/* NULL: the slot is empty */
	size_t hash;
};

struct hashtab {
	struct hashtab_slot *slot;	/* mask + 1 slots, or NULL */
	size_t mask, used;
};

#define HASHTAB_INIT { 0 }

/* FNV-1a of the bytes of the string s. */
size_t hash_str(const char *s);
/* FNV-1a of n bytes at p, continued from seed (seed 0 = start afresh):
   hash_bytes(b, nb, hash_bytes(a, na, 0)) hashes a then b. */
size_t hash_bytes(const void *p, size_t n, size_t seed);
/* A well-mixed hash of a number (an address, a pointer's value). */
size_t hash_u64(uint64_t v);

/*
 * The item whose hash is hash and for which eq(item, key) is true, or
 * NULL.  With several such items, any one of them.
 */
void *hashtab_find(const struct hashtab *t, size_t hash,
		   bool (*eq)(const void *item, const void *key),
		   const void *key);

/* Add item (not checked for duplicates).  0, or -1 with errno ENOMEM
   (EINVAL for a NULL item); the table is unchanged on failure. */
int hashtab_add(struct hashtab *t, size_t hash, void *item);

/*
 * Drop every item for which drop(item, arg) is true; drop may free it.
 * drop is called once per item.  Lookups stay valid afterwards (the
 * remaining items are moved where probing finds them); nothing is
 * allocated, so this cannot fail.
 */
void hashtab_remove_if(struct hashtab *t, bool (*drop)(void *item, void *arg),
		       void *arg);

/*
 * Iterate, in no particular order:
 *	size_t i = 0;
 *	while ((item = hashtab_next(t, &i)))
 *		...
 * Returns NULL after the last item.
 */
void *hashtab_next(const struct hashtab *t, size_t *i);

/* How many items the table holds. */
size_t hashtab_count(const struct hashtab *t);

/*
 * item_free() every item, then free the slots: a table that owns its
 * items, at its end.  The table is empty (and usable) again.
 * hashtab_free_items() is the same with free(3): for items that are
 * single malloc'd blocks.
 */
void hashtab_release_items(struct hashtab *t, void (*item_free)(void *item));
void hashtab_free_items(struct hashtab *t);

/* Free the slots, not the items; the table is empty (and usable) again. */
void hashtab_release(struct hashtab *t);

#endif
