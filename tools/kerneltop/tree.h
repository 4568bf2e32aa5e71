/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.h - which nodes of a tree are open (tree.c): the one tree state of
 * kerneltop's screens, under the call tree and --hierarchy alike (as
 * tmux's choosers share mode-tree.c).
 *
 * A screen takes its tree afresh at each refresh; what stays is a
 * struct tree, which names a node by a 64-bit hash of its path from the
 * root (tree_path()), so that a node keeps its state while the nodes
 * around it come and go.  Two paths of one hash share a state: a chance
 * of 2^-64 a pair, taken.
 *
 * The state is a mode, every node open or every node closed, and the
 * nodes opened or closed against it one by one.  tree_open_all() and
 * tree_close_all() set the mode and forget the rest, so that a node
 * that appears later follows the mode.  A zeroed struct tree (TREE_INIT)
 * has every node closed; tree_release() frees what it holds.  Nothing
 * here fails: memory comes from the tools' x-allocators.
 */
#ifndef KERNELTOP_TREE_H
#define KERNELTOP_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tree {
	bool all_open;		/* the mode */
	uint64_t *flip;		/* the paths against it, a key press
				   each: a few, searched in turn */
	size_t nflip, aflip;
};

#define TREE_INIT { 0 }

/* The path of the child named by len bytes at key under the node at
   path parent; a root's parent is any number the caller picks (0). */
uint64_t tree_path(uint64_t parent, const void *key, size_t len);

/* Whether the node at path is open. */
bool tree_is_open(const struct tree *t, uint64_t path);
/* Open or close the node at path, or turn it over. */
void tree_set_open(struct tree *t, uint64_t path, bool open);
void tree_toggle(struct tree *t, uint64_t path);
/* Every node open (closed), those that appear later too. */
void tree_open_all(struct tree *t);
void tree_close_all(struct tree *t);
/* Free what t holds: every node closed again. */
void tree_release(struct tree *t);

#endif
