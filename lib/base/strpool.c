/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* strpool.c - interned strings in a hash table of copies. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/strpool.h"

static bool str_eq(const void *item, const void *key)
{
	return strcmp(item, key) == 0;
}

const char *strpool_find(const struct strpool *p, const char *s)
{
	return hashtab_find(&p->tab, hash_str(s), str_eq, s);
}

const char *strpool_intern(struct strpool *p, const char *s)
{
	size_t h = hash_str(s);
	char *c = hashtab_find(&p->tab, h, str_eq, s);

	if (c)
		return c;
	c = strdup(s);
	if (!c)
		return NULL;
	if (hashtab_add(&p->tab, h, c) != 0) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

size_t strpool_count(const struct strpool *p)
{
	return hashtab_count(&p->tab);
}

void strpool_release(struct strpool *p)
{
	hashtab_free_items(&p->tab);
}
