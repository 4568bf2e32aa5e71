/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inlines.c - per-CU trees of functions and their inlined instances, built
 * once, for the inline chain of any address (see inlines.h).
 */
#include "config.h"

#include <dwarf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "symbols/inlines.h"

#define INL_NONE UINT32_MAX
/* Top-level ranges looked at below the binary search's answer, for the
   rare DWARF whose functions overlap. */
#define INL_OVERLAP_SCAN 16

struct inl_range {
	uint64_t lo, hi;	/* [lo, hi) */
	uint32_t node;
};

/* A subprogram or an inlined instance that has code. */
struct inl_node {
	Dwarf_Off die;		/* its DIE, for the name and call site */
	const char *func;	/* filled at first use */
	const char *call_file;	/* inlined: where it was inlined */
	int call_line;
	uint32_t parent;	/* the enclosing function node, or INL_NONE */
	uint32_t child, next;	/* its first inner node; its next sibling */
	uint32_t range, nrange;	/* its ranges in inl_cu.range */
	bool inlined;		/* DW_TAG_inlined_subroutine */
	bool named;		/* func and the call site are filled */
};

struct inl_cu {
	Dwarf_Off off;		/* the CU DIE's offset: the key */
	Dwarf *dbg;
	struct inl_node *node;
	size_t nnode, anode;
	struct inl_range *range;	/* every node's, grouped per node */
	size_t nrange, arange;
	struct inl_range *top;	/* the outermost nodes', sorted by lo */
	size_t ntop;
};

static bool cu_eq(const void *item, const void *key)
{
	return ((const struct inl_cu *)item)->off == *(const Dwarf_Off *)key;
}

void inlines_init(struct inlines *in, inlines_name_fn name, void *arg)
{
	memset(in, 0, sizeof(*in));
	in->name = name;
	in->arg = arg;
}

static void cu_free(void *item)
{
	struct inl_cu *c = item;

	free(c->node);
	free(c->range);
	free(c->top);
	free(c);
}

void inlines_release(struct inlines *in)
{
	hashtab_release_items(&in->cus, cu_free);
}

/* A node for die under parent when it has code; INL_NONE when it has
   none (a declaration, an abstract instance) or on ENOMEM (errno). */
static uint32_t node_add(struct inl_cu *c, Dwarf_Die *die, uint32_t parent,
			 bool inlined)
{
	Dwarf_Addr base, lo, hi;
	size_t first = c->nrange;
	ptrdiff_t off = 0;
	struct inl_node *n;
	uint32_t id;

	errno = 0;
	if (c->nnode >= INLINES_MAX_NODES)
		return INL_NONE;
	id = (uint32_t)c->nnode;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		if (ARRAY_GROW(c->range, c->nrange + 1, c->arange) != 0)
			goto nomem;
		c->range[c->nrange++] = (struct inl_range){ lo, hi, id };
	}
	if (c->nrange == first)
		return INL_NONE;
	if (ARRAY_GROW(c->node, c->nnode + 1, c->anode) != 0)
		goto nomem;
	n = &c->node[c->nnode++];
	*n = (struct inl_node){
		.die = dwarf_dieoffset(die), .parent = parent,
		.child = INL_NONE, .next = INL_NONE,
		.range = (uint32_t)first,
		.nrange = (uint32_t)(c->nrange - first), .inlined = inlined };
	/* prepended: the order of siblings does not matter to a lookup */
	if (parent != INL_NONE) {
		n->next = c->node[parent].child;
		c->node[parent].child = id;
	}
	return id;
nomem:
	c->nrange = first;
	errno = ENOMEM;
	return INL_NONE;
}

/* Whether DIEs of tag may hold code DIEs below them. */
static bool holds_code(int tag)
{
	switch (tag) {
	case DW_TAG_lexical_block:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		return true;
	default:
		return false;
	}
}

/* Walk the CU's DIEs once, depth first, without recursion. */
static int cu_build(struct inl_cu *c, Dwarf_Die *cu)
{
	struct {
		Dwarf_Die die;
		uint32_t code;	/* the innermost function node around */
	} *st;
	unsigned depth = 1;
	int rc = 0;

	st = malloc(INLINES_MAX_DEPTH * sizeof(*st));
	if (!st)
		return -1;
	st[0].die = *cu;
	st[0].code = INL_NONE;
	if (dwarf_child(cu, &st[1].die) != 0)
		depth = 0;
	while (depth > 0) {
		Dwarf_Die *die = &st[depth].die, next;
		int tag = dwarf_tag(die);
		uint32_t code = st[depth - 1].code, id;
		bool down = holds_code(tag);

		if (tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine) {
			id = node_add(c, die, code,
				      tag == DW_TAG_inlined_subroutine);
			if (id == INL_NONE && errno == ENOMEM) {
				rc = -1;
				break;
			}
			/* no code, no code inside (an abstract instance) */
			down = id != INL_NONE;
			if (down)
				code = id;
		}
		st[depth].code = code;
		if (down && depth + 1 < INLINES_MAX_DEPTH &&
		    dwarf_child(die, &st[depth + 1].die) == 0) {
			depth++;
			continue;
		}
		/* the next sibling, here or up the stack */
		while (depth > 0) {
			if (dwarf_siblingof(&st[depth].die, &next) == 0) {
				st[depth].die = next;
				break;
			}
			depth--;
		}
	}
	free(st);
	return rc;
}

static int cmp_range(const void *a, const void *b)
{
	const struct inl_range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The outermost nodes' ranges, sorted, for the first step of a lookup. */
static int cu_index(struct inl_cu *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nrange; i++)
		n += c->node[c->range[i].node].parent == INL_NONE;
	c->top = malloc((n ? n : 1) * sizeof(*c->top));
	if (!c->top)
		return -1;
	for (i = 0; i < c->nrange; i++)
		if (c->node[c->range[i].node].parent == INL_NONE)
			c->top[c->ntop++] = c->range[i];
	qsort(c->top, c->ntop, sizeof(*c->top), cmp_range);
	return 0;
}

static struct inl_cu *cu_get(struct inlines *in, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	size_t h = hash_u64(off);
	struct inl_cu *c = hashtab_find(&in->cus, h, cu_eq, &off);

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->off = off;
	c->dbg = dwarf_cu_getdwarf(cu->cu);
	if (!c->dbg || cu_build(c, cu) != 0 || cu_index(c) != 0 ||
	    hashtab_add(&in->cus, h, c) != 0) {
		cu_free(c);
		return NULL;
	}
	return c;
}

static bool node_has(const struct inl_cu *c, const struct inl_node *n,
		     Dwarf_Addr a)
{
	uint32_t i;

	for (i = 0; i < n->nrange; i++)
		if (a >= c->range[n->range + i].lo &&
		    a < c->range[n->range + i].hi)
			return true;
	return false;
}

/* The innermost node whose code holds a, or INL_NONE. */
static uint32_t cu_find(const struct inl_cu *c, Dwarf_Addr a)
{
	/* the first range starting past a */
	size_t lo = addr_upper_bound(c->top, c->ntop, sizeof(*c->top),
				     offsetof(struct inl_range, lo), a), i;
	uint32_t at = INL_NONE, k;

	for (i = lo; i-- > 0 && lo - i <= INL_OVERLAP_SCAN;)
		if (a < c->top[i].hi) {
			at = c->top[i].node;
			break;
		}
	while (at != INL_NONE) {
		for (k = c->node[at].child; k != INL_NONE; k = c->node[k].next)
			if (node_has(c, &c->node[k], a))
				break;
		if (k == INL_NONE)
			break;
		at = k;
	}
	return at;
}

static void call_site(struct inl_node *n, Dwarf_Die *die, Dwarf_Die *cu)
{
	Dwarf_Attribute mem;
	Dwarf_Word fileidx = 0, l = 0;
	Dwarf_Files *files;
	size_t nfiles;

	/* a corrupt file's line past INT_MAX is no line, not a negative one */
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &mem), &l) == 0 &&
	    l <= INT_MAX)
		n->call_line = (int)l;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &mem),
			    &fileidx) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && fileidx < nfiles)
		n->call_file = dwarf_filesrc(files, fileidx, NULL, NULL);
}

/* Fill the node's name and call site from its DIE, once. */
static void node_name(struct inlines *in, struct inl_cu *c,
		      struct inl_node *n, Dwarf_Die *cu)
{
	Dwarf_Die die;

	if (n->named)
		return;
	n->named = true;
	if (!dwarf_offdie(c->dbg, n->die, &die))
		return;
	n->func = in->name(in->arg, &die);
	if (n->inlined)
		call_site(n, &die, cu);
}

unsigned inlines_chain(struct inlines *in, Dwarf_Die *cu, Dwarf_Addr a,
		       const char *file, int line, struct sym_inline *frames,
		       unsigned max)
{
	struct inl_cu *c = cu_get(in, cu);
	unsigned n = 0;
	uint32_t at;

	if (!c)
		return 0;
	for (at = cu_find(c, a); at != INL_NONE && n < max;
	     at = c->node[at].parent) {
		struct inl_node *x = &c->node[at];

		node_name(in, c, x, cu);
		frames[n++] = (struct sym_inline){ x->func, file, line };
		if (!x->inlined)
			break;
		/* the caller's position is this instance's call site */
		file = x->call_file;
		line = x->call_line;
	}
	return n;
}
