/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callgraph.c - one parser of --call-graph for every tool that samples. */
#include "config.h"

#include <string.h>

#include "sampling-cli/callgraph.h"
#include "util/die.h"
#include "util/parse.h"

static const struct {
	const char *name;
	enum feed_callgraph mode;
	int takes_size;
} modes[] = {
	{ "fp", FEED_CG_FP, 0 },
	{ "dwarf", FEED_CG_DWARF, 1 },
};

const char *callgraph_name(enum feed_callgraph mode)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i].mode == mode)
			return modes[i].name;
	return "none";
}

void callgraph_parse(const char *arg, enum feed_callgraph *mode,
		     uint32_t *stack_size)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg), i;
	uint64_t size;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strlen(modes[i].name) == len &&
		    strncmp(modes[i].name, arg, len) == 0)
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		usage_error("unknown call-graph mode '%.*s' (use fp, or "
			    "dwarf[,SIZE])", (int)len, arg);
	*mode = modes[i].mode;
	*stack_size = 0;
	if (*mode == FEED_CG_DWARF && !unwind_available())
		usage_error("--call-graph dwarf: built without libunwind: "
			    "dwarf unwinding unavailable (use --call-graph "
			    "fp, or rebuild with libunwind-dev)");
	if (!comma)
		return;
	if (!modes[i].takes_size)
		usage_error("--call-graph %s takes no size (only dwarf,SIZE "
			    "copies the stack)", modes[i].name);
	if (!parse_u64(comma + 1, 0, UINT32_MAX, &size))
		usage_error("--call-graph %s: '%s' is not a size in bytes",
			    arg, comma + 1);
	if (size == 0)
		usage_error("--call-graph %s: a stack copy of 0 bytes "
			    "unwinds nothing (give 8 to %u bytes; default "
			    "%u)", arg, FEED_STACK_MAX, FEED_STACK_DEFAULT);
	size = (size + 7) & ~7ull;
	if (size > FEED_STACK_MAX)
		usage_error("--call-graph %s: above the kernel's limit of "
			    "%u bytes for a user stack copy (give at most "
			    "%u)", arg, FEED_STACK_MAX, FEED_STACK_MAX);
	*stack_size = (uint32_t)size;
}
