/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callgraph.h - --call-graph arguments for tools: parse, or say what is
   wrong and exit 2. */
#ifndef SAMPLING_CLI_CALLGRAPH_H
#define SAMPLING_CLI_CALLGRAPH_H

#include <stdint.h>

#include "profile/feed.h"

/*
 * Parse "fp", "dwarf" or "dwarf,SIZE" (SIZE in bytes, rounded up to a
 * multiple of 8, at most FEED_STACK_MAX) into *mode and *stack_size (0
 * for the default).  On bad input print one line through usage_error()
 * and exit 2.  A build without libunwind refuses dwarf here, with the
 * fix.
 */
void callgraph_parse(const char *arg, enum feed_callgraph *mode,
		     uint32_t *stack_size);

/* "fp", "dwarf" or "none". */
const char *callgraph_name(enum feed_callgraph mode);

#endif
