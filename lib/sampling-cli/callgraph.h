/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callgraph.h - --call-graph arguments for tools: parse, or say what is
   wrong and exit 2. */
#ifndef SAMPLING_CLI_CALLGRAPH_H
#define SAMPLING_CLI_CALLGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/feed.h"

/* How chains are printed under each entry (perf's print_type). */
enum callgraph_print_type {
	CG_PRINT_GRAPH,		/* a tree, shares of all samples */
	CG_PRINT_FRACTAL,	/* a tree, shares of the parent */
	CG_PRINT_FLAT,		/* each chain whole, one frame a line */
	CG_PRINT_FOLDED,	/* each chain on one line, ';'-joined */
	CG_PRINT_NONE,		/* none (and no call graph: perf's "none") */
};

/* The printing half of perf's --call-graph (perf's default:
   graph,0.5,caller). */
struct callgraph_print {
	enum callgraph_print_type type;
	double threshold;	/* percent: hide branches under it */
	unsigned limit;		/* branches per level at most, 0 all */
	bool callee;		/* callee order (leaf first), else caller */
	bool order_set;		/* the order was given (else --no-children
				   prints callee order, as perf) */
	bool given;		/* any printing part was given */
};

#define CALLGRAPH_PRINT_DEFAULT \
	((struct callgraph_print){ .type = CG_PRINT_GRAPH, .threshold = 0.5 })

/*
 * Parse perf's --call-graph: "record_mode[,record_size],print_type,
 * threshold[,print_limit],order,sort_key[,branch]", every part optional
 * and in any order, as perf 6.1 takes it: record_mode fp, dwarf or lbr
 * (lbr: frame pointers, said on stderr); record_size after dwarf, in
 * bytes, rounded up to a multiple of 8, at most FEED_STACK_MAX;
 * print_type graph, flat, fractal, folded or none (none: no call
 * graph); then a number is the threshold, a second one the limit;
 * order caller or callee; sort_key function or address (function only
 * here), and branch (no effect here).  Words may be cut short as perf
 * allows ("cal" is caller).  Into *mode, *stack_size (0 for the
 * default) and, when print is not NULL, *print (defaults for the parts
 * not given).  With print NULL, printing parts are accepted and said
 * to have no effect.  On bad input print one line naming the part
 * through usage_error() and exit 2.  A build without libunwind refuses
 * dwarf here, with the fix.
 */
void callgraph_parse_full(const char *arg, enum feed_callgraph *mode,
			  uint32_t *stack_size, struct callgraph_print *print);

/* callgraph_parse_full() for a tool that prints no call graph. */
void callgraph_parse(const char *arg, enum feed_callgraph *mode,
		     uint32_t *stack_size);

/* "fp", "dwarf" or "none". */
const char *callgraph_name(enum feed_callgraph mode);

#endif
