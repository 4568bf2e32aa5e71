/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcstat.c - perf-stat-compatible counting: options, checks, main. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/die.h"
#include "util/parse.h"
#include "util/usage.h"
#include "util/xmalloc.h"
#include "events.h"
#include "list.h"
#include "openmetrics.h"
#include "print.h"
#include "run.h"

enum {
	OPT_INTERVAL_COUNT = 256, OPT_TIMEOUT, OPT_PER_THREAD, OPT_TABLE,
	OPT_APPEND, OPT_LEGACY, OPT_OPENMETRICS,
};

/* The options, with their help lines: one table for getopt and --help. */
static const struct opt_def opts[] = {
	{ "event", 'e', 'e', "EVENTS", "events to count: names, rNNNN, :u/:k, a,b,{c,d}; 'list' lists them" },
	{ "pid", 'p', 'p', "PID,..", "count running processes (all their threads)" },
	{ "tid", 't', 't', "TID,..", "count running threads" },
	{ "all-cpus", 'a', 'a', NULL, "count system-wide, on every CPU" },
	{ "cpu", 'C', 'C', "LIST", "count on these CPUs (0-3,5)" },
	{ "repeat", 'r', 'r', "N", "run the command N times: mean +- noise, median" },
	{ "interval-print", 'I', 'I', "MS", "print counts every MS milliseconds (>= 10)" },
	{ "interval-count", 0, OPT_INTERVAL_COUNT, "N", "stop after N intervals" },
	{ "timeout", 0, OPT_TIMEOUT, "MS", "stop after MS milliseconds" },
	{ "field-separator", 'x', 'x', "SEP", "CSV output, fields separated by SEP" },
	{ "json", 'j', 'j', NULL, "JSON output, one object per line" },
	{ "output", 'o', 'o', "FILE", "write the counts to FILE instead of stderr" },
	{ "append", 0, OPT_APPEND, NULL, "with -o, append to FILE" },
	{ "openmetrics", 0, OPT_OPENMETRICS, "FILE", "with -I, rewrite FILE each interval: OpenMetrics totals (node_exporter)" },
	{ "no-aggr", 'A', 'A', NULL, "with -a/-C, one line per CPU" },
	{ "per-thread", 0, OPT_PER_THREAD, NULL, "with -p/-t, one line per thread" },
	{ "no-inherit", 'i', 'i', NULL, "do not count the command's children" },
	{ "delay", 'D', 'D', "MS", "start counting MS milliseconds after the command" },
	{ "detailed", 'd', 'd', NULL, "add the cache events" },
	{ "table", 0, OPT_TABLE, NULL, "with -r, show every run and each event's median/min/max" },
	{ "quiet", 'q', 'q', NULL, "print no counts (exit status only)" },
	{ "legacy", 0, OPT_LEGACY, NULL, "use the 2008 perf_counter_open call (patched kernel)" },
	{ "help", 'h', 'h', NULL, "show this help" },
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static void help(void)
{
	usage_print(stdout,
		    "usage: pcstat [options] [--] command [args...]\n"
		    "       pcstat [options] -p PID | -t TID | -a | -C LIST\n"
		    "       pcstat list",
		    opts, NOPTS,
		    "Exit status: the command's; 128+N if a signal N killed it; "
		    "2 for bad usage.\nSee pcstat(1).");
	exit(0);
}

static unsigned parse_ms(const char *opt, const char *s, unsigned min)
{
	uint64_t v;

	if (!parse_u64(s, min, 24ull * 3600 * 1000, &v))
		usage_error("%s needs a number of milliseconds >= %u, not '%s'",
			    opt, min, s);
	return (unsigned)v;
}

/* -p/-t: every listed task must exist and be ours to watch. */
static void parse_tasks(struct config *cfg, const char *s, bool whole)
{
	char *copy = xstrdup(s), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int pid;
		pid_t *t = NULL;
		int n;

		if (!parse_int(tok, 1, 0x7fffffff, &pid))
			usage_error("-%c needs process ids, not '%s'",
				    whole ? 'p' : 't', tok);
		if (kill(pid, 0) < 0 && errno == ESRCH)
			die_status(2, "no process with id %d (is it still "
				   "running?)", pid);
		if (kill(pid, 0) < 0 && errno == EPERM && geteuid() != 0)
			die_status(2, "process %d belongs to another user "
				   "(run pcstat as its owner or as root)", pid);
		if (whole) {
			n = pc_task_threads(pid, &t);
			if (n < 0)
				die_status(2, "no process with id %d (is it "
					   "still running?)", pid);
		} else {
			n = 1;
			t = xmalloc(sizeof(*t));
			t[0] = pid;
		}
		cfg->tids = xreallocarray(cfg->tids, cfg->ntids + n,
					  sizeof(*cfg->tids));
		memcpy(cfg->tids + cfg->ntids, t, n * sizeof(*t));
		cfg->ntids += n;
		free(t);
	}
	free(copy);
	if (cfg->ntids == 0)
		usage_error("-%c needs process ids", whole ? 'p' : 't');
}

static void parse_cpus(struct config *cfg, const char *s)
{
	int *online, *cpus, n, nonline;
	char list[256] = "";

	n = pc_cpulist_parse(s, &cpus, NULL);
	if (n <= 0)
		usage_error("-C needs a CPU list such as 0-3,5, not '%s'", s);
	nonline = pc_cpus_online(&online);
	for (int i = 0; i < n; i++) {
		bool ok = false;

		for (int j = 0; j < nonline; j++)
			ok |= online[j] == cpus[i];
		if (!ok) {
			for (int j = 0; j < nonline; j++)
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list), "%s%d",
					 j ? "," : "", online[j]);
			die_status(2, "CPU %d is not online (online CPUs: %s)",
				   cpus[i], list);
		}
	}
	free(online);
	cfg->cpus = cpus;
	cfg->ncpus = (size_t)n;
}

/*
 * --openmetrics: every series must be unique (a collector rejects the
 * file otherwise), and the file writable before counting starts.
 */
static void check_openmetrics(const struct config *cfg)
{
	for (size_t i = 0; i < cfg->events.nr; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(cfg->events.ev[i].name,
				   cfg->events.ev[j].name) == 0)
				usage_error("--openmetrics: event '%s' given "
					    "twice (each is one series)",
					    cfg->events.ev[i].name);
	for (size_t i = 0; cfg->aggr == AGGR_THREAD && i < cfg->ntids; i++)
		for (size_t j = 0; j < i; j++)
			if (cfg->tids[i] == cfg->tids[j])
				usage_error("--openmetrics: thread %d given "
					    "twice (each is one series)",
					    (int)cfg->tids[i]);
	if (om_check_path(cfg->openmetrics) < 0)
		die("cannot write '%s': %s", cfg->openmetrics,
		    strerror(errno));
}

static void parse_args(struct config *cfg, int argc, char **argv)
{
	struct option lopts[NOPTS + 1];
	char sopts[OPTS_SHORT_SIZE(NOPTS)];
	const char *out_path = NULL;
	bool append = false;
	int c, tmp;

	usage_getopt(opts, NOPTS, lopts, sopts, true);
	cfg->run_count = 1;
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (strcmp(optarg, "list") == 0) {
				list_events(stdout);
				exit(0);
			}
			events_add(&cfg->events, optarg);
			break;
		case 'p': cfg->pid_str = optarg; parse_tasks(cfg, optarg, true); break;
		case 't': cfg->tid_str = optarg; parse_tasks(cfg, optarg, false); break;
		case 'a': cfg->system_wide = true; break;
		case 'C': cfg->cpu_str = optarg; parse_cpus(cfg, optarg); break;
		case 'r':
			if (!parse_int(optarg, 1, 1000000, &tmp))
				usage_error("-r needs a run count >= 1, not '%s'",
					    optarg);
			cfg->run_count = tmp;
			break;
		case 'I': cfg->interval_ms = parse_ms("-I", optarg, 10); break;
		case OPT_INTERVAL_COUNT:
			if (!parse_int(optarg, 1, 0x7fffffff, &tmp))
				usage_error("--interval-count needs a number of "
					    "intervals >= 1, not '%s'", optarg);
			cfg->interval_count = (unsigned)tmp;
			break;
		case OPT_TIMEOUT: cfg->timeout_ms = parse_ms("--timeout", optarg, 1); break;
		case 'x':
			/* `-x -- cmd` would take "--" as the separator. */
			if (*optarg == '\0' || strcmp(optarg, "--") == 0)
				usage_error("-x needs a separator, e.g. -x,");
			cfg->sep = optarg;
			cfg->fmt = FMT_CSV;
			break;
		case 'j': cfg->fmt = FMT_JSON; break;
		case 'o': out_path = optarg; break;
		case OPT_APPEND: append = true; break;
		case OPT_OPENMETRICS: cfg->openmetrics = optarg; break;
		case 'A': cfg->aggr = AGGR_CPU; break;
		case OPT_PER_THREAD: cfg->aggr = AGGR_THREAD; break;
		case 'i': cfg->no_inherit = true; break;
		case 'D': cfg->delay_ms = parse_ms("-D", optarg, 0); break;
		case 'd': cfg->detailed = true; break;
		case OPT_TABLE: cfg->table = true; break;
		case 'q': cfg->quiet = true; break;
		case OPT_LEGACY: cfg->legacy = true; break;
		case 'h': help(); break;
		default:
			if (c == ':' && optopt == 'x')
				usage_error("-x needs a separator, e.g. -x,");
			usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		cfg->argv = argv + optind;
	else if (optind > 1 && strcmp(argv[optind - 1], "--") == 0)
		usage_error("missing command after '--'");

	if ((cfg->system_wide || cfg->cpus) && cfg->tids)
		usage_error("-a/-C and -p/-t exclude each other");
	if (!cfg->argv && !cfg->tids && !cfg->system_wide && !cfg->cpus)
		usage_error("missing command: pcstat [options] -- command, "
			    "or -p PID, -t TID, -a, -C LIST");
	if (cfg->argv && cfg->tids)
		usage_error("give either a command or -p/-t, not both");
	if (cfg->run_count > 1 && !cfg->argv)
		usage_error("-r needs a command to repeat");
	if (cfg->run_count > 1 && cfg->interval_ms)
		usage_error("-r and -I exclude each other");
	if (cfg->interval_count && !cfg->interval_ms)
		usage_error("--interval-count needs -I");
	if (cfg->openmetrics && !cfg->interval_ms)
		usage_error("--openmetrics needs -I, the interval at which it "
			    "rewrites the file");
	if (cfg->aggr == AGGR_CPU && !cfg->system_wide && !cfg->cpus)
		usage_error("-A needs -a or -C");
	if (cfg->aggr == AGGR_THREAD && !cfg->tids)
		usage_error("--per-thread needs -p or -t");
	if (cfg->system_wide && !cfg->cpus) {
		int n = pc_cpus_online(&cfg->cpus);

		if (n <= 0)
			die("cannot read the online CPUs");
		cfg->ncpus = (size_t)n;
	}
	if (cfg->legacy && !pc_probe()->legacy)
		die_status(2, "--legacy needs a kernel with pctools' "
			   "perf_counter_open patch (none here: drop --legacy)");
	if (cfg->events.nr == 0)
		events_add_default(&cfg->events, cfg->cpus != NULL);
	if (cfg->detailed)
		events_add_detailed(&cfg->events);
	if (cfg->openmetrics)
		check_openmetrics(cfg);

	cfg->out = stderr;
	if (out_path) {
		time_t t = time(NULL);
		char date[64];

		cfg->out = fopen(out_path, append ? "ae" : "we");
		if (cfg->out == NULL)
			die_status(2, "cannot write '%s': %s (does its directory "
				   "exist?)", out_path, strerror(errno));
		cfg->out_file = true;
		/* perf starts its files so. */
		strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y",
			 localtime(&t));
		fprintf(cfg->out, "# started on %s\n\n", date);
	}
}

/* Say once what the 2008 call cannot do that the command line asked for. */
static void legacy_notices(const struct config *cfg)
{
	bool groups = false;

	for (size_t e = 0; e < cfg->events.nr; e++)
		groups |= cfg->events.ev[e].group >= 0;
	if (!cfg->no_inherit && !cfg->cpus)
		warn_msg("the 2008 perf_counter_open does not follow "
			 "children: counting %s alone (drop --legacy and "
			 "PCTOOLS_BACKEND=legacy to count them)",
			 cfg->argv ? "the command" : "the listed threads");
	if (groups)
		warn_msg("the 2008 perf_counter_open has no groups: counting "
			 "the members of {...} one by one, not in one read");
}

int main(int argc, char **argv)
{
	struct config cfg = { 0 };
	struct run_result res = { 0 };
	struct stats st;
	struct cset cs;
	int status = 0;

	set_progname(argv[0]);
	if (argc > 1 && strcmp(argv[1], "list") == 0) {
		list_events(stdout);
		return 0;
	}
	parse_args(&cfg, argc, argv);
	/* The human layout follows the user's locale, as perf stat's does
	   ("1,234,567" in en_US).  CSV and JSON stay in the C locale:
	   perf's "1,5" under de_DE breaks the very parsers they exist for. */
	if (cfg.fmt == FMT_STD)
		setlocale(LC_NUMERIC, "");
	cfg.backend = cset_backend(cfg.legacy);
	if (cfg.backend == PC_BACKEND_LEGACY && !cfg.quiet)
		legacy_notices(&cfg);
	run_signals_init();
	stats_init(&st, cfg.events.nr,
		   cfg.aggr == AGGR_CPU ? cfg.ncpus :
		   cfg.aggr == AGGR_THREAD ? cfg.ntids : 1,
		   (unsigned)cfg.run_count);
	for (int r = 0; r < cfg.run_count; r++) {
		run_once(&cfg, &cs, &st, &res);
		status = res.status;
		if (!cfg.interval_ms)
			stats_add_run(&st, &cs, NULL, cfg.aggr, res.wall_ns);
		if (res.interrupted || r == cfg.run_count - 1) {
			if (!cfg.interval_ms && !cfg.quiet)
				print_counts(&cfg, &cs, &st, &res, false, 0);
			cset_release(&cs);
			break;
		}
		cset_release(&cs);
	}
	stats_release(&st);
	pc_event_list_release(&cfg.events);
	free(cfg.tids);
	free(cfg.cpus);
	if (cfg.out_file && fclose(cfg.out) != 0)
		die_errno("cannot write the output file");
	return status;
}
