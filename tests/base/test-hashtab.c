/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-hashtab.c - the hash table against a plain array of expectations:
   add, find, remove_if (probing survives), iterate, release. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashtab.h"
#include "../check.h"

/* FNV-1a test vectors (64-bit): the hash is the published one. */
static const struct {
	const char *s;
	uint64_t h;
} fnv[] = {
	{ "", 0xcbf29ce484222325ull },
	{ "a", 0xaf63dc4c8601ec8cull },
	{ "foobar", 0x85944171f73967e8ull },
};

static void test_fnv(void)
{
	for (size_t i = 0; i < sizeof(fnv) / sizeof(fnv[0]); i++) {
		CHECK((uint64_t)hash_str(fnv[i].s) == fnv[i].h,
		      "hash_str(\"%s\")", fnv[i].s);
	}
	/* continuing from a seed is hashing the concatenation */
	CHECK(hash_bytes("bar", 3, hash_bytes("foo", 3, 0)) == hash_str("foobar"),
	      "hash_bytes chains");
	/* page-aligned addresses still spread over the low bits */
	{
		bool seen[256] = { false };
		int distinct = 0;

		for (uint64_t a = 0; a < 256; a++) {
			size_t b = hash_u64(0x7f0000000000ull + (a << 12)) & 255;

			distinct += !seen[b];
			seen[b] = true;
		}
		CHECK(distinct > 128, "hash_u64: %d of 256 low bytes", distinct);
	}
}

struct item {
	char key[16];
	int val;
	bool dropped;
};

static bool item_eq(const void *item, const void *key)
{
	return strcmp(((const struct item *)item)->key, key) == 0;
}

/* A bad hash, so that every probe run is long and wraps. */
static size_t weak_hash(const char *key)
{
	return hash_str(key) & 3;
}

static bool drop_odd(void *item, void *arg)
{
	struct item *it = item;

	(*(int *)arg)++;
	it->dropped = it->val % 2;
	return it->dropped;
}

static void test_table(size_t (*hash)(const char *), const char *what)
{
	enum { N = 1000 };
	static struct item items[N];
	struct hashtab t = HASHTAB_INIT;
	int calls = 0, seen = 0;
	size_t i, it;
	struct item *p;

	CHECK(hashtab_find(&t, 0, item_eq, "x") == NULL, "%s: empty find", what);
	CHECK(hashtab_next(&t, &(size_t){ 0 }) == NULL, "%s: empty next", what);
	for (i = 0; i < N; i++) {
		snprintf(items[i].key, sizeof(items[i].key), "k%zu", i);
		items[i].val = (int)i;
		items[i].dropped = false;
		CHECK(hashtab_add(&t, hash(items[i].key), &items[i]) == 0,
		      "%s: add %zu", what, i);
	}
	CHECK(hashtab_count(&t) == N, "%s: count %zu", what, hashtab_count(&t));
	for (i = 0; i < N; i++) {
		p = hashtab_find(&t, hash(items[i].key), item_eq, items[i].key);
		CHECK(p == &items[i], "%s: find %s", what, items[i].key);
	}
	CHECK(hashtab_find(&t, hash("k1000"), item_eq, "k1000") == NULL,
	      "%s: absent key", what);

	hashtab_remove_if(&t, drop_odd, &calls);
	CHECK(calls == N, "%s: drop called %d times", what, calls);
	CHECK(hashtab_count(&t) == N / 2, "%s: count after remove %zu", what,
	      hashtab_count(&t));
	for (i = 0; i < N; i++) {
		p = hashtab_find(&t, hash(items[i].key), item_eq, items[i].key);
		CHECK(p == (items[i].dropped ? NULL : &items[i]),
		      "%s: find %s after remove", what, items[i].key);
	}
	for (it = 0; (p = hashtab_next(&t, &it)); seen++)
		CHECK(!p->dropped, "%s: iteration met a dropped item", what);
	CHECK(seen == N / 2, "%s: iterated %d", what, seen);

	hashtab_release(&t);
	CHECK(hashtab_count(&t) == 0 && t.slot == NULL, "%s: released", what);
	CHECK(hashtab_add(&t, 1, &items[0]) == 0, "%s: reusable", what);
	hashtab_release(&t);
}

static void test_null_item(void)
{
	struct hashtab t = HASHTAB_INIT;

	CHECK(hashtab_add(&t, 1, NULL) == -1, "NULL item refused");
	hashtab_release(&t);
}

/* hashtab_release_items(): each item once to its free function, the
   table empty and usable after. */
static unsigned freed[100];

static void count_free(void *item)
{
	freed[*(unsigned *)item]++;
	free(item);
}

static void test_release_items(void)
{
	struct hashtab t = HASHTAB_INIT;
	unsigned once = 0;

	for (unsigned i = 0; i < 100; i++) {
		unsigned *u = malloc(sizeof(*u));

		if (!u)
			return;
		*u = i;
		CHECK(hashtab_add(&t, i % 7, u) == 0, "add %u", i);
	}
	hashtab_release_items(&t, count_free);
	for (unsigned i = 0; i < 100; i++)
		once += freed[i] == 1;
	CHECK(once == 100, "%u of 100 items freed once", once);
	CHECK(hashtab_count(&t) == 0, "empty after: %zu", hashtab_count(&t));
	CHECK(hashtab_add(&t, 1, &once) == 0 && hashtab_count(&t) == 1,
	      "usable after");
	hashtab_release(&t);
}

int main(void)
{
	test_fnv();
	test_release_items();
	test_table(hash_str, "fnv");
	test_table(weak_hash, "colliding");
	test_null_item();
	return check_done();
}
