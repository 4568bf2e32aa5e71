/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.c - the open nodes of a tree kept across refreshes: a mode and
 * the paths opened or closed against it (tree.h).
 */
#include "config.h"

#include <stdlib.h>

#include "base/array.h"
#include "base/hashtab.h"
#include "tree.h"
#include "util/xmalloc.h"

uint64_t tree_path(uint64_t parent, const void *key, size_t len)
{
	/* + 1: a seed of 0 would start afresh, forgetting the parent */
	return hash_bytes(key, len, (size_t)parent + 1);
}

static size_t flip_find(const struct tree *t, uint64_t path)
{
	size_t i;

	for (i = 0; i < t->nflip && t->flip[i] != path; i++)
		;
	return i;
}

bool tree_is_open(const struct tree *t, uint64_t path)
{
	return t->all_open != (flip_find(t, path) < t->nflip);
}

void tree_toggle(struct tree *t, uint64_t path)
{
	size_t i = flip_find(t, path);

	if (i < t->nflip) {
		t->flip[i] = t->flip[--t->nflip];
		return;
	}
	if (ARRAY_GROW(t->flip, t->nflip + 1, t->aflip) != 0)
		die_nomem();
	t->flip[t->nflip++] = path;
}

void tree_set_open(struct tree *t, uint64_t path, bool open)
{
	if (tree_is_open(t, path) != open)
		tree_toggle(t, path);
}

static void tree_all(struct tree *t, bool open)
{
	t->all_open = open;
	t->nflip = 0;
}

void tree_open_all(struct tree *t)
{
	tree_all(t, true);
}

void tree_close_all(struct tree *t)
{
	tree_all(t, false);
}

void tree_release(struct tree *t)
{
	free(t->flip);
	*t = (struct tree)TREE_INIT;
}
