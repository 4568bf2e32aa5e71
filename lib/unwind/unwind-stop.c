/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unwind-stop.c - why a user chain ended: names and advice, one table
   (built with or without libunwind). */
#include "config.h"

#include "unwind/unwind.h"

static const struct {
	const char *name, *advice;
} stops[UNWIND_STOP_MAX] = {
	[UNWIND_END] = { "complete", "the chain reached the outermost frame" },
	[UNWIND_NO_REGS] = { "no user registers",
		"the sample has no user registers to start from (a kernel "
		"thread, or a 32-bit task, which is not unwound)" },
	[UNWIND_STACK_CUT] = { "stack cut",
		"a frame lies beyond the copied user stack: raise the copy "
		"with --call-graph dwarf,SIZE (at most 65528 bytes)" },
	[UNWIND_NO_INFO] = { "no unwind info",
		"a frame's code has no DWARF CFI and keeps no frame pointer "
		"(JIT or hand-written code): use --call-graph fp with code "
		"built with -fno-omit-frame-pointer" },
	[UNWIND_BAD_FRAME] = { "bad frame",
		"the unwinding rules led to a return address in no mapping, "
		"or in a loop (corrupt stack, or CFI that does not match "
		"the code)" },
	[UNWIND_MAX_DEPTH] = { "too deep",
		"the chain is longer than the frame limit (127 frames)" },
};

const char *unwind_stop_name(enum unwind_stop stop)
{
	return (unsigned)stop < UNWIND_STOP_MAX ? stops[stop].name : "?";
}

const char *unwind_stop_advice(enum unwind_stop stop)
{
	return (unsigned)stop < UNWIND_STOP_MAX ? stops[stop].advice : "?";
}
