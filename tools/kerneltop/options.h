/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - kerneltop's command line (options.c): the limits, the
 * figure columns, the measures, and what was asked for.
 */
#ifndef KERNELTOP_OPTIONS_H
#define KERNELTOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <sysapi/sysapi.h>

#include "profile/feed.h"
#include "profile/tasks.h"
#include "sampling-cli/callgraph.h"
#include "sampling-cli/exports.h"
#include "sampling-cli/metrics.h"
#include "sampling-cli/sample-args.h"

#define KT_MAX_EVENTS 8
#define KT_NKEYS 10		/* the TOP_KEY_* bits */
#define KT_MAX_TRACE_COLS 64	/* -s trace keys, fields expanded */
#define KT_MAX_CPUS 4096	/* -s socket: CPUs whose package is known */
/* -s parent: perf's default --parent pattern */
#define KT_PARENT_RE "^sys_|^do_page_fault"
#define KT_PARENT_OTHER "[other]"	/* the parent of a chain without one */

/* The figure columns of a table (--fields, --show-total-period). */
enum kt_col {
	KT_COL_OVERHEAD = 1,
	KT_COL_SAMPLES = 2,
	KT_COL_PERIOD = 4,
	KT_COL_THREADS = 8,	/* the distinct threads of a function */
};

/* What a table counts (offcpu.c): --off-cpu adds the last two. */
enum kt_measure {
	KT_ON_CPU,		/* samples of the events */
	KT_OFF_CPU,		/* ns off the CPU, on the stack left with */
	KT_WALL,		/* ns: on-CPU samples of a time event, each
				   worth its period, with the off-CPU ns */
	KT_MEASURES
};

/* What the command line asked for (options.c). */
struct kt_options {
	struct sample_args sample;	/* -e, -c, -F, -m, -r, --metric */
	enum feed_scope scope;
	pid_t *ids;			/* -p / -t, deduplicated */
	size_t nids;
	uid_t uid;			/* -u */
	const char *user;		/* -u as given */
	int *cpus;			/* -C */
	size_t ncpus;
	const char *cpu_list;
	double delay;			/* -d seconds */
	unsigned keys;			/* -s: TOP_KEY_* */
	const char *comms, *dsos, *symbols; /* --comms, --dsos, --symbols */
	uint64_t count_filter;		/* -f */
	bool relative;			/* --percentage relative */
	unsigned cols;			/* KT_COL_*: --fields, --show-* */
	bool group;			/* --group: a share column per event */
	unsigned group_sort_idx;	/* --group-sort-idx, < nevents */
	bool hierarchy;			/* --hierarchy */
	unsigned key_order[KT_NKEYS];	/* -s / --fields keys as given, for
					   --hierarchy's levels */
	unsigned nkey_order;
	bool zero;			/* -z */
	double percent_limit;
	size_t entries;			/* -E, 0 all */
	bool hide_kernel, hide_user;	/* -K, -U */
	bool batch;			/* -b / --stdio / not a terminal */
	uint64_t iterations;		/* -n, 0 unlimited */
	enum feed_callgraph callgraph;	/* -g, --call-graph */
	uint32_t stack_size;		/* dwarf: bytes copied per sample */
	struct callgraph_print cg_print;/* --call-graph's printing part (-b) */
	bool no_children;		/* --no-children */
	unsigned max_stack;		/* --max-stack, 0 none */
	struct exports exports;		/* --folded, --flamegraph, ... */
	const char *openmetrics;	/* --openmetrics FILE, NULL: none */
	/* perf top's targets, sampling and symbols */
	const char *cgroup;		/* -G: this cgroup's tasks only */
	bool no_inherit;		/* -i */
	unsigned verbose;		/* -v */
	const char *kallsyms;		/* --kallsyms FILE */
	const char *sym_annotate;	/* --sym-annotate SYM */
	char *trace_keys[KT_MAX_TRACE_COLS]; /* -s trace, trace_fields and
					   tracepoint fields, as given */
	size_t ntrace_keys;
	bool raw_trace;			/* --raw-trace */
	/* the task table: --tasks (batch prints it), its order, a row
	   per process (--tasks-processes), batch's counts (--tasks-raw) */
	bool tasks;
	enum tasks_col tasks_order;
	bool tasks_processes;
	bool off_cpu;			/* --off-cpu, --wall-clock */
	enum kt_measure measure;	/* the measure shown first */
	bool tasks_raw;
	/* the command line as given, before options_parse() settles what
	   follows from the options together */
	struct {
		bool fields, total_period, nr_samples;
		unsigned field_keys, field_order[KT_NKEYS], nfield_order;
		unsigned sort_idx;	/* --group-sort-idx */
	} given;
};

void options_parse(struct kt_options *o, int argc, char **argv);
void options_release(struct kt_options *o);

#endif
