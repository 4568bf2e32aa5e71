/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c - kerneltop's command line, one table for getopt and --help. */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/opts.h"
#include "kerneltop.h"
#include "sampling-cli/callgraph.h"
#include "sampling-cli/sample-args.h"
#include "util/die.h"
#include "util/events.h"
#include "util/parse.h"
#include "util/target-args.h"
#include "util/usage.h"
#include "util/xmalloc.h"

enum {
	OPT_PERCENT_LIMIT = 256, OPT_STDIO, OPT_CALL_GRAPH,
	OPT_EXPORT,		/* + enum export_format */
};

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
	{ "sort", 's', 's', "KEYS", "group by sym,dso,comm,pid,tid" },
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
	{ "call-graph", 0, OPT_CALL_GRAPH, "MODE",
	  "call chains by fp, or dwarf[,SIZE] (stack copy)" },
	EXPORT_OPT_ROWS(OPT_EXPORT),
	{ "help", 'h', 'h', NULL, "this help" },
	{ "version", 'V', 'V', NULL, "print the version" },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* The -s keys, as perf spells them. */
static const struct sort_key {
	const char *name;
	unsigned key;
} sort_keys[] = {
	{ "sym", TOP_KEY_SYM }, { "symbol", TOP_KEY_SYM },
	{ "dso", TOP_KEY_DSO }, { "comm", TOP_KEY_COMM },
	{ "pid", TOP_KEY_PID }, { "tid", TOP_KEY_TID },
};

static unsigned parse_sort(const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	unsigned keys = 0;
	size_t i;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(sort_keys) / sizeof(sort_keys[0]); i++)
			if (strcmp(tok, sort_keys[i].name) == 0)
				break;
		if (i == sizeof(sort_keys) / sizeof(sort_keys[0]))
			usage_error("unknown sort key '%s' (use sym, dso, "
				    "comm, pid or tid)", tok);
		keys |= sort_keys[i].key;
	}
	free(copy);
	if (!keys)
		usage_error("-s wants keys, e.g. -s comm,sym");
	return keys;
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

void options_parse(struct kt_options *o, int argc, char **argv)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[OPTS_SHORT_SIZE(NOPTIONS)];
	uint64_t v;
	int c;

	*o = (struct kt_options){ .freq = KT_DEFAULT_FREQ, .delay = 2.0 };
	usage_getopt(options, NOPTIONS, longopts, shortopts, 0);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'e': events_add(&o->events, optarg); break;
		case 'F':
			o->freq = sample_arg_freq(optarg);
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
		case 's': o->keys = parse_sort(optarg); break;
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
			callgraph_parse(optarg, &o->callgraph, &o->stack_size);
			break;
		case OPT_EXPORT ... OPT_EXPORT + EXPORT_FORMAT_MAX - 1:
			exports_option(&o->exports, c, OPT_EXPORT, optarg);
			break;
		case 'h':
			usage_print(stdout, "kerneltop [options]", options,
				    NOPTIONS, "Keys: press h in kerneltop. "
				    "See kerneltop(1).");
			exit(0);
		case 'V':
			printf("kerneltop (%s) %s\n", PACKAGE_NAME,
			       PACKAGE_VERSION);
			exit(0);
		default:
			usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (kerneltop takes no "
			    "command; to watch one, start it and use -p)",
			    argv[optind]);
	if (o->period_set && o->freq_set)
		usage_error("-c and -F exclude each other");
	if (o->events.nr > KT_MAX_EVENTS)
		usage_error("at most %d events at once", KT_MAX_EVENTS);
	if (!o->keys)
		o->keys = TOP_KEY_SYM;
	exports_check(&o->exports);
	if (!isatty(STDOUT_FILENO))
		o->batch = true;
}

void options_release(struct kt_options *o)
{
	pc_event_list_release(&o->events);
	free(o->ids);
	free(o->cpus);
}
