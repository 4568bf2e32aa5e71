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

static const struct opt_def options[] = {
	{ "event", 'e', 'e', "EVENT",
	  "event(s) to sample (default cycles, else cpu-clock)" },
	{ "freq", 'F', 'F', "HZ", "sample HZ times a second (default 4000)" },
	{ "count", 'c', 'c', "N", "sample every N events instead" },
	{ "all-cpus", 'a', 'a', NULL, "every task on every CPU (default)" },
	{ "pid", 'p', 'p', "PID,..", "these processes, all their threads" },
	{ "tid", 't', 't', "TID,..", "these threads only" },
	{ "uid", 'u', 'u', "USER", "the tasks of USER" },
	{ "cpu", 'C', 'C', "LIST", "only these CPUs (0,2-3)" },
	{ "delay", 'd', 'd', "SECS", "refresh every SECS (default 2)" },
	{ "sort", 's', 's', "KEYS",
	  "group by sym,dso,comm,pid,tid,cpu,socket,srcline,parent, "
	  "trace,trace_fields or a tracepoint field" },
	{ "comms", 0, OPT_COMMS, "COMM,..", "only samples of these commands" },
	{ "dsos", 0, OPT_DSOS, "DSO,..",
	  "only samples in these DSOs (path or file name)" },
	{ "symbols", 0, OPT_SYMBOLS, "SYM,..", "only samples in these symbols" },
	{ "count-filter", 'f', 'f', "N", "only rows of more than N samples" },
	{ "percentage", 0, OPT_PERCENTAGE, "HOW",
	  "shares of all samples (absolute) or of the filtered (relative)" },
	{ "show-total-period", 0, OPT_TOTAL_PERIOD, NULL,
	  "a Period column: the events the samples stand for" },
	{ "show-nr-samples", 0, OPT_NR_SAMPLES, NULL,
	  "a Samples column (perf's -n; shown unless --fields omits it)" },
	{ "fields", 0, OPT_FIELDS, "FIELDS",
	  "columns: overhead,sample,period and -s keys" },
	{ "hierarchy", 0, OPT_HIERARCHY, NULL,
	  "batch: rows nested by the -s keys, in their order" },
	{ "group", 0, OPT_GROUP, NULL,
	  "several -e: a share column per event (perf's group view)" },
	{ "group-sort-idx", 0, OPT_GROUP_SORT_IDX, "N",
	  "--group: rows by the Nth event's share (from 0)" },
	{ "tasks", 0, OPT_TASKS, NULL,
	  "the task table: per-thread counters (-b prints it; `T' key)" },
	{ "tasks-sort", 0, OPT_TASKS_SORT, "COL",
	  "--tasks: rows by COL (cpu, ctx, migr, faults, mcycles, minstr, "
	  "ipc, cache-miss, branch-miss, pid, tid, user, comm)" },
	{ "tasks-processes", 0, OPT_TASKS_PROCESSES, NULL,
	  "--tasks: a row per process, its threads summed" },
	{ "tasks-raw", 0, OPT_TASKS_RAW, NULL,
	  "--tasks with -b: each interval's counts, not rates" },
	{ "zero", 'z', 'z', NULL, "zero the counts at each refresh" },
	{ "percent-limit", 0, OPT_PERCENT_LIMIT, "PCT",
	  "hide rows under PCT%" },
	{ "entries", 'E', 'E', "N", "show at most N rows" },
	{ "hide-kernel", 'K', 'K', NULL, "hide kernel rows" },
	{ "hide-user", 'U', 'U', NULL, "hide user rows" },
	{ "batch", 'b', 'b', NULL, "plain-text frames on stdout" },
	{ "stdio", 0, OPT_STDIO, NULL, "the same as --batch (perf's name)" },
	{ "iterations", 'n', 'n', "N", "batch: print N frames, then exit" },
	{ "call-chains", 'g', 'g', NULL,
	  "Children and Self, callers and callees (= --call-graph fp)" },
	{ "call-graph", 0, OPT_CALL_GRAPH, "MODE,..",
	  "fp, dwarf[,SIZE]; -b: graph|fractal|flat|folded|none,PCT,"
	  "LIMIT,caller|callee (perf's form)" },
	{ "children", 0, OPT_CHILDREN, NULL,
	  "-g: Children and Self (default; the `c' key)" },
	{ "no-children", 0, OPT_NO_CHILDREN, NULL,
	  "-g: by Self (-b: Self only, chains of callers)" },
	{ "max-stack", 0, OPT_MAX_STACK, "N",
	  "-g: chains cut at N frames, the leaf's included" },
	{ "off-cpu", 0, OPT_OFF_CPU, NULL,
	  "show off-CPU time: where threads wait (implies -g; `o' key)" },
	{ "wall-clock", 0, OPT_WALL_CLOCK, NULL,
	  "--off-cpu, showing on- and off-CPU time on one scale" },
	EXPORT_OPT_ROWS(OPT_EXPORT),
	{ "openmetrics", 0, OPT_OPENMETRICS, "FILE",
	  "rewrite FILE each refresh: the header's figures as OpenMetrics" },
	/* perf top's: targets and sampling */
	{ "cgroup", 'G', 'G', "NAME",
	  "only the tasks of cgroup NAME (every CPU)" },
	{ "no-inherit", 'i', 'i', NULL,
	  "-p/-u: not the threads and children made later" },
	{ "mmap-pages", 'm', 'm', "N",
	  "data pages per ring buffer, or a size (512K, 2M)" },
	{ "realtime", 'r', 'r', "PRIO", "run kerneltop at SCHED_FIFO PRIO" },
	{ "verbose", 'v', 'v', NULL,
	  "the counters' setup and refusals, on stderr" },
	/* perf top's: symbols */
	{ "kallsyms", 0, OPT_KALLSYMS, "FILE",
	  "kernel symbols from FILE, not /proc/kallsyms" },
	{ "sym-annotate", 0, OPT_SYM_ANNOTATE, "SYM",
	  "annotate SYM (batch: after each frame)" },
	{ "metric", 0, OPT_METRIC, "RATE",
	  "with -e '{LEADER,MEMBER,...}:S': a rate column per function with "
	  "its 95% interval: EVENT (per sample), EVENT/ms, EVENT/EVENT2, "
	  "EVENT/kEVENT2, ipc (repeatable; `m' cycles them)" },
	{ "raw-trace", 0, OPT_RAW_TRACE, NULL,
	  "tracepoint records as their raw fields, not their print fmt" },
	/* perf top's: the rest of its list */
	{ "hide_kernel_symbols", 0, 'K', NULL, "the same as -K (perf's)" },
	{ "hide_user_symbols", 0, 'U', NULL, "the same as -U (perf's)" },
	{ "tui", 0, OPT_TUI, NULL, "the live screen (the default on a tty)" },
	{ "help", 'h', 'h', NULL, "this help" },
	{ "version", 'V', 'V', NULL, "print the version" },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* kerneltop's options, then perf top's that mean nothing here */
static struct opt_def all_options[NOPTIONS + 32];
static size_t nall, first_perf;

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

static double parse_seconds(const char *arg)
{
	double d;

	/* 10 ms, as pcstat's -I: a refresh faster means nothing */
	if (!parse_fraction(arg, 0.01, 3600, &d))
		usage_error("-d wants a refresh time in seconds from 0.01 to "
			    "3600 (e.g. 0.5), not '%s'", arg);
	return d;
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

void options_parse(struct kt_options *o, int argc, char **argv)
{
	struct option longopts[sizeof(all_options) / sizeof(all_options[0]) +
			       1];
	char shortopts[OPTS_SHORT_SIZE(sizeof(all_options) /
				       sizeof(all_options[0]))];
	unsigned field_keys = 0, field_order[KT_NKEYS], nfield_order = 0;
	uint64_t sort_idx = 0;
	bool fields = false, total_period = false, nr_samples = false;
	uint64_t v;
	int c;

	*o = (struct kt_options){ .delay = 2.0,
				  .cg_print = CALLGRAPH_PRINT_DEFAULT,
				  .tasks_order = TASKS_COL_CPU };
	nall = perf_options_table(PERF_TOP, options, NOPTIONS, all_options,
				  sizeof(all_options) / sizeof(all_options[0]),
				  &first_perf);
	usage_getopt(all_options, nall, longopts, shortopts, 0);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'e': events_add(&o->events, optarg); break;
		case 'F':
			o->freq = sample_arg_freq_max(optarg);
			o->freq_set = true;
			break;
		case 'c':
			o->period = sample_arg_period(optarg);
			o->period_set = o->period != 0;
			break;
		case 'a': break;
		case 'p':
			set_scope(o, FEED_PROCESSES);
			target_arg_ids(optarg, 'p', &o->ids, &o->nids);
			break;
		case 't':
			set_scope(o, FEED_THREADS);
			target_arg_ids(optarg, 't', &o->ids, &o->nids);
			break;
		case 'u':
			set_scope(o, FEED_USER);
			parse_user(o, optarg);
			break;
		case 'C':
			free(o->cpus);
			o->cpus = NULL;
			target_arg_cpus(optarg, &o->cpus, &o->ncpus);
			o->cpu_list = optarg;
			break;
		case 'd': o->delay = parse_seconds(optarg); break;
		case 's': o->keys = parse_sort(o, optarg); break;
		case OPT_COMMS: o->comms = optarg; break;
		case OPT_DSOS: o->dsos = optarg; break;
		case OPT_SYMBOLS: o->symbols = optarg; break;
		case 'f':
			if (!parse_u64(optarg, 0, UINT64_MAX, &o->count_filter))
				usage_error("-f wants a number of samples, not "
					    "'%s'", optarg);
			break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "relative") &&
			    strcmp(optarg, "absolute"))
				usage_error("--percentage wants relative or "
					    "absolute, not '%s'", optarg);
			o->relative = !strcmp(optarg, "relative");
			break;
		case OPT_TOTAL_PERIOD: total_period = true; break;
		case OPT_NR_SAMPLES: nr_samples = true; break;
		case OPT_HIERARCHY: o->hierarchy = true; break;
		case OPT_TASKS: o->tasks = true; break;
		case OPT_TASKS_SORT: {
			int col = tasks_col_by_name(optarg);

			if (col < 0)
				usage_error("unknown task column '%s' (see "
					    "--help: --tasks-sort)", optarg);
			o->tasks_order = (enum tasks_col)col;
			break;
		}
		case OPT_TASKS_PROCESSES: o->tasks_processes = true; break;
		case OPT_OFF_CPU:
			o->off_cpu = true;
			o->measure = KT_OFF_CPU;
			break;
		case OPT_WALL_CLOCK:
			o->off_cpu = true;
			o->measure = KT_WALL;
			break;
		case OPT_TASKS_RAW: o->tasks = o->tasks_raw = true; break;
		case OPT_GROUP: o->group = true; break;
		case OPT_GROUP_SORT_IDX:
			if (!parse_u64(optarg, 0, UINT32_MAX, &sort_idx))
				usage_error("--group-sort-idx wants an event's "
					    "index from 0, not '%s'", optarg);
			break;
		case OPT_FIELDS:
			nfield_order = 0;
			parse_fields(optarg, &o->cols, &field_keys,
				     field_order, &nfield_order);
			fields = true;
			break;
		case 'z': o->zero = true; break;
		case OPT_PERCENT_LIMIT:
			if (!parse_fraction(optarg, 0, 100,
					    &o->percent_limit))
				usage_error("--percent-limit wants a share "
					    "from 0 to 100, not '%s'", optarg);
			break;
		case 'E':
			if (!parse_u64(optarg, 1, 1000000, &v))
				usage_error("-E wants a number of rows from 1 "
					    "to 1000000, not '%s'", optarg);
			o->entries = (size_t)v;
			break;
		case 'K': o->hide_kernel = true; break;
		case 'U': o->hide_user = true; break;
		case 'b': case OPT_STDIO: o->batch = true; break;
		case 'n':
			if (!parse_u64(optarg, 1, UINT64_MAX, &o->iterations))
				usage_error("-n wants a number of frames >= 1, "
					    "not '%s'", optarg);
			break;
		case 'g': o->callgraph = FEED_CG_FP; break;
		case OPT_CALL_GRAPH:
			callgraph_parse_full(optarg, &o->callgraph,
					     &o->stack_size, &o->cg_print);
			break;
		case OPT_CHILDREN: o->no_children = false; break;
		case OPT_NO_CHILDREN: o->no_children = true; break;
		case OPT_MAX_STACK:
			if (!parse_u64(optarg, 1, UINT32_MAX, &v))
				usage_error("--max-stack wants a number of "
					    "frames >= 1, not '%s'", optarg);
			o->max_stack = (unsigned)v;
			break;
		case OPT_OPENMETRICS: o->openmetrics = optarg; break;
		case OPT_EXPORT ... OPT_EXPORT + EXPORT_OPT_NIDS - 1:
			exports_option(&o->exports, c, OPT_EXPORT, optarg);
			break;
		case 'G': o->cgroup = optarg; break;
		case 'i': o->no_inherit = true; break;
		case 'm': o->mmap_pages = sample_arg_ring_pages(optarg); break;
		case 'r': o->realtime = sample_arg_realtime(optarg); break;
		case 'v': o->verbose++; break;
		case OPT_KALLSYMS: o->kallsyms = optarg; break;
		case OPT_SYM_ANNOTATE: o->sym_annotate = optarg; break;
		case OPT_RAW_TRACE: o->raw_trace = true; break;
		case OPT_METRIC:
			if (o->nmetric_args == METRICS_MAX)
				usage_error("at most %d --metric", METRICS_MAX);
			o->metric_args[o->nmetric_args++] = optarg;
			break;
		case OPT_TUI: o->batch = false; break;
		case 'h':
			usage_print(stdout, "kerneltop [options]", options,
				    NOPTIONS, NULL);
			usage_print(stdout, "\nperf top's options that mean "
				    "nothing here (accepted, with a notice "
				    "saying why):", all_options + first_perf,
				    nall - first_perf, "Keys: press h in "
				    "kerneltop. See kerneltop(1).");
			exit(0);
		case 'V':
			printf("kerneltop (%s) %s\n", PACKAGE_NAME,
			       PACKAGE_VERSION);
			exit(0);
		default:
			if (!perf_option_taken(PERF_TOP, all_options, nall, c,
					       optarg, false))
				usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (kerneltop takes no "
			    "command; to watch one, start it and use -p)",
			    argv[optind]);
	if (o->period_set && o->freq_set)
		usage_error("-c and -F exclude each other");
	if (o->cgroup && o->scope != FEED_SYSTEM)
		usage_error("-G watches a cgroup on every CPU: leave out -p, "
			    "-t and -u");
	/* off-CPU time is told by the stack a thread left with */
	if (o->off_cpu && o->callgraph == FEED_CG_NONE)
		o->callgraph = FEED_CG_FP;
	/* perf: --fields' sort keys are the rows' keys, unless -s says */
	if (!o->keys) {
		o->keys = field_keys;
		memcpy(o->key_order, field_order, sizeof(field_order));
		o->nkey_order = nfield_order;
	}
	/* perf: tracepoints alone sort by their records (the fields with
	   --raw-trace); call chains are of symbols */
	if (!o->keys && all_tracepoints(&o->events) &&
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
	o->group_sort_idx = sort_idx < o->events.nr ? (unsigned)sort_idx : 0;
	if (!fields)
		o->cols = KT_COL_OVERHEAD | KT_COL_SAMPLES;
	if (total_period)
		o->cols |= KT_COL_PERIOD;
	if (nr_samples)
		o->cols |= KT_COL_SAMPLES;
	exports_check(&o->exports);
	if (o->openmetrics)
		openmetrics_check(o);
	if (!isatty(STDOUT_FILENO))
		o->batch = true;
}

void options_release(struct kt_options *o)
{
	pc_event_list_release(&o->events);
	trace_keys_release(o);
	free(o->ids);
	free(o->cpus);
}
