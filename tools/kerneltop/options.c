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
	OPT_COMMS, OPT_DSOS, OPT_SYMBOLS, OPT_PERCENTAGE, OPT_TOTAL_PERIOD,
	OPT_NR_SAMPLES, OPT_FIELDS, OPT_GROUP, OPT_GROUP_SORT_IDX, OPT_HIERARCHY,
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
	{ "sort", 's', 's', "KEYS",
	  "group by sym,dso,comm,pid,tid,cpu,socket,srcline,parent" },
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
	{ "period", KT_COL_PERIOD },
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

#define KEY_NAMES "sym, dso, comm, pid, tid, cpu, socket, srcline, parent"

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

static unsigned parse_sort(struct kt_options *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	unsigned keys = 0, k;

	o->nkey_order = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		k = sort_key(tok);
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
				    "period, " KEY_NAMES ")", tok);
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

void options_parse(struct kt_options *o, int argc, char **argv)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[OPTS_SHORT_SIZE(NOPTIONS)];
	unsigned field_keys = 0, field_order[KT_NKEYS], nfield_order = 0;
	uint64_t sort_idx = 0;
	bool fields = false, total_period = false, nr_samples = false;
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
			o->period_set = true;
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
	/* perf: --fields' sort keys are the rows' keys, unless -s says */
	if (!o->keys) {
		o->keys = field_keys;
		memcpy(o->key_order, field_order, sizeof(field_order));
		o->nkey_order = nfield_order;
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
	if (!isatty(STDOUT_FILENO))
		o->batch = true;
}

void options_release(struct kt_options *o)
{
	pc_event_list_release(&o->events);
	free(o->ids);
	free(o->cpus);
}
