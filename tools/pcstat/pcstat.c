/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcstat.c - perf-stat-compatible counting: options, checks, main. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic-file.h"
#include "base/words.h"
#include "util/die.h"
#include "util/fd-limit.h"
#include "util/spawn.h"
#include "util/output.h"
#include "util/parse.h"
#include "util/target-args.h"
#include "util/task.h"
#include "util/usage.h"
#include "util/xmalloc.h"
#include "cgroup.h"
#include "events.h"
#include "list.h"
#include "openmetrics.h"
#include "print.h"
#include "run.h"
#include "ticks.h"
#include "topology.h"

enum {
	OPT_INTERVAL_COUNT = 256, OPT_TIMEOUT, OPT_PER_THREAD, OPT_TABLE,
	OPT_APPEND, OPT_LEGACY, OPT_OPENMETRICS,
	OPT_CONTROL = 300,
	OPT_JSON_OUTPUT = 310, OPT_ALL_USER, OPT_ALL_KERNEL, OPT_NO_SCALE,
	OPT_NO_BIG_NUM, OPT_SCALE,
	OPT_PRE = 320, OPT_POST,
	OPT_PER_SOCKET = 330, OPT_PER_DIE, OPT_PER_CORE, OPT_PER_NODE,
	OPT_SUMMARY = 340, OPT_NO_CSV_SUMMARY, OPT_LOG_FD,
	OPT_FOR_EACH_CGROUP = 350, OPT_INTERVAL_CLEAR, OPT_PER_CACHE,
	OPT_MUX_TICK = 360,
};

#define MS_MAX (24u * 3600 * 1000)	/* a day */

static unsigned parse_ms(const char *opt, const char *s, unsigned min)
{
	uint64_t v;

	if (!parse_u64(s, min, MS_MAX, &v))
		usage_error("%s needs a number of milliseconds from %u to %u "
			    "(a day), not '%s'", opt, min, MS_MAX, s);
	return (unsigned)v;
}

/* -p/-t: every listed task must exist and be ours to watch. */
static void parse_tasks(struct config *cfg, const char *s, bool whole)
{
	pid_t *ids = NULL;
	size_t nids = 0;

	target_arg_ids(s, whole ? 'p' : 't', &ids, &nids);
	for (size_t k = 0; k < nids; k++) {
		pid_t pid = ids[k], *t = NULL;
		int n;

		if (kill(pid, 0) < 0 && errno == ESRCH)
			die_status(2, "no process with id %d (is it still "
				   "running?)", pid);
		if (task_is_others(pid))
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
		/* -t X,X or -p X,X: one target, counted once */
		for (int i = 0; i < n; i++)
			ids_add_once(&cfg->tids, &cfg->ntids, t[i]);
		free(t);
	}
	free(ids);
}

/* The rows' calls: an option that is more than a store. */
static void opt_event(void *p, const char *arg)
{
	struct config *cfg = p;

	if (strcmp(arg, "list") == 0) {
		list_events(stdout, NULL);
		exit(0);
	}
	events_add(&cfg->events, arg);
}

static void opt_pid(void *p, const char *arg)
{
	struct config *cfg = p;

	cfg->pid_str = arg;
	parse_tasks(cfg, arg, true);
}

static void opt_tid(void *p, const char *arg)
{
	struct config *cfg = p;

	cfg->tid_str = arg;
	parse_tasks(cfg, arg, false);
}

static void opt_cpu(void *p, const char *arg)
{
	struct config *cfg = p;

	cfg->cpu_str = arg;
	target_arg_cpus(arg, &cfg->cpus, &cfg->ncpus);
}

static void opt_interval(void *p, const char *arg)
{
	((struct config *)p)->interval_ms = parse_ms("-I", arg, 10);
}

static void opt_mux_tick(void *p, const char *arg)
{
	((struct config *)p)->mux_tick_ms = parse_ms("--mux-tick", arg, 0);
}

static void opt_timeout(void *p, const char *arg)
{
	((struct config *)p)->timeout_ms = parse_ms("--timeout", arg, 10);
}

static void opt_separator(void *p, const char *arg)
{
	struct config *cfg = p;

	/* `-x -- cmd` would take "--" as the separator. */
	if (*arg == '\0' || strcmp(arg, "--") == 0)
		usage_error("-x needs a separator, e.g. -x,");
	cfg->sep = arg;
	cfg->fmt = FMT_CSV;
	cfg->given.csv = true;
}

static void opt_delay(void *p, const char *arg)
{
	struct config *cfg = p;

	/* perf's -D -1: counting waits for --control's enable */
	if (strcmp(arg, "-1") == 0)
		cfg->start_disabled = true;
	else
		cfg->delay_ms = parse_ms("-D", arg, 0);
}

/* -B and --no-big-num: the last one given counts (-B's check) */
static void opt_big_num(void *p, const char *arg)
{
	struct config *cfg = p;

	(void)arg;
	cfg->no_big_num = false;
	cfg->given.big_num = true;
}

static void opt_no_big_num(void *p, const char *arg)
{
	struct config *cfg = p;

	(void)arg;
	cfg->no_big_num = true;
	cfg->given.big_num = false;
}

/* --per-cache[=LN]: arg NULL when no level is given */
static void opt_per_cache(void *p, const char *arg)
{
	struct config *cfg = p;
	int level;

	cfg->aggr = AGGR_CACHE;
	cfg->cache_level = 0;
	/* later perf's words and form: L1 to L4 */
	if (arg && ((arg[0] != 'L' && arg[0] != 'l') ||
		    !parse_int(arg + 1, 1, 4, &level) || strlen(arg) != 2))
		usage_error("--per-cache: cache level must be of form L[1-4], "
			    "or l[1-4], not '%s'", arg);
	if (arg)
		cfg->cache_level = level;
}

/* --log-fd: a descriptor open for writing, checked as it is given */
static void opt_log_fd(void *p, const char *arg)
{
	struct config *cfg = p;
	int *fd = &cfg->given.log_fd, flags;

	if (!parse_int(arg, 0, 1 << 20, fd) ||
	    (flags = fcntl(*fd, F_GETFL)) < 0)
		usage_error("--log-fd needs an open file descriptor, not '%s'",
			    arg);
	if ((flags & O_ACCMODE) == O_RDONLY)
		usage_error("--log-fd %d is open for reading only (open it "
			    "for writing: %d>FILE)", *fd, *fd);
}

static void opt_cgroup(void *p, const char *arg)
{
	cgroup_parse(p, arg);
}

/*
 * The options, with their help lines and what each does: one table for
 * getopt, --help and usage_parse().
 */
static const struct opt_def opts[] = {
	{ "event", 'e', 'e', "EVENTS", "events to count: names, rNNNN, :u/:k, a,b,{c,d}; 'list' lists them",
	  OPT_CALL(opt_event) },
	{ "pid", 'p', 'p', "PID,..", "count running processes (all their threads)",
	  OPT_CALL(opt_pid) },
	{ "tid", 't', 't', "TID,..", "count running threads",
	  OPT_CALL(opt_tid) },
	{ "all-cpus", 'a', 'a', NULL, "count system-wide, on every CPU",
	  OPT_SET(struct config, system_wide, 1) },
	{ "cpu", 'C', 'C', "LIST", "count on these CPUs (0-3,5)",
	  OPT_CALL(opt_cpu) },
	{ "repeat", 'r', 'r', "N", "run the command N times: mean +- noise, median",
	  OPT_NUMBER(struct config, run_count, 1, 1000000,
		     "needs a run count") },
	{ "interval-print", 'I', 'I', "MS", "print counts every MS milliseconds (>= 10)",
	  OPT_CALL(opt_interval) },
	{ "interval-count", 0, OPT_INTERVAL_COUNT, "N", "stop after N intervals",
	  OPT_NUMBER(struct config, interval_count, 1, 0x7fffffff,
		     "needs a number of intervals") },
	{ "interval-clear", 0, OPT_INTERVAL_CLEAR, NULL, "with -I, clear the terminal before each interval",
	  OPT_SET(struct config, interval_clear, 1) },
	{ "mux-tick", 0, OPT_MUX_TICK, "MS", "read multiplexed counters every MS ms (default 10; 0: off) for their 95% intervals",
	  OPT_CALL(opt_mux_tick) },
	{ "timeout", 0, OPT_TIMEOUT, "MS", "stop after MS milliseconds",
	  OPT_CALL(opt_timeout) },
	{ "field-separator", 'x', 'x', "SEP", "CSV output, fields separated by SEP",
	  OPT_CALL(opt_separator) },
	{ "json", 'j', 'j', NULL, "JSON output, one object per line",
	  OPT_SET(struct config, fmt, FMT_JSON) },
	{ "output", 'o', 'o', "FILE", "write the counts to FILE instead of stderr",
	  OPT_STRING(struct config, given.out_path) },
	{ "append", 0, OPT_APPEND, NULL, "with -o, append to FILE",
	  OPT_SET(struct config, given.append, 1) },
	{ "openmetrics", 0, OPT_OPENMETRICS, "FILE", "with -I, rewrite FILE each interval: OpenMetrics totals (node_exporter)",
	  OPT_STRING(struct config, openmetrics) },
	{ "no-aggr", 'A', 'A', NULL, "with -a/-C, one line per CPU",
	  OPT_SET(struct config, aggr, AGGR_CPU) },
	{ "per-thread", 0, OPT_PER_THREAD, NULL, "with -p/-t, one line per thread",
	  OPT_SET(struct config, aggr, AGGR_THREAD) },
	{ "no-inherit", 'i', 'i', NULL, "do not count the command's children",
	  OPT_SET(struct config, no_inherit, 1) },
	{ "delay", 'D', 'D', "MS", "start counting MS milliseconds after the command (-1: at --control enable)",
	  OPT_CALL(opt_delay) },
	{ "detailed", 'd', 'd', NULL, "add the cache events",
	  OPT_COUNT(struct config, detailed) },
	{ "group", 'g', 'g', NULL, "put all the events in one group, read at once",
	  OPT_SET(struct config, group_all, 1) },
	{ "sync", 'S', 'S', NULL, "call sync() before each run",
	  OPT_SET(struct config, sync_run, 1) },
	{ "table", 0, OPT_TABLE, NULL, "with -r, show every run and each event's median/min/max",
	  OPT_SET(struct config, table, 1) },
	{ "quiet", 'q', 'q', NULL, "print no counts (exit status only)",
	  OPT_SET(struct config, quiet, 1) },
	{ "legacy", 0, OPT_LEGACY, NULL, "use the 2008 perf_counter_open call (patched kernel)",
	  OPT_SET(struct config, legacy, 1) },
	{ "control", 0, OPT_CONTROL, "fifo:CTL[,ACK]", "enable/disable/ping commands from a fifo (or fd:CTL[,ACK])",
	  OPT_STRING(struct config, control) },
	{ "json-output", 0, OPT_JSON_OUTPUT, NULL, "same as -j (perf's long name)",
	  OPT_SET(struct config, fmt, FMT_JSON) },
	{ "all-user", 0, OPT_ALL_USER, NULL, "count every event in user space only (:u)",
	  OPT_SET(struct config, all_user, 1) },
	{ "all-kernel", 0, OPT_ALL_KERNEL, NULL, "count every event in the kernel only (:k)",
	  OPT_SET(struct config, all_kernel, 1) },
	{ "no-scale", 0, OPT_NO_SCALE, NULL, "do not scale multiplexed counts up to the time enabled",
	  OPT_SET(struct config, no_scale, 1) },
	{ "scale", 0, OPT_SCALE, NULL, "scale multiplexed counts (the default; perf's)",
	  OPT_SET(struct config, no_scale, 0) },
	{ "null", 'n', 'n', NULL, "count no events: time the command only",
	  OPT_SET(struct config, null_run, 1) },
	{ "big-num", 'B', 'B', NULL, "group thousands as the locale says (the default)",
	  OPT_CALL(opt_big_num) },
	{ "no-big-num", 0, OPT_NO_BIG_NUM, NULL, "print counts without thousands separators",
	  OPT_CALL(opt_no_big_num) },
	{ "pre", 0, OPT_PRE, "CMD", "run CMD (split into words, no shell) before each run",
	  OPT_STRING(struct config, pre) },
	{ "post", 0, OPT_POST, "CMD", "run CMD (split into words, no shell) after each run",
	  OPT_STRING(struct config, post) },
	{ "per-socket", 0, OPT_PER_SOCKET, NULL, "with -a/-C, one line per socket",
	  OPT_SET(struct config, aggr, AGGR_SOCKET) },
	{ "per-die", 0, OPT_PER_DIE, NULL, "with -a/-C, one line per die",
	  OPT_SET(struct config, aggr, AGGR_DIE) },
	{ "per-core", 0, OPT_PER_CORE, NULL, "with -a/-C, one line per core",
	  OPT_SET(struct config, aggr, AGGR_CORE) },
	{ "per-node", 0, OPT_PER_NODE, NULL, "with -a/-C, one line per NUMA node",
	  OPT_SET(struct config, aggr, AGGR_NODE) },
	{ "per-cache", 0, OPT_PER_CACHE, "[=L1..L4]", "with -a/-C, one line per cache instance (the last level, or LN) (later perf's)",
	  OPT_CALL(opt_per_cache) },
	{ "summary", 0, OPT_SUMMARY, NULL, "with -I, print the whole run's counts at the end",
	  OPT_SET(struct config, summary, 1) },
	{ "no-csv-summary", 0, OPT_NO_CSV_SUMMARY, NULL, "with --summary -x, no 'summary' first field",
	  OPT_SET(struct config, no_csv_summary, 1) },
	{ "log-fd", 0, OPT_LOG_FD, "FD", "write the counts to file descriptor FD",
	  OPT_CALL(opt_log_fd) },
	{ "cgroup", 'G', 'G', "NAME,..", "with -a/-C, count the events before it in these cgroups (Nth name, Nth event)",
	  OPT_CALL(opt_cgroup) },
	{ "for-each-cgroup", 0, OPT_FOR_EACH_CGROUP, "NAME,..", "with -a/-C, count every event in each cgroup",
	  OPT_STRING(struct config, given.each_cgroup) },
	{ "verbose", 'v', 'v', NULL, "print each event's raw count, time enabled and running",
	  OPT_SET(struct config, verbose, 1) },
	{ "help", 'h', 'h', NULL, "show this help",
	  OPT_CODE },
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

/* The rows without a target: --help, and -x given no separator (getopt's
   ':' for it); any other ':' or '?' is usage_bad_option()'s. */
static bool opt_code(void *p, int id, char *arg)
{
	(void)p;
	(void)arg;
	if (id == 'h')
		help();
	if (id == ':' && optopt == 'x')
		usage_error("-x needs a separator, e.g. -x,");
	return false;
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
	if (!*cfg->openmetrics)
		usage_error("--openmetrics needs a file name");
	if (om_check_path(cfg->openmetrics) < 0)
		die("cannot write '%s': %s%s", cfg->openmetrics,
		    output_strerror(errno), output_path_fix(errno));
}

/*
 * -o, --openmetrics and --log-fd's file must be three files: one that
 * rewrites another's would keep only the last.  Asked before -o is made,
 * which replaces the file it names.
 */
static void check_outputs_distinct(const struct config *cfg,
				   const char *out_path, int log_fd)
{
	static const char *const opt[] = { "-o", "--log-fd", "--openmetrics" };
	char fd_path[32];
	const char *path[] = { cfg->quiet ? NULL : out_path, NULL,
			       cfg->openmetrics };

	if (log_fd >= 0) {
		snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", log_fd);
		path[1] = fd_path;
	}
	output_paths_distinct(opt, path, 3);
}

/* What the options need of each other: the targets, the runs, the
   intervals, the layout; no target and no command counts everything. */
static void settle_modes(struct config *cfg)
{
	if ((cfg->system_wide || cfg->cpus) && cfg->tids)
		usage_error("-a/-C and -p/-t exclude each other");
	/* perf: no command and no target counts the whole system until
	   SIGINT; a command beside a target only times the count. */
	if (!cfg->argv && !cfg->tids && !cfg->system_wide && !cfg->cpus)
		cfg->system_wide = true;
	if (cfg->run_count > 1 && !cfg->argv)
		usage_error("-r needs a command to repeat");
	if (cfg->run_count > 1 && cfg->interval_ms)
		usage_error("-r and -I exclude each other");
	/* perf's "-B option not supported with -x", the last of -B and
	   --no-big-num counting. */
	if (cfg->given.csv && cfg->given.big_num)
		usage_error("-B groups thousands in the human layout only, "
			    "not with -x: drop -B");
	if (cfg->table && cfg->run_count == 1)
		usage_error("--table needs -r, the runs it shows");
	if (cfg->interval_count && !cfg->interval_ms)
		usage_error("--interval-count needs -I");
	if (cfg->openmetrics && !cfg->interval_ms)
		usage_error("--openmetrics needs -I, the interval at which it "
			    "rewrites the file");
	if (cfg->aggr == AGGR_CPU && !cfg->system_wide && !cfg->cpus)
		usage_error("-A needs -a or -C");
	if (cfg->aggr == AGGR_THREAD && !cfg->tids)
		usage_error("--per-thread needs -p or -t");
}

/* The CPUs that -a counts on, and their groups for --per-socket and the
   like. */
static void settle_cpus(struct config *cfg)
{
	if (cfg->system_wide && !cfg->cpus) {
		int n = pc_cpus_online(&cfg->cpus);

		if (n <= 0)
			die("cannot read the online CPUs");
		cfg->ncpus = (size_t)n;
	}
	if (topo_mode(cfg->aggr)) {
		if (!cfg->cpus)
			usage_error("%s needs -a or -C (it groups CPUs)",
				    topo_mode(cfg->aggr)->option);
		cfg->unit_slot = xcalloc(cfg->ncpus, sizeof(*cfg->unit_slot));
		cfg->naggr = topo_group(cfg->aggr, cfg->cache_level, cfg->cpus,
					cfg->ncpus,
					&cfg->aggr_ids, cfg->unit_slot);
	}
}

/* What each run needs: --legacy's kernel, --pre and --post's words. */
static void settle_runs(struct config *cfg)
{
	if (cfg->legacy && !pc_probe()->legacy)
		die_status(2, "--legacy needs a kernel with pctools' "
			   "perf_counter_open patch (none here: drop --legacy)");
	if ((cfg->pre || cfg->post) && !cfg->argv)
		usage_error("--pre/--post need a command to run around");
	free(cfg->pre_argv);
	free(cfg->post_argv);
	cfg->pre_argv = cfg->post_argv = NULL;
	if (cfg->pre && words_split(cfg->pre, &cfg->pre_argv) < 0)
		usage_error("--pre needs a command, not '%s' (quotes must "
			    "close)", cfg->pre);
	if (cfg->post && words_split(cfg->post, &cfg->post_argv) < 0)
		usage_error("--post needs a command, not '%s' (quotes must "
			    "close)", cfg->post);
}

/* The events to count: -e's, else the defaults, with -d's and -g's. */
static void settle_events(struct config *cfg)
{
	if (cfg->null_run && cfg->events.nr)
		usage_error("-n counts no events: drop -e or -n");
	if (cfg->all_user && cfg->all_kernel)
		usage_error("--all-user and --all-kernel exclude each other");
	if (cfg->events.nr == 0 && !cfg->null_run)
		events_add_default(&cfg->events, cfg->cpus != NULL);
	if (cfg->detailed && !cfg->null_run)
		events_add_detailed(&cfg->events, cfg->detailed);
	/* perf's -g: one group of every event, the defaults and -d's
	   too, {...} groups merged into it; the first one leads. */
	for (size_t e = 0; cfg->group_all && e < cfg->events.nr; e++) {
		cfg->events.ev[e].group = 0;
		cfg->events.ev[e].leader = e == 0;
		cfg->events.ngroups = 1;
	}
}

/* -G and --for-each-cgroup: system-wide, one of them, and the events
   each cgroup counts. */
static void settle_cgroups(struct config *cfg)
{
	const char *each_cgroup = cfg->given.each_cgroup;

	if ((cfg->cgroup_names || each_cgroup) && !cfg->cpus)
		usage_error("cgroups are only counted system-wide: add -a or "
			    "-C to %s", each_cgroup ? "--for-each-cgroup" : "-G");
	if (cfg->cgroup_names && each_cgroup)
		usage_error("-G and --for-each-cgroup exclude each other");
	if ((cfg->cgroup_names || each_cgroup) && cfg->legacy)
		usage_error("the 2008 perf_counter_open has no cgroups: drop "
			    "--legacy");
	if ((cfg->cgroup_names || each_cgroup) && cfg->openmetrics)
		usage_error("--openmetrics has no cgroup label: drop -G or "
			    "--for-each-cgroup");
	if (each_cgroup)
		cgroup_expand(cfg, each_cgroup);
}

/* --all-user/--all-kernel on every event, cgroups' copies included. */
static void settle_spaces(struct config *cfg)
{
	/* perf's --all-user/--all-kernel: the hypervisor goes too. */
	for (size_t e = 0; e < cfg->events.nr && (cfg->all_user ||
						 cfg->all_kernel); e++) {
		struct perf_event_attr *a = &cfg->events.ev[e].attr;

		a->exclude_kernel = cfg->all_user;
		a->exclude_user = cfg->all_kernel;
		a->exclude_hv = 1;
	}
}

/* -o's file: made (or appended to) and headed as perf's; -q makes none. */
static void open_out_file(struct config *cfg)
{
	const char *out_path = cfg->given.out_path;
	time_t t = time(NULL);
	char date[64];

	if (!*out_path)
		usage_error("-o needs a file name");
	/* a new file replaces the name (nothing planted there is
	   written through); --append writes into the file */
	cfg->out = atomic_file_open(out_path, ATOMIC_FILE_DEVICES |
				    (cfg->given.append ?
				     ATOMIC_FILE_APPEND : 0));
	if (cfg->out == NULL)
		die_status(2, "cannot write '%s': %s%s", out_path,
			   output_strerror(errno), output_path_fix(errno));
	cfg->out_file = true;
	cfg->out_name = out_path;
	/* perf starts its files so. */
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", localtime(&t));
	fprintf(cfg->out, "# started on %s\n\n", date);
}

/* Where the counts go: standard error, --log-fd's file or -o's. */
static void settle_output(struct config *cfg)
{
	const char *out_path = cfg->given.out_path;
	int log_fd = cfg->given.log_fd;

	cfg->out = stderr;
	cfg->out_name = "standard error";
	if (out_path && log_fd >= 0)
		usage_error("-o and --log-fd exclude each other");
	check_outputs_distinct(cfg, out_path, log_fd);
	if (log_fd >= 0 && (cfg->out = fdopen(log_fd, cfg->given.append ?
					      "a" : "w")) == NULL)
		die_status(2, "cannot write to --log-fd %d: %s", log_fd,
			   strerror(errno));
	if (log_fd >= 0) {
		cfg->out_file = true;
		cfg->out_name = "--log-fd";
	}
	/* perf's words; it asks even without -I. */
	if (cfg->interval_clear && (out_path || !isatty(fileno(cfg->out))))
		usage_error("--interval-clear does not work with output: it "
			    "clears a terminal, and the counts go to %s",
			    out_path ? "a file (drop -o)" : log_fd >= 0 ?
			    "--log-fd's file (drop --log-fd)" :
			    "no terminal (drop the redirection)");
	/* -q: perf neither creates nor writes the -o file. */
	if (out_path && !cfg->quiet)
		open_out_file(cfg);
}

static void parse_args(struct config *cfg, int argc, char **argv)
{
	int first;

	cfg->run_count = 1;
	cfg->mux_tick_ms = 10;
	cfg->given.log_fd = -1;
	first = usage_parse(opts, NOPTS, argc, argv, true, cfg, opt_code);
	if (first < argc)
		cfg->argv = argv + first;
	else if (first > 1 && strcmp(argv[first - 1], "--") == 0)
		usage_error("missing command after '--'");

	settle_modes(cfg);
	settle_cpus(cfg);
	settle_runs(cfg);
	settle_events(cfg);
	settle_cgroups(cfg);
	settle_spaces(cfg);
	if (cfg->openmetrics)
		check_openmetrics(cfg);
	/* perf's caution, word for word and on stderr whatever -o says,
	   so a script that filters it from perf filters it from us. */
	if (cfg->timeout_ms && cfg->timeout_ms < 100 && !cfg->quiet)
		fputs("timeout < 100ms. The overhead percentage could be high "
		      "in some cases. Please proceed with caution.\n", stderr);
	settle_output(cfg);
}

/*
 * Would setlocale(LC_NUMERIC, "") give the C locale's numbers (no
 * grouping, a '.')?  Then it is skipped: loading a locale is a good part
 * of a short run, and C.UTF-8's numbers are C's.
 */
static bool numeric_is_c(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" };

	for (size_t i = 0; i < 3; i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return !strcmp(v, "C") || !strcmp(v, "POSIX") ||
			       !strcmp(v, "C.UTF-8") || !strcmp(v, "C.utf8");
	}
	return true;	/* nothing set: the C locale */
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

/* perf stops at a --pre/--post that fails; say which and exit 1. */
static void run_hook_checked(const char *opt, const char *cmd,
			     char *const argv[], int run)
{
	int st = run_hook(argv);

	if (st < 0)
		die("cannot run %s '%s': %s", opt, cmd, strerror(errno));
	if (st != 0)
		die("%s '%s' exited %d (run %d): stopping", opt, cmd, st,
		    run + 1);
}

/* The -r runs, each between its --pre and --post; the exit status of
   the last run. */
static int run_all(const struct config *cfg, struct stats *st)
{
	struct run_result res = { 0 };
	struct cset cs;
	int status = 0;

	for (int r = 0; r < cfg->run_count; r++) {
		if (cfg->pre_argv)
			run_hook_checked("--pre", cfg->pre, cfg->pre_argv, r);
		/* -S: dirty pages written out now, not during the count
		   (perf's place: after --pre, before the run). */
		if (cfg->sync_run)
			sync();
		if (cfg->verbose && cfg->run_count > 1)
			fprintf(stderr, "[ pcstat: executing run #%d ... ]\n",
				r + 1);
		run_once(cfg, &cs, st, &res);
		if (cfg->verbose && !cfg->interval_ms)
			print_verbose(cfg, &cs, stderr);
		if (cfg->post_argv)
			run_hook_checked("--post", cfg->post, cfg->post_argv,
					 r);
		status = res.status;
		/* --summary: the whole run's counts after the intervals,
		   from the last (cumulative) read; st was their scratch. */
		if (cfg->interval_ms && cfg->summary)
			stats_reset(st);
		/* A run a signal cut short is not one of the -r runs: the
		   statistics are of the whole ones (all there is when the
		   first run was cut). */
		if ((!cfg->interval_ms || cfg->summary) &&
		    !(res.interrupted && r > 0))
			stats_add_run(st, &cs, NULL, cfg->aggr, res.wall_ns);
		if (res.interrupted || r == cfg->run_count - 1) {
			if ((!cfg->interval_ms || cfg->summary) && !cfg->quiet)
				print_counts(cfg, &cs, st, &res, false, 0);
			cset_release(&cs);
			break;
		}
		cset_release(&cs);
	}
	return status;
}

int main(int argc, char **argv)
{
	struct config cfg = { 0 };
	struct stats st;
	struct ticks ticks;
	int status;

	set_progname(argv[0]);
	std_fds_guard();
	fd_limit_raise();
	/* a failure mid-run ends the command we started, never leaves it */
	spawn_end_on_failure();
	if (argc > 1 && strcmp(argv[1], "list") == 0) {
		if (argc > 3)
			usage_error("pcstat list takes one filter at most");
		list_events(stdout, argc > 2 ? argv[2] : NULL);
		output_check(stdout, "standard output");
		return 0;
	}
	parse_args(&cfg, argc, argv);
	if (cfg.out == stderr && !cfg.quiet)
		std_fd_require(STDERR_FILENO, "the counts would be lost: give "
			       "-o FILE");
	/* The human layout follows the user's locale, as perf stat's does
	   ("1,234,567" in en_US).  CSV and JSON stay in the C locale:
	   perf's "1,5" under de_DE breaks the very parsers they exist for. */
	if (cfg.fmt == FMT_STD && !cfg.no_big_num && !numeric_is_c())
		setlocale(LC_NUMERIC, "");
	cfg.backend = cset_backend(cfg.legacy);
	if (cfg.backend == PC_BACKEND_LEGACY && !cfg.quiet)
		legacy_notices(&cfg);
	run_signals_init();
	stats_init(&st, cfg.events.nr,
		   cfg.aggr == AGGR_CPU ? cfg.ncpus :
		   cfg.aggr == AGGR_THREAD ? cfg.ntids :
		   cfg.unit_slot ? cfg.naggr : 1,
		   (unsigned)cfg.run_count);
	st.unit_slot = cfg.unit_slot;
	st.no_scale = cfg.no_scale;
	ticks_init(&ticks, st.nev, st.nslots, cfg.aggr, cfg.unit_slot);
	st.ticks = &ticks;
	status = run_all(&cfg, &st);
	stats_release(&st);
	ticks_release(&ticks);
	pc_event_list_release(&cfg.events);
	free(cfg.tids);
	free(cfg.cpus);
	free(cfg.pre_argv);
	free(cfg.post_argv);
	free(cfg.aggr_ids);
	free(cfg.unit_slot);
	cgroup_release(&cfg);
	if (cfg.out_file)
		output_close(cfg.out, cfg.out_name);
	else
		output_check(cfg.out, cfg.out_name);
	return status;
}
