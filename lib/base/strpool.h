/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * strpool.h - interned strings: each distinct string copied once, so
 * that equal strings are equal pointers and a caller's buffer may die
 * after the call.  A struct hashtab of the copies (hashtab.h).
 *
 * A zeroed pool (STRPOOL_INIT) is empty.  Every string handed out lives
 * until strpool_release().  Never prints, never exits: strpool_intern()
 * returns NULL with errno ENOMEM.
 */
#ifndef BASE_STRPOOL_H
#define BASE_STRPOOL_H

#include "base/hashtab.h"

struct strpool {
	struct hashtab tab;	/* of char *, the copies */
};

#define STRPOOL_INIT { HASHTAB_INIT }

/* The pool's copy of s, made on first sight; NULL with errno ENOMEM. */
const char *strpool_intern(struct strpool *p, const char *s);

/* The pool's copy of s, or NULL when s was never interned. */
const char *strpool_find(const struct strpool *p, const char *s);

/* How many distinct strings the pool holds. */
size_t strpool_count(const struct strpool *p);

/* Free every copy; the pool is empty (and usable) again. */
void strpool_release(struct strpool *p);

#endif
