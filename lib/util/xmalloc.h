/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xmalloc.h - allocators for tools: they never return NULL, they die. */
#ifndef UTIL_XMALLOC_H
#define UTIL_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc for arrays: nmemb * size, checked for overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* Die: "out of memory", with the fix when 'ulimit -v' is what ran out. */
void die_nomem(void) __attribute__((noreturn));
/* asprintf that dies on failure; returns the string the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
