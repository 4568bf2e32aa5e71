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

/* The options, one table: getopt's and --help's. */
static const struct opt_def options[] = {
	{ "count", 'c', 'c', "COUNT", "sample every COUNT events (default: 4000 Hz for clocks and hardware events, else 10000)" },
	{ "freq", 'F', 'F', "HZ", "sample HZ times a second instead" },
	{ "event", 'e', 'e', "EVENT", "events to sample, a list or repeated (default cycles, else cpu-clock)" },
	{ "kernel", 'k', 'k', NULL, "kernel samples only" },
	{ "user", 'u', 'u', NULL, "user samples only" },
	{ "samples", 'n', 'n', "N", "stop after N samples (and end the command)" },
	{ "debug-file", 'd', 'd', "FILE", "read symbols of the target's executable from FILE" },
	{ "call-chains", 'g', 'g', NULL, "print each sample's call chain (= --call-graph fp)" },
	{ "call-graph", 0, OPT_CALL_GRAPH, "MODE", "call chains by fp, or dwarf[,SIZE] (stack copy, default 8192)" },
	{ "off-cpu", 0, OPT_OFF_CPU, NULL, "also the time threads spend off the CPU, and where they wait (implies -g)" },
	EXPORT_OPT_ROWS(OPT_EXPORT),
	{ "raw", 0, OPT_RAW, NULL, "print the 2008 demo's 'IP: 0x...' lines" },
	{ "json", 0, OPT_JSON, NULL, "print one JSON object per sample" },
	{ "script", 0, OPT_SCRIPT, NULL, "print perf script's sample lines (and chains)" },
	{ "fields", 0, OPT_FIELDS, "LIST", "--script with perf script -F's fields (comm,tid,ip,sym...)" },
	{ "metric", 0, OPT_METRIC, "RATE", "with -e '{LEADER,MEMBER,...}:S': a rate column per function in the summary, with its 95% interval: EVENT (per sample), EVENT/ms, EVENT/EVENT2, EVENT/kEVENT2, ipc (repeatable)" },
	{ "summary", 0, OPT_SUMMARY, NULL, "print only the summary table, on stdout" },
	{ "annotate", 0, OPT_ANNOTATE, "SYM", "at the end, SYM's instructions with their samples (perf annotate --stdio)" },
	{ "top", 0, OPT_TOP, "N", "functions in the summary (default 20)" },
	{ "all-threads", 0, OPT_ALL_THREADS, NULL, "sample every thread of the process, new ones too" },
	{ "pid", 'p', 'p', "PID", "sample process PID: every thread (= PID --all-threads)" },
	{ "tid", 't', 't', "TID", "sample thread TID (= TID)" },
	{ "all-cpus", 'a', 'a', NULL, "sample every task on every CPU (until the command ends, or a signal)" },
	{ "cpu", 'C', 'C', "CPUS", "sample every task on these CPUs (0,2-3)" },
	{ "no-inherit", 'i', 'i', NULL, "the thread alone, not the threads it creates (the default)" },
	{ "all-kernel", 0, 'k', NULL, "= -k" },
	{ "all-user", 0, 'u', NULL, "= -u" },
	{ "mmap-pages", 'm', 'm', "PAGES", "data pages per ring buffer, or a size (512K, 2M)" },
	{ "realtime", 'r', 'r', "PRIO", "read the samples at SCHED_FIFO priority PRIO" },
	{ "quiet", 'q', 'q', NULL, "no notices, and no summary on standard error" },
	{ "strict-freq", 0, OPT_STRICT_FREQ, NULL, "refuse -F above the kernel's limit (else lowered to it)" },
	{ "dry-run", 0, OPT_DRY_RUN, NULL, "check the options, then exit" },
	{ "legacy", 0, OPT_LEGACY, NULL, "use the 2008 perf_counter_open call (patched kernel)" },
	{ "help", 'h', 'h', NULL, "this help" },
	{ "version", 'V', 'V', NULL, "print the version" },
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

void options_parse(struct monitor *m, int argc, char **argv)
{
	struct option longopts[sizeof(all_options) / sizeof(all_options[0]) +
			       1];
	char shortopts[OPTS_SHORT_SIZE(sizeof(all_options) /
				       sizeof(all_options[0]))];
	const char *tid_arg = NULL;
	bool dry_run = false, no_inherit = false, pid_given = false;
	uint64_t top;
	int c;

	nall = perf_options_table(PERF_RECORD, options, NOPTIONS, all_options,
				  sizeof(all_options) / sizeof(all_options[0]),
				  &first_perf);
	usage_getopt(all_options, nall, longopts, shortopts, true);
	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		/* options may follow the TID too (monitor 4242 -n 10);
		   everything after -- is the command's */
		if (c == -1 && optind < argc && !tid_arg &&
		    strcmp(argv[optind - 1], "--") != 0) {
			tid_arg = argv[optind++];
			continue;
		}
		if (c == -1)
			break;
		switch (c) {
		case 'c':
			m->period = sample_arg_period(optarg);
			m->period_set = m->period != 0;
			if (!m->period_set)
				m->period = DEFAULT_PERIOD;
			break;
		case 'F':
			m->freq = sample_arg_freq_max(optarg);
			m->freq_set = true;
			break;
		case 'e':
			/* the one parser (and its messages) every tool's -e
			   goes through; repeated -e add up */
			events_add(&m->events, optarg);
			break;
		case 'k':
		case 'u':
			if (m->space != SPACE_ALL &&
			    m->space != (c == 'k' ? SPACE_KERNEL : SPACE_USER))
				usage_error("-k and -u exclude each other (give "
					    "neither for both)");
			m->space = c == 'k' ? SPACE_KERNEL : SPACE_USER;
			break;
		case 'n':
			if (!parse_u64(optarg, 1, UINT64_MAX, &m->max_samples))
				usage_error("-n wants a number >= 1, not '%s'",
					    optarg);
			break;
		case OPT_METRIC:
			if (m->nmetric_args == METRICS_MAX)
				usage_error("at most %d --metric", METRICS_MAX);
			m->metric_args[m->nmetric_args++] = optarg;
			break;
		case 'd': m->debug_file = optarg; break;
		case 'g': m->callgraph = FEED_CG_FP; break;
		case OPT_CALL_GRAPH:
			callgraph_parse(optarg, &m->callgraph, &m->stack_size);
			break;
		case OPT_RAW: m->format = FORMAT_RAW; break;
		case OPT_JSON: m->format = FORMAT_JSON; break;
		case OPT_SCRIPT: m->format = FORMAT_SCRIPT; break;
		case OPT_FIELDS:
			m->script_fields = script_fields_parse(optarg);
			m->format = FORMAT_SCRIPT;
			break;
		case OPT_SUMMARY: m->summary_only = true; break;
		case OPT_ANNOTATE: m->annotate = optarg; break;
		case OPT_TOP:
			if (!parse_u64(optarg, 1, 100000, &top))
				usage_error("--top wants a number, not '%s'",
					    optarg);
			m->top = (unsigned)top;
			break;
		case OPT_ALL_THREADS: m->all_threads = true; break;
		case 'p':
			tid_arg = one_id(optarg, 'p');
			m->all_threads = pid_given = true;
			break;
		case 't': tid_arg = one_id(optarg, 't'); break;
		case 'a': m->system = true; break;
		case 'C':
			free(m->cpus);
			m->cpus = NULL;
			target_arg_cpus(optarg, &m->cpus, &m->ncpus);
			m->system = true;
			break;
		case 'i': no_inherit = true; break;
		case 'm': m->ring_pages = sample_arg_ring_pages(optarg); break;
		case 'r': m->rt_prio = sample_arg_realtime(optarg); break;
		case 'q': m->quiet = true; break;
		case OPT_STRICT_FREQ: m->strict_freq = true; break;
		case OPT_DRY_RUN: dry_run = true; break;
		case OPT_EXPORT ... OPT_EXPORT + EXPORT_OPT_NIDS - 1:
			exports_option(&m->exports, c, OPT_EXPORT, optarg);
			break;
		case OPT_LEGACY: m->legacy = true; break;
		case OPT_OFF_CPU: m->off_cpu = true; break;
		case 'h': usage(); break;
		case 'V': printf("monitor (%s) %s\n", PACKAGE_NAME,
				 PACKAGE_VERSION);
			exit(0);
		default:
			if (!perf_option_taken(PERF_RECORD, all_options, nall,
					       c, optarg, m->quiet))
				usage_bad_option(c, argv);
		}
	}
	if (m->period_set && m->freq_set)
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
	if (tid_arg && optind < argc &&
	    strcmp(argv[optind - 1], "--") == 0) {
		usage_error("a TID or -- COMMAND, not both ('%s' and '%s')",
			    tid_arg, argv[optind]);
	} else if (optind < argc && strcmp(argv[optind - 1], "--") == 0) {
		m->command = &argv[optind];
	} else if (tid_arg && optind == argc) {
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
			    "command, put it after --)", tid_arg, argv[optind]);
	}
	/* -i: the thread alone, whatever the order; -p's process keeps
	   every thread */
	if (no_inherit && !pid_given)
		m->all_threads = false;
	if (m->system && tid_arg)
		usage_error("-a/-C sample every task on the CPUs, not thread "
			    "%s (drop one of them)", tid_arg);
	if (m->system && m->legacy)
		usage_error("--legacy samples one thread: not -a/-C (drop "
			    "one of them)");
	/* perf script's defaults, a tracepoint's its own; --fields is
	   for every event */
	m->script_tp_fields = m->script_fields ? m->script_fields :
			      SF_TRACEPOINT;
	if (!m->script_fields)
		m->script_fields = SF_DEFAULT | (m->system ? SF_CPU : 0);
	if (m->summary_only)
		m->format = FORMAT_NONE;
	if (dry_run)
		exit(0);
}
