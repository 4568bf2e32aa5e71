/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c - monitor's command line: its options and perf record's
 * (those that mean nothing here are accepted with a notice,
 * sampling-cli/perf-options.c), one table for getopt and --help, and
 * what they set in struct monitor.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"
#include "sampling-cli/callgraph.h"
#include "sampling-cli/exports.h"
#include "sampling-cli/perf-options.h"
#include "sampling-cli/rings.h"
#include "sampling-cli/sample-args.h"
#include "util/die.h"
#include "util/events.h"
#include "util/parse.h"
#include "util/target-args.h"
#include "util/usage.h"
#include "util/xmalloc.h"

enum {
	OPT_RAW = 256, OPT_JSON, OPT_SUMMARY, OPT_ALL_THREADS, OPT_LEGACY,
	OPT_TOP, OPT_CALL_GRAPH, OPT_SCRIPT, OPT_FIELDS, OPT_DRY_RUN,
	OPT_STRICT_FREQ, OPT_ANNOTATE, OPT_METRIC,
	OPT_OFF_CPU,
	OPT_EXPORT,		/* + enum export_format */
};


/* -p/-t: one id, through the tools' one parser and its messages. */
static const char *one_id(const char *arg, char opt)
{
	pid_t *ids = NULL;
	size_t n = 0;

	target_arg_ids(arg, opt, &ids, &n);
	if (n != 1)
		usage_error("one %s only, not %zu (give one to -%c)",
			    opt == 'p' ? "process" : "thread", n, opt);
	free(ids);
	return arg;
}

/* The rows' calls: an option that is more than a store (-e, -c, -F,
   -m, -r and --metric: the samplers' own, sample-args.h). */
static void set_space(struct monitor *m, enum monitor_space space)
{
	if (m->space != SPACE_ALL && m->space != space)
		usage_error("-k and -u exclude each other (give neither for "
			    "both)");
	m->space = space;
}

static void opt_kernel(void *p, const char *arg)
{
	(void)arg;
	set_space(p, SPACE_KERNEL);
}

static void opt_user(void *p, const char *arg)
{
	(void)arg;
	set_space(p, SPACE_USER);
}

static void opt_call_graph(void *p, const char *arg)
{
	struct monitor *m = p;

	callgraph_parse(arg, &m->callgraph, &m->stack_size);
}

static void opt_fields(void *p, const char *arg)
{
	struct monitor *m = p;

	m->script_fields = script_fields_parse(arg);
	m->format = FORMAT_SCRIPT;
}

static void opt_pid(void *p, const char *arg)
{
	struct monitor *m = p;

	m->given.tid_arg = one_id(arg, 'p');
	m->all_threads = m->given.pid = true;
}

static void opt_tid(void *p, const char *arg)
{
	((struct monitor *)p)->given.tid_arg = one_id(arg, 't');
}

static void opt_cpus(void *p, const char *arg)
{
	struct monitor *m = p;

	target_arg_cpus(arg, &m->cpus, &m->ncpus);
	m->system = true;
}

/* The options, one table: getopt's and --help's. */
static const struct opt_def options[] = {
	{ "count", 'c', 'c', "COUNT", "sample every COUNT events (default: 4000 Hz for clocks and hardware events, else 10000)",
	  OPT_CALL_ON(struct monitor, sample, sample_opt_period) },
	{ "freq", 'F', 'F', "HZ", "sample HZ times a second instead",
	  OPT_CALL_ON(struct monitor, sample, sample_opt_freq) },
	{ "event", 'e', 'e', "EVENT", "events to sample, a list or repeated (default cycles, else cpu-clock)",
	  OPT_CALL_ON(struct monitor, sample, sample_opt_event) },
	{ "kernel", 'k', 'k', NULL, "kernel samples only",
	  OPT_CALL(opt_kernel) },
	{ "user", 'u', 'u', NULL, "user samples only",
	  OPT_CALL(opt_user) },
	{ "samples", 'n', 'n', "N", "stop after N samples (and end the command)",
	  OPT_NUMBER(struct monitor, max_samples, 1, UINT64_MAX, "wants a number") },
	{ "debug-file", 'd', 'd', "FILE", "read symbols of the target's executable from FILE",
	  OPT_STRING(struct monitor, debug_file) },
	{ "call-chains", 'g', 'g', NULL, "print each sample's call chain (= --call-graph fp)",
	  OPT_SET(struct monitor, callgraph, FEED_CG_FP) },
	{ "call-graph", 0, OPT_CALL_GRAPH, "MODE", "call chains by fp, or dwarf[,SIZE] (stack copy, default 8192)",
	  OPT_CALL(opt_call_graph) },
	{ "off-cpu", 0, OPT_OFF_CPU, NULL, "also the time threads spend off the CPU, and where they wait (implies -g)",
	  OPT_SET(struct monitor, off_cpu, 1) },
	EXPORT_OPT_ROWS(OPT_EXPORT),
	{ "raw", 0, OPT_RAW, NULL, "print the 2008 demo's 'IP: 0x...' lines",
	  OPT_SET(struct monitor, format, FORMAT_RAW) },
	{ "json", 0, OPT_JSON, NULL, "print one JSON object per sample",
	  OPT_SET(struct monitor, format, FORMAT_JSON) },
	{ "script", 0, OPT_SCRIPT, NULL, "print perf script's sample lines (and chains)",
	  OPT_SET(struct monitor, format, FORMAT_SCRIPT) },
	{ "fields", 0, OPT_FIELDS, "LIST", "--script with perf script -F's fields (comm,tid,ip,sym...)",
	  OPT_CALL(opt_fields) },
	{ "metric", 0, OPT_METRIC, "RATE", "with -e '{LEADER,MEMBER,...}:S': a rate column per function in the summary, with its 95% interval: EVENT (per sample), EVENT/ms, EVENT/EVENT2, EVENT/kEVENT2, ipc (repeatable)",
	  OPT_CALL_ON(struct monitor, sample, sample_opt_metric) },
	{ "summary", 0, OPT_SUMMARY, NULL, "print only the summary table, on stdout",
	  OPT_SET(struct monitor, summary_only, 1) },
	{ "annotate", 0, OPT_ANNOTATE, "SYM", "at the end, SYM's instructions with their samples (perf annotate --stdio)",
	  OPT_STRING(struct monitor, annotate) },
	{ "top", 0, OPT_TOP, "N", "functions in the summary (default 20)",
	  OPT_NUMBER(struct monitor, top, 1, 100000, "wants a number") },
	{ "all-threads", 0, OPT_ALL_THREADS, NULL, "sample every thread of the process, new ones too",
	  OPT_SET(struct monitor, all_threads, 1) },
	{ "pid", 'p', 'p', "PID", "sample process PID: every thread (= PID --all-threads)",
	  OPT_CALL(opt_pid) },
	{ "tid", 't', 't', "TID", "sample thread TID (= TID)",
	  OPT_CALL(opt_tid) },
	{ "all-cpus", 'a', 'a', NULL, "sample every task on every CPU (until the command ends, or a signal)",
	  OPT_SET(struct monitor, system, 1) },
	{ "cpu", 'C', 'C', "CPUS", "sample every task on these CPUs (0,2-3)",
	  OPT_CALL(opt_cpus) },
	{ "no-inherit", 'i', 'i', NULL, "the thread alone, not the threads it creates (the default)",
	  OPT_SET(struct monitor, given.no_inherit, 1) },
	{ "all-kernel", 0, 'k', NULL, "= -k",
	  OPT_CALL(opt_kernel) },
	{ "all-user", 0, 'u', NULL, "= -u",
	  OPT_CALL(opt_user) },
	{ "mmap-pages", 'm', 'm', "PAGES", "data pages per ring buffer, or a size (512K, 2M)",
	  OPT_CALL_ON(struct monitor, sample, sample_opt_ring_pages) },
	{ "realtime", 'r', 'r', "PRIO", "read the samples at SCHED_FIFO priority PRIO",
	  OPT_CALL_ON(struct monitor, sample, sample_opt_realtime) },
	{ "quiet", 'q', 'q', NULL, "no notices, and no summary on standard error",
	  OPT_SET(struct monitor, quiet, 1) },
	{ "strict-freq", 0, OPT_STRICT_FREQ, NULL, "refuse -F above the kernel's limit (else lowered to it)",
	  OPT_SET(struct monitor, strict_freq, 1) },
	{ "dry-run", 0, OPT_DRY_RUN, NULL, "check the options, then exit",
	  OPT_SET(struct monitor, given.dry_run, 1) },
	{ "legacy", 0, OPT_LEGACY, NULL, "use the 2008 perf_counter_open call (patched kernel)",
	  OPT_SET(struct monitor, legacy, 1) },
	{ "help", 'h', 'h', NULL, "this help",
	  OPT_CODE },
	{ "version", 'V', 'V', NULL, "print the version",
	  OPT_CODE },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* monitor's options, then perf record's that mean nothing here */
static struct opt_def all_options[NOPTIONS + 80];
static size_t nall, first_perf;

static void usage(void)
{
	usage_print(stdout, "usage: monitor [options] TID\n"
			    "       monitor [options] -a|-C CPUS [-- COMMAND [ARGS...]]\n"
			    "       monitor [options] -- COMMAND [ARGS...]",
		    options, NOPTIONS, NULL);
	usage_print(stdout, "\nperf record's options that mean nothing here "
			    "(accepted, with a notice saying why):",
		    all_options + first_perf, nall - first_perf,
		    "See monitor(1).");
	exit(0);
}

/* The rows without a target: the exports, --help, --version, and perf
   record's options that mean nothing here. */
static bool opt_code(void *p, int id, char *arg)
{
	struct monitor *m = p;

	switch (id) {
	case OPT_EXPORT ... OPT_EXPORT + EXPORT_OPT_NIDS - 1:
		return exports_option(&m->exports, id, OPT_EXPORT, arg);
	case 'h':
		usage();
		return true;
	case 'V':
		printf("monitor (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		exit(0);
	}
	return perf_option_taken(PERF_RECORD, all_options, nall, id, arg,
				 m->quiet);
}

/* The options that exclude or imply others. */
static void options_check(struct monitor *m)
{
	if (m->sample.period_set && m->sample.freq_set)
		usage_error("-c and -F exclude each other");
	if (m->legacy && m->off_cpu)
		usage_error("--legacy has no switch records: no --off-cpu (drop "
			    "one of them)");
	/* off-CPU time is told by the stack a thread left with */
	if (m->off_cpu && m->callgraph == FEED_CG_NONE &&
	    m->format != FORMAT_RAW)
		m->callgraph = FEED_CG_FP;
	if (m->legacy && m->callgraph != FEED_CG_NONE)
		usage_error("--legacy samples IPs only: no call graph (drop "
			    "-g/--call-graph or --legacy)");
	if (m->format == FORMAT_RAW && m->annotate)
		usage_error("--raw does not resolve samples: no annotation "
			    "(drop --raw)");
	/* as perf annotate: the annotation alone on stdout, unless a
	   format of sample lines was asked for as well */
	if (m->annotate && m->format == FORMAT_TEXT)
		m->format = FORMAT_NONE;
	if (m->format == FORMAT_RAW && (exports_any(&m->exports) ||
					exports_every(&m->exports)))
		usage_error("--raw does not resolve samples: no export (drop "
			    "--raw)");
}

/* The target: a TID, -- COMMAND (its first word at argv[first]), or
   -a/-C alone. */
static void target_settle(struct monitor *m, int argc, char **argv,
			  int first)
{
	const char *tid_arg = m->given.tid_arg;
	bool dashes = first < argc && strcmp(argv[first - 1], "--") == 0;

	if (tid_arg && dashes) {
		usage_error("a TID or -- COMMAND, not both ('%s' and '%s')",
			    tid_arg, argv[first]);
	} else if (dashes) {
		m->command = &argv[first];
	} else if (tid_arg && first == argc) {
		int tid;

		if (!parse_int(tid_arg, 1, INT32_MAX, &tid))
			usage_error("'%s' is not a thread id (to run a "
				    "command, put it after --)", tid_arg);
		m->tid = tid;
	} else if (!tid_arg && m->system) {
		/* every task on the CPUs, until a signal */
	} else if (!tid_arg) {
		usage_error("which thread? give a TID, or -- COMMAND");
	} else {
		usage_error("one TID only, not '%s' and '%s' (to run a "
			    "command, put it after --)", tid_arg, argv[first]);
	}
	/* -i: the thread alone, whatever the order; -p's process keeps
	   every thread */
	if (m->given.no_inherit && !m->given.pid)
		m->all_threads = false;
	if (m->system && tid_arg)
		usage_error("-a/-C sample every task on the CPUs, not thread "
			    "%s (drop one of them)", tid_arg);
	if (m->system && m->legacy)
		usage_error("--legacy samples one thread: not -a/-C (drop "
			    "one of them)");
}

void options_parse(struct monitor *m, int argc, char **argv)
{
	int first;

	nall = perf_options_table(PERF_RECORD, options, NOPTIONS, all_options,
				  sizeof(all_options) / sizeof(all_options[0]),
				  &first_perf);
	/* options may follow the TID too (monitor 4242 -n 10); everything
	   after -- is the command's */
	for (;;) {
		first = usage_parse(all_options, nall, argc, argv, true, m,
				    opt_code);
		if (first == argc || m->given.tid_arg ||
		    strcmp(argv[first - 1], "--") == 0)
			break;
		m->given.tid_arg = argv[first];
		optind = first + 1;
	}
	options_check(m);
	target_settle(m, argc, argv, first);
	/* perf script's defaults, a tracepoint's its own; --fields is
	   for every event */
	m->script_tp_fields = m->script_fields ? m->script_fields :
			      SF_TRACEPOINT;
	if (!m->script_fields)
		m->script_fields = SF_DEFAULT | (m->system ? SF_CPU : 0);
	if (m->summary_only)
		m->format = FORMAT_NONE;
	if (m->given.dry_run)
		exit(0);
}
