/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inlines.h - the inline chains of a DWARF file's code: for each
 * compilation unit, once, the tree of its functions and the instances
 * inlined into them with their address ranges; then every address's chain
 * is a walk down that tree.
 *
 * dwarf_getscopes() walks a CU's DIEs from the top for every address it is
 * asked, which costs the size of the CU each time: on a program built
 * with -g whose hot code is heavily inlined, most of a sampler's CPU.
 * Built once per CU, a chain costs a binary search and a few range checks.
 *
 * Private to lib/symbols; never prints, never exits.  The DWARF is
 * untrusted: nesting deeper than INLINES_MAX_DEPTH is not followed, and a
 * CU with more than INLINES_MAX_NODES code DIEs keeps the first ones only.
 */
#ifndef SYMBOLS_INLINES_H
#define SYMBOLS_INLINES_H

#include <elfutils/libdw.h>

#include "base/hashtab.h"
#include "symbols/symbols.h"

#define INLINES_MAX_DEPTH 256
#define INLINES_MAX_NODES (1u << 22)

/* How a function DIE (a subprogram or an inlined instance) is named:
   the caller's rule (linkage name, demangled), strings that live as long
   as the Dwarf. */
typedef const char *(*inlines_name_fn)(void *arg, Dwarf_Die *die);

/* The trees of the CUs asked about so far, of one Dwarf. */
struct inlines {
	struct hashtab cus;		/* of struct inl_cu, by CU offset */
	inlines_name_fn name;
	void *arg;
};

void inlines_init(struct inlines *in, inlines_name_fn name, void *arg);
/* Free every CU's tree; in is empty (and usable) again. */
void inlines_release(struct inlines *in);

/*
 * The inline chain at address a (CU-relative: the DWARF's own address) of
 * cu, into frames[max]: frames[0] the innermost inlined function at
 * file:line (the line table's answer for a), each next one its caller at
 * the call site of the one before, the last the subprogram that holds the
 * code.  Returns the number of frames (0 when no function DIE covers a,
 * or on ENOMEM building the CU's tree: the chain is then unknown, which
 * is no error of the lookup).
 */
unsigned inlines_chain(struct inlines *in, Dwarf_Die *cu, Dwarf_Addr a,
		       const char *file, int line, struct sym_inline *frames,
		       unsigned max);

#endif
