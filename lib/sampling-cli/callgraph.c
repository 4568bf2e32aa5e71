/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callgraph.c - one parser of --call-graph for every tool that samples:
   perf's full form, record and print parts in one string. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sampling-cli/callgraph.h"
#include "util/die.h"
#include "util/parse.h"
#include "util/xmalloc.h"

static const struct {
	const char *name;
	enum feed_callgraph mode;
	int takes_size;
} modes[] = {
	{ "fp", FEED_CG_FP, 0 },
	{ "dwarf", FEED_CG_DWARF, 1 },
};

/* The words of the printing part, in perf's order of trial (a short
   word goes to the first that it begins: "f" is flat). */
enum word_kind { W_TYPE, W_ORDER, W_KEY, W_VALUE };
static const struct {
	const char *name;
	enum word_kind kind;
	int val;		/* print type; callee; 1: no effect here */
	const char *why;	/* no effect here: why */
} words[] = {
	{ "graph", W_TYPE, CG_PRINT_GRAPH, NULL },
	{ "flat", W_TYPE, CG_PRINT_FLAT, NULL },
	{ "fractal", W_TYPE, CG_PRINT_FRACTAL, NULL },
	{ "folded", W_TYPE, CG_PRINT_FOLDED, NULL },
	{ "caller", W_ORDER, 0, NULL },
	{ "callee", W_ORDER, 1, NULL },
	{ "function", W_KEY, 0, NULL },
	{ "address", W_KEY, 1, "chains are kept by function" },
	{ "srcline", W_KEY, 1, "chains are kept by function" },
	{ "branch", W_KEY, 1, "no PMU branch stacks (LBR) here" },
	{ "percent", W_VALUE, 0, NULL },
	{ "period", W_VALUE, 1, "chains print shares of samples" },
	{ "count", W_VALUE, 1, "chains print shares of samples" },
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

const char *callgraph_name(enum feed_callgraph mode)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i].mode == mode)
			return modes[i].name;
	return "none";
}

/* perf's test: tok begins word (and is not empty). */
static bool is_prefix(const char *tok, const char *word)
{
	return *tok && strncmp(tok, word, strlen(tok)) == 0;
}

static uint32_t parse_size(const char *arg, const char *tok)
{
	uint64_t size;

	if (!parse_u64(tok, 0, UINT32_MAX, &size))
		usage_error("--call-graph %s: '%s' is not a size in bytes",
			    arg, tok);
	if (size == 0)
		usage_error("--call-graph %s: a stack copy of 0 bytes "
			    "unwinds nothing (give 8 to %u bytes; default "
			    "%u)", arg, FEED_STACK_MAX, FEED_STACK_DEFAULT);
	size = (size + 7) & ~7ull;
	if (size > FEED_STACK_MAX)
		usage_error("--call-graph %s: above the kernel's limit of "
			    "%u bytes for a user stack copy (give at most "
			    "%u)", arg, FEED_STACK_MAX, FEED_STACK_MAX);
	return (uint32_t)size;
}

/* A record mode (fp, dwarf, lbr): true when tok is one. */
static bool parse_record(const char *arg, const char *tok,
			 enum feed_callgraph *mode)
{
	size_t i;

	if (strcmp(tok, "lbr") == 0) {
		warn_msg("--call-graph %s: lbr: no effect here: no PMU "
			 "last-branch records; frame pointers instead", arg);
		*mode = FEED_CG_FP;
		return true;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(tok, modes[i].name) == 0)
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return false;
	*mode = modes[i].mode;
	if (*mode == FEED_CG_DWARF && !unwind_available())
		usage_error("--call-graph dwarf: built without libunwind: "
			    "dwarf unwinding unavailable (use --call-graph "
			    "fp, or rebuild with libunwind-dev)");
	return true;
}

void callgraph_parse_full(const char *arg, enum feed_callgraph *mode,
			  uint32_t *stack_size, struct callgraph_print *print)
{
	struct callgraph_print p = CALLGRAPH_PRINT_DEFAULT;
	bool record_set = false, try_size = false, threshold_set = false;
	char *copy = xstrdup(arg), *tok, *save = NULL;
	size_t i;

	*mode = FEED_CG_FP;
	*stack_size = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (is_prefix(tok, "none")) {
			/* perf: no call graph, whatever else is said */
			*mode = FEED_CG_NONE;
			p.type = CG_PRINT_NONE;
			p.given = true;
			break;
		}
		for (i = 0; i < NWORDS && !is_prefix(tok, words[i].name); i++)
			;
		if (i < NWORDS) {
			try_size = false;
			p.given = true;
			if (words[i].why)
				warn_msg("--call-graph %s: %s: no effect "
					 "here: %s", arg, words[i].name,
					 words[i].why);
			else if (words[i].kind == W_TYPE)
				p.type = (enum callgraph_print_type)
					 words[i].val;
			else if (words[i].kind == W_ORDER)
				p.callee = words[i].val, p.order_set = true;
			continue;
		}
		if (!record_set && parse_record(arg, tok, mode)) {
			record_set = true;
			try_size = *mode == FEED_CG_DWARF;
			continue;
		}
		if (!try_size && !isdigit((unsigned char)tok[0]) &&
		    tok[0] != '.')
			usage_error("--call-graph %s: unknown part '%s' (give "
				    "fp, dwarf[,SIZE] or lbr; graph, flat, "
				    "fractal, folded or none; a threshold "
				    "%%; a limit; caller or callee; "
				    "function)", arg, tok);
		if (try_size) {
			*stack_size = parse_size(arg, tok);
			try_size = false;
		} else if (!threshold_set) {
			if (!parse_fraction(tok, 0, 100, &p.threshold))
				usage_error("--call-graph %s: threshold '%s' "
					    "is not a share from 0 to 100",
					    arg, tok);
			threshold_set = p.given = true;
		} else {
			uint64_t v;

			if (!parse_u64(tok, 0, UINT32_MAX, &v))
				usage_error("--call-graph %s: print limit "
					    "'%s' is not a number of "
					    "branches", arg, tok);
			p.limit = (unsigned)v;
		}
	}
	free(copy);
	if (print)
		*print = p;
	else if (p.given && *mode != FEED_CG_NONE)
		warn_msg("--call-graph %s: the print type, threshold, limit "
			 "and order: no effect here (they shape perf top's "
			 "and kerneltop's printed trees)", arg);
}

void callgraph_parse(const char *arg, enum feed_callgraph *mode,
		     uint32_t *stack_size)
{
	callgraph_parse_full(arg, mode, stack_size, NULL);
}
