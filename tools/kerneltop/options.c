/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c - kerneltop's command line, one table for getopt and --help
   (with perf top's options that mean nothing here, perf-options.h). */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/openmetrics.h"
#include "base/opts.h"
#include "kt.h"
#include "options.h"
#include "trace-keys.h"
#include "sampling-cli/callgraph.h"
#include "sampling-cli/perf-options.h"
#include "sampling-cli/sample-args.h"
#include "util/die.h"
#include "util/events.h"
#include "util/output.h"
#include "util/parse.h"
#include "util/target-args.h"
#include "util/usage.h"
#include "util/xmalloc.h"

enum {
	OPT_PERCENT_LIMIT = 256, OPT_STDIO, OPT_CALL_GRAPH,
	OPT_CHILDREN, OPT_NO_CHILDREN, OPT_MAX_STACK,	/* call graphs */
	OPT_COMMS, OPT_DSOS, OPT_SYMBOLS, OPT_PERCENTAGE, OPT_TOTAL_PERIOD,
	OPT_NR_SAMPLES, OPT_FIELDS, OPT_GROUP, OPT_GROUP_SORT_IDX, OPT_HIERARCHY,
	OPT_OPENMETRICS,
	OPT_OFF_CPU, OPT_WALL_CLOCK,
	OPT_EXPORT,		/* + enum export_format */
};

/* perf top's that mean something here (the others: perf-options.h). */
enum {
	OPT_KALLSYMS = 512, OPT_SYM_ANNOTATE, OPT_RAW_TRACE, OPT_TUI,
	OPT_METRIC,
};

/* The task table's. */
enum { OPT_TASKS = 768, OPT_TASKS_SORT, OPT_TASKS_PROCESSES, OPT_TASKS_RAW };


/* The -s keys, as perf spells them. */
static const struct sort_key {
	const char *name;
	unsigned key;
} sort_keys[] = {
	{ "sym", TOP_KEY_SYM }, { "symbol", TOP_KEY_SYM },
	{ "dso", TOP_KEY_DSO }, { "comm", TOP_KEY_COMM },
	{ "pid", TOP_KEY_PID }, { "tid", TOP_KEY_TID },
	{ "cpu", TOP_KEY_CPU }, { "socket", TOP_KEY_SOCKET },
	{ "srcline", TOP_KEY_SRCLINE }, { "parent", TOP_KEY_PARENT },
};
#define NSORT_KEYS (sizeof(sort_keys) / sizeof(sort_keys[0]))

/* --fields' figure columns, as perf names them. */
static const struct field_col {
	const char *name;
	unsigned col;
} field_cols[] = {
	{ "overhead", KT_COL_OVERHEAD }, { "sample", KT_COL_SAMPLES },
	{ "period", KT_COL_PERIOD }, { "threads", KT_COL_THREADS },
};
#define NFIELD_COLS (sizeof(field_cols) / sizeof(field_cols[0]))

/* The TOP_KEY_* of a -s key, 0 for none. */
static unsigned sort_key(const char *name)
{
	for (size_t i = 0; i < NSORT_KEYS; i++)
		if (strcmp(name, sort_keys[i].name) == 0)
			return sort_keys[i].key;
	return 0;
}

#define KEY_NAMES "sym, dso, comm, pid, tid, cpu, socket, srcline, " \
	"parent, trace, trace_fields, or a tracepoint's field"

/* A -s key for a tracepoint's record: trace, trace_fields, or a field
   ("prev_comm", "sched_switch.prev_comm", "sched:sched_switch.prev_comm"),
   checked against the formats when the events are read. */
static bool trace_key(const char *tok)
{
	size_t n = strspn(tok, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:.");

	return n && !tok[n] && tok[0] != '.' && tok[0] != ':' &&
	       tok[strlen(tok) - 1] != '.';
}

/* Key k once more in the order --hierarchy nests by (the first time
   counts). */
static void key_order_add(struct kt_options *o, unsigned k)
{
	for (unsigned i = 0; i < o->nkey_order; i++)
		if (o->key_order[i] == k)
			return;
	if (o->nkey_order < KT_NKEYS)
		o->key_order[o->nkey_order++] = k;
}

static void trace_keys_release(struct kt_options *o)
{
	for (size_t i = 0; i < o->ntrace_keys; i++)
		free(o->trace_keys[i]);
	o->ntrace_keys = 0;
}

/* Whether every event is a tracepoint: perf then sorts by the trace
   records, unless told otherwise. */
static bool all_tracepoints(const struct pc_event_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->ev[i].attr.type != PERF_TYPE_TRACEPOINT)
			return false;
	return l->nr > 0;
}

static unsigned parse_sort(struct kt_options *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	unsigned keys = 0, k;

	o->nkey_order = 0;
	trace_keys_release(o);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		k = sort_key(tok);
		if (!k && trace_key(tok)) {
			if (o->ntrace_keys == KT_MAX_TRACE_COLS)
				usage_error("at most %d tracepoint sort keys",
					    KT_MAX_TRACE_COLS);
			o->trace_keys[o->ntrace_keys++] = xstrdup(tok);
			k = TOP_KEY_TRACE;
		}
		if (!k)
			usage_error("unknown sort key '%s' (use " KEY_NAMES ")",
				    tok);
		keys |= k;
		key_order_add(o, k);
	}
	free(copy);
	if (!keys)
		usage_error("-s wants keys, e.g. -s comm,sym");
	return keys;
}

/* --fields: figure columns into *cols, sort keys into *keys (and
   their order into *order, n of them). */
static void parse_fields(const char *arg, unsigned *cols, unsigned *keys,
			 unsigned *order, unsigned *n)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	size_t i;

	*cols = *keys = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NFIELD_COLS; i++)
			if (strcmp(tok, field_cols[i].name) == 0)
				break;
		if (i < NFIELD_COLS)
			*cols |= field_cols[i].col;
		else if (sort_key(tok) && !(*keys & sort_key(tok))) {
			*keys |= sort_key(tok);
			order[(*n)++] = sort_key(tok);
		} else if (!sort_key(tok))
			usage_error("unknown field '%s' (use overhead, sample, "
				    "period, threads, " KEY_NAMES ")", tok);
	}
	free(copy);
	if (!*cols && !*keys)
		usage_error("--fields wants fields, e.g. --fields "
			    "overhead,sym");
}

static void parse_user(struct kt_options *o, const char *arg)
{
	struct passwd *pw = getpwnam(arg);
	int uid;

	if (pw) {
		o->uid = pw->pw_uid;
	} else if (parse_int(arg, 0, INT32_MAX, &uid)) {
		o->uid = (uid_t)uid;
	} else {
		usage_error("no user '%s' (give a name from /etc/passwd or "
			    "a number)", arg);
	}
	o->user = arg;
}

static void set_scope(struct kt_options *o, enum feed_scope scope)
{
	if (o->scope != FEED_SYSTEM && o->scope != scope)
		usage_error("-p, -t and -u exclude each other");
	o->scope = scope;
}

/* --openmetrics FILE: a file that can be written, not an export's. */
static void openmetrics_check(const struct kt_options *o)
{
	static const char *const opt[] = {
		"--folded", "--flamegraph", "--pprof", "--speedscope",
		"--openmetrics"
	};
	const char *path[EXPORT_FORMAT_MAX + 1];
	int f;

	if (!*o->openmetrics)
		usage_error("--openmetrics needs a file name");
	if (openmetrics_check_path(o->openmetrics) != 0)
		die_status(2, "cannot write %s: %s%s", o->openmetrics,
			   output_strerror(errno), output_path_fix(errno));
	for (f = 0; f < EXPORT_FORMAT_MAX; f++)
		path[f] = o->exports.path[f];
	path[EXPORT_FORMAT_MAX] = o->openmetrics;
	output_paths_distinct(opt, path, EXPORT_FORMAT_MAX + 1);
}

/* The rows' calls: an option that is more than a store (-e, -c, -F,
   -m, -r and --metric: the samplers' own, sample-args.h). */
static void opt_pid(void *p, const char *arg)
{
	struct kt_options *o = p;

	set_scope(o, FEED_PROCESSES);
	target_arg_ids(arg, 'p', &o->ids, &o->nids);
}

static void opt_tid(void *p, const char *arg)
{
	struct kt_options *o = p;

	set_scope(o, FEED_THREADS);
	target_arg_ids(arg, 't', &o->ids, &o->nids);
}

static void opt_user(void *p, const char *arg)
{
	set_scope(p, FEED_USER);
	parse_user(p, arg);
}

static void opt_cpus(void *p, const char *arg)
{
	struct kt_options *o = p;

	target_arg_cpus(arg, &o->cpus, &o->ncpus);
	o->cpu_list = arg;
}

static void opt_delay(void *p, const char *arg)
{
	struct kt_options *o = p;

	/* 10 ms, as pcstat's -I: a refresh faster means nothing */
	if (!parse_fraction(arg, 0.01, 3600, &o->delay))
		usage_error("-d wants a refresh time in seconds from 0.01 to "
			    "3600 (e.g. 0.5), not '%s'", arg);
}

static void opt_sort(void *p, const char *arg)
{
	struct kt_options *o = p;

	o->keys = parse_sort(o, arg);
}

static void opt_percentage(void *p, const char *arg)
{
	struct kt_options *o = p;

	if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
		usage_error("--percentage wants relative or absolute, not "
			    "'%s'", arg);
	o->relative = !strcmp(arg, "relative");
}

static void opt_fields(void *p, const char *arg)
{
	struct kt_options *o = p;

	o->given.nfield_order = 0;
	parse_fields(arg, &o->cols, &o->given.field_keys,
		     o->given.field_order, &o->given.nfield_order);
	o->given.fields = true;
}

static void opt_tasks_sort(void *p, const char *arg)
{
	struct kt_options *o = p;
	int col = tasks_col_by_name(arg);

	if (col < 0)
		usage_error("unknown task column '%s' (see --help: "
			    "--tasks-sort)", arg);
	o->tasks_order = (enum tasks_col)col;
}

static void opt_tasks_raw(void *p, const char *arg)
{
	struct kt_options *o = p;

	(void)arg;
	o->tasks = o->tasks_raw = true;
}

static void opt_percent_limit(void *p, const char *arg)
{
	struct kt_options *o = p;

	if (!parse_fraction(arg, 0, 100, &o->percent_limit))
		usage_error("--percent-limit wants a share from 0 to 100, not "
			    "'%s'", arg);
}

static void opt_call_graph(void *p, const char *arg)
{
	struct kt_options *o = p;

	callgraph_parse_full(arg, &o->callgraph, &o->stack_size,
			     &o->cg_print);
}

static void opt_off_cpu(void *p, const char *arg)
{
	struct kt_options *o = p;

	(void)arg;
	o->off_cpu = true;
	o->measure = KT_OFF_CPU;
}

static void opt_wall_clock(void *p, const char *arg)
{
	struct kt_options *o = p;

	(void)arg;
	o->off_cpu = true;
	o->measure = KT_WALL;
}

static const struct opt_def options[] = {
	{ "event", 'e', 'e', "EVENT",
	  "event(s) to sample (default cycles, else cpu-clock)",
	  OPT_CALL_ON(struct kt_options, sample, sample_opt_event) },
	{ "freq", 'F', 'F', "HZ", "sample HZ times a second (default 4000)",
	  OPT_CALL_ON(struct kt_options, sample, sample_opt_freq) },
	{ "count", 'c', 'c', "N", "sample every N events instead",
	  OPT_CALL_ON(struct kt_options, sample, sample_opt_period) },
	{ "all-cpus", 'a', 'a', NULL, "every task on every CPU (default)",
	  OPT_CODE },
	{ "pid", 'p', 'p', "PID,..", "these processes, all their threads",
	  OPT_CALL(opt_pid) },
	{ "tid", 't', 't', "TID,..", "these threads only",
	  OPT_CALL(opt_tid) },
	{ "uid", 'u', 'u', "USER", "the tasks of USER",
	  OPT_CALL(opt_user) },
	{ "cpu", 'C', 'C', "LIST", "only these CPUs (0,2-3)",
	  OPT_CALL(opt_cpus) },
	{ "delay", 'd', 'd', "SECS", "refresh every SECS (default 2)",
	  OPT_CALL(opt_delay) },
	{ "sort", 's', 's', "KEYS",
	  "group by sym,dso,comm,pid,tid,cpu,socket,srcline,parent, "
	  "trace,trace_fields or a tracepoint field",
	  OPT_CALL(opt_sort) },
	{ "comms", 0, OPT_COMMS, "COMM,..", "only samples of these commands",
	  OPT_STRING(struct kt_options, comms) },
	{ "dsos", 0, OPT_DSOS, "DSO,..",
	  "only samples in these DSOs (path or file name)",
	  OPT_STRING(struct kt_options, dsos) },
	{ "symbols", 0, OPT_SYMBOLS, "SYM,..", "only samples in these symbols",
	  OPT_STRING(struct kt_options, symbols) },
	{ "count-filter", 'f', 'f', "N", "only rows of more than N samples",
	  OPT_NUMBER(struct kt_options, count_filter, 0, UINT64_MAX,
		     "wants a number of samples") },
	{ "percentage", 0, OPT_PERCENTAGE, "HOW",
	  "shares of all samples (absolute) or of the filtered (relative)",
	  OPT_CALL(opt_percentage) },
	{ "show-total-period", 0, OPT_TOTAL_PERIOD, NULL,
	  "a Period column: the events the samples stand for",
	  OPT_SET(struct kt_options, given.total_period, 1) },
	{ "show-nr-samples", 0, OPT_NR_SAMPLES, NULL,
	  "a Samples column (perf's -n; shown unless --fields omits it)",
	  OPT_SET(struct kt_options, given.nr_samples, 1) },
	{ "fields", 0, OPT_FIELDS, "FIELDS",
	  "columns: overhead,sample,period and -s keys",
	  OPT_CALL(opt_fields) },
	{ "hierarchy", 0, OPT_HIERARCHY, NULL,
	  "batch: rows nested by the -s keys, in their order",
	  OPT_SET(struct kt_options, hierarchy, 1) },
	{ "group", 0, OPT_GROUP, NULL,
	  "several -e: a share column per event (perf's group view)",
	  OPT_SET(struct kt_options, group, 1) },
	{ "group-sort-idx", 0, OPT_GROUP_SORT_IDX, "N",
	  "--group: rows by the Nth event's share (from 0)",
	  OPT_NUMBER(struct kt_options, given.sort_idx, 0, UINT32_MAX,
		     "wants an event's index from 0") },
	{ "tasks", 0, OPT_TASKS, NULL,
	  "the task table: per-thread counters (-b prints it; `T' key)",
	  OPT_SET(struct kt_options, tasks, 1) },
	{ "tasks-sort", 0, OPT_TASKS_SORT, "COL",
	  "--tasks: rows by COL (cpu, ctx, migr, faults, mcycles, minstr, "
	  "ipc, cache-miss, branch-miss, pid, tid, user, comm)",
	  OPT_CALL(opt_tasks_sort) },
	{ "tasks-processes", 0, OPT_TASKS_PROCESSES, NULL,
	  "--tasks: a row per process, its threads summed",
	  OPT_SET(struct kt_options, tasks_processes, 1) },
	{ "tasks-raw", 0, OPT_TASKS_RAW, NULL,
	  "--tasks with -b: each interval's counts, not rates",
	  OPT_CALL(opt_tasks_raw) },
	{ "zero", 'z', 'z', NULL, "zero the counts at each refresh",
	  OPT_SET(struct kt_options, zero, 1) },
	{ "percent-limit", 0, OPT_PERCENT_LIMIT, "PCT",
	  "hide rows under PCT%",
	  OPT_CALL(opt_percent_limit) },
	{ "entries", 'E', 'E', "N", "show at most N rows",
	  OPT_NUMBER(struct kt_options, entries, 1, 1000000, "wants a number of rows") },
	{ "hide-kernel", 'K', 'K', NULL, "hide kernel rows",
	  OPT_SET(struct kt_options, hide_kernel, 1) },
	{ "hide-user", 'U', 'U', NULL, "hide user rows",
	  OPT_SET(struct kt_options, hide_user, 1) },
	{ "batch", 'b', 'b', NULL, "plain-text frames on stdout",
	  OPT_SET(struct kt_options, batch, 1) },
	{ "stdio", 0, OPT_STDIO, NULL, "the same as --batch (perf's name)",
	  OPT_SET(struct kt_options, batch, 1) },
	{ "iterations", 'n', 'n', "N", "batch: print N frames, then exit",
	  OPT_NUMBER(struct kt_options, iterations, 1, UINT64_MAX,
		     "wants a number of frames") },
	{ "call-chains", 'g', 'g', NULL,
	  "Children and Self, callers and callees (= --call-graph fp)",
	  OPT_SET(struct kt_options, callgraph, FEED_CG_FP) },
	{ "call-graph", 0, OPT_CALL_GRAPH, "MODE,..",
	  "fp, dwarf[,SIZE]; -b: graph|fractal|flat|folded|none,PCT,"
	  "LIMIT,caller|callee (perf's form)",
	  OPT_CALL(opt_call_graph) },
	{ "children", 0, OPT_CHILDREN, NULL,
	  "-g: Children and Self (default; the `c' key)",
	  OPT_SET(struct kt_options, no_children, 0) },
	{ "no-children", 0, OPT_NO_CHILDREN, NULL,
	  "-g: by Self (-b: Self only, chains of callers)",
	  OPT_SET(struct kt_options, no_children, 1) },
	{ "max-stack", 0, OPT_MAX_STACK, "N",
	  "-g: chains cut at N frames, the leaf's included",
	  OPT_NUMBER(struct kt_options, max_stack, 1, UINT32_MAX,
		     "wants a number of frames") },
	{ "off-cpu", 0, OPT_OFF_CPU, NULL,
	  "show off-CPU time: where threads wait (implies -g; `o' key)",
	  OPT_CALL(opt_off_cpu) },
	{ "wall-clock", 0, OPT_WALL_CLOCK, NULL,
	  "--off-cpu, showing on- and off-CPU time on one scale",
	  OPT_CALL(opt_wall_clock) },
	EXPORT_OPT_ROWS(OPT_EXPORT),
	{ "openmetrics", 0, OPT_OPENMETRICS, "FILE",
	  "rewrite FILE each refresh: the header's figures as OpenMetrics",
	  OPT_STRING(struct kt_options, openmetrics) },
	/* perf top's: targets and sampling */
	{ "cgroup", 'G', 'G', "NAME",
	  "only the tasks of cgroup NAME (every CPU)",
	  OPT_STRING(struct kt_options, cgroup) },
	{ "no-inherit", 'i', 'i', NULL,
	  "-p/-u: not the threads and children made later",
	  OPT_SET(struct kt_options, no_inherit, 1) },
	{ "mmap-pages", 'm', 'm', "N",
	  "data pages per ring buffer, or a size (512K, 2M)",
	  OPT_CALL_ON(struct kt_options, sample,
		      sample_opt_ring_pages) },
	{ "realtime", 'r', 'r', "PRIO", "run kerneltop at SCHED_FIFO PRIO",
	  OPT_CALL_ON(struct kt_options, sample, sample_opt_realtime) },
	{ "verbose", 'v', 'v', NULL,
	  "the counters' setup and refusals, on stderr",
	  OPT_COUNT(struct kt_options, verbose) },
	/* perf top's: symbols */
	{ "kallsyms", 0, OPT_KALLSYMS, "FILE",
	  "kernel symbols from FILE, not /proc/kallsyms",
	  OPT_STRING(struct kt_options, kallsyms) },
	{ "sym-annotate", 0, OPT_SYM_ANNOTATE, "SYM",
	  "annotate SYM (batch: after each frame)",
	  OPT_STRING(struct kt_options, sym_annotate) },
	{ "metric", 0, OPT_METRIC, "RATE",
	  "with -e '{LEADER,MEMBER,...}:S': a rate column per function with "
	  "its 95% interval: EVENT (per sample), EVENT/ms, EVENT/EVENT2, "
	  "EVENT/kEVENT2, ipc (repeatable; `m' cycles them)",
	  OPT_CALL_ON(struct kt_options, sample, sample_opt_metric) },
	{ "raw-trace", 0, OPT_RAW_TRACE, NULL,
	  "tracepoint records as their raw fields, not their print fmt",
	  OPT_SET(struct kt_options, raw_trace, 1) },
	/* perf top's: the rest of its list */
	{ "hide_kernel_symbols", 0, 'K', NULL, "the same as -K (perf's)",
	  OPT_SET(struct kt_options, hide_kernel, 1) },
	{ "hide_user_symbols", 0, 'U', NULL, "the same as -U (perf's)",
	  OPT_SET(struct kt_options, hide_user, 1) },
	{ "tui", 0, OPT_TUI, NULL, "the live screen (the default on a tty)",
	  OPT_SET(struct kt_options, batch, 0) },
	{ "help", 'h', 'h', NULL, "this help",
	  OPT_CODE },
	{ "version", 'V', 'V', NULL, "print the version",
	  OPT_CODE },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* kerneltop's options, then perf top's that mean nothing here */
static struct opt_def all_options[NOPTIONS + 32];
static size_t nall, first_perf;

/* The rows without a target: -a (the default), the exports, --help,
   --version, and perf top's options that mean nothing here. */
static bool opt_code(void *p, int id, char *arg)
{
	struct kt_options *o = p;

	switch (id) {
	case 'a':
		return true;
	case OPT_EXPORT ... OPT_EXPORT + EXPORT_OPT_NIDS - 1:
		return exports_option(&o->exports, id, OPT_EXPORT, arg);
	case 'h':
		usage_print(stdout, "kerneltop [options]", options, NOPTIONS,
			    NULL);
		usage_print(stdout, "\nperf top's options that mean nothing "
			    "here (accepted, with a notice saying why):",
			    all_options + first_perf, nall - first_perf,
			    "Keys: press h in kerneltop. See kerneltop(1).");
		exit(0);
	case 'V':
		printf("kerneltop (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		exit(0);
	}
	return perf_option_taken(PERF_TOP, all_options, nall, id, arg, false);
}

/* What follows from the options together: their conflicts, and the
   defaults that depend on others. */
static void options_settle(struct kt_options *o)
{
	if (o->sample.period_set && o->sample.freq_set)
		usage_error("-c and -F exclude each other");
	if (o->cgroup && o->scope != FEED_SYSTEM)
		usage_error("-G watches a cgroup on every CPU: leave out -p, "
			    "-t and -u");
	/* off-CPU time is told by the stack a thread left with */
	if (o->off_cpu && o->callgraph == FEED_CG_NONE)
		o->callgraph = FEED_CG_FP;
	/* perf: --fields' sort keys are the rows' keys, unless -s says */
	if (!o->keys) {
		o->keys = o->given.field_keys;
		memcpy(o->key_order, o->given.field_order,
		       sizeof(o->key_order));
		o->nkey_order = o->given.nfield_order;
	}
	/* perf: tracepoints alone sort by their records (the fields with
	   --raw-trace); call chains are of symbols */
	if (!o->keys && all_tracepoints(&o->sample.events) &&
	    o->callgraph == FEED_CG_NONE) {
		o->trace_keys[o->ntrace_keys++] =
			xstrdup(o->raw_trace ? "trace_fields" : "trace");
		o->keys = TOP_KEY_TRACE;
		o->key_order[0] = TOP_KEY_TRACE;
		o->nkey_order = 1;
	}
	if (!o->keys) {
		o->keys = TOP_KEY_SYM;
		o->key_order[0] = TOP_KEY_SYM;
		o->nkey_order = 1;
	}
	/* perf: an index past the events sorts by the first */
	o->group_sort_idx = o->given.sort_idx < o->sample.events.nr ?
			    o->given.sort_idx : 0;
	if (!o->given.fields)
		o->cols = KT_COL_OVERHEAD | KT_COL_SAMPLES;
	if (o->given.total_period)
		o->cols |= KT_COL_PERIOD;
	if (o->given.nr_samples)
		o->cols |= KT_COL_SAMPLES;
	exports_check(&o->exports);
	if (o->openmetrics)
		openmetrics_check(o);
	if (!isatty(STDOUT_FILENO))
		o->batch = true;
}

void options_parse(struct kt_options *o, int argc, char **argv)
{
	int first;

	*o = (struct kt_options){ .delay = 2.0,
				  .cg_print = CALLGRAPH_PRINT_DEFAULT,
				  .tasks_order = TASKS_COL_CPU };
	nall = perf_options_table(PERF_TOP, options, NOPTIONS, all_options,
				  sizeof(all_options) / sizeof(all_options[0]),
				  &first_perf);
	first = usage_parse(all_options, nall, argc, argv, false, o, opt_code);
	if (first < argc)
		usage_error("unexpected argument '%s' (kerneltop takes no "
			    "command; to watch one, start it and use -p)",
			    argv[first]);
	options_settle(o);
}

void options_release(struct kt_options *o)
{
	pc_event_list_release(&o->sample.events);
	trace_keys_release(o);
	free(o->ids);
	free(o->cpus);
}
