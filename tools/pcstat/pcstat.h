/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcstat.h - pcstat's private types: the options, the counter set, rows. */
#ifndef PCSTAT_PCSTAT_H
#define PCSTAT_PCSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <sysapi/sysapi.h>

struct aggr_id;

/* How counts of the units (CPUs, threads) are put together. */
enum aggr_mode {
	AGGR_GLOBAL,		/* one row per event: the sum */
	AGGR_CPU,		/* -A: one row per event and CPU */
	AGGR_THREAD,		/* --per-thread: one row per event and thread */
	AGGR_SOCKET,		/* --per-socket ... --per-node: one row per */
	AGGR_DIE,		/* event and group of CPUs (topology.c) */
	AGGR_CORE,
	AGGR_NODE,
	AGGR_CACHE,		/* --per-cache: later perf's, not 6.1's */
};

enum out_format { FMT_STD, FMT_CSV, FMT_JSON };

/* Everything the command line says. */
struct config {
	struct pc_event_list events;
	char **argv;		/* the command, NULL when attaching */
	const char *pid_str;	/* -p as given, for the header */
	const char *tid_str;	/* -t as given */
	const char *cpu_str;	/* -C as given */
	pid_t *tids;		/* threads to count (-p, -t) */
	size_t ntids;
	int *cpus;		/* CPUs to count (-a, -C) */
	size_t ncpus;
	bool system_wide;	/* -a */
	int run_count;		/* -r */
	unsigned interval_ms;	/* -I, 0 when off */
	unsigned interval_count;
	unsigned mux_tick_ms;	/* --mux-tick: reads for the multiplexing
				   intervals, 0 when off */
	bool interval_clear;	/* --interval-clear: a fresh screen each time */
	unsigned timeout_ms;
	unsigned delay_ms;	/* -D */
	bool start_disabled;	/* -D -1: until --control says enable */
	const char *control;	/* --control fifo:CTL[,ACK] or fd:... */
	const char *sep;	/* -x, NULL when not CSV */
	enum out_format fmt;
	enum aggr_mode aggr;
	bool no_inherit, quiet, table;
	int detailed;		/* -d, -dd, -ddd: perf's levels 1-3 */
	bool group_all;		/* -g: every event in one group */
	bool sync_run;		/* -S: sync() before each run */
	bool all_user, all_kernel;	/* --all-user, --all-kernel */
	bool no_scale;		/* --no-scale: counts as read */
	bool null_run;		/* -n: no events, elapsed time only */
	bool no_big_num;	/* --no-big-num: no thousands grouping */
	bool summary;		/* --summary: totals after -I's intervals */
	bool verbose;		/* -v: raw counts, enabled, running */
	bool no_csv_summary;	/* --no-csv-summary: no "summary" field */
	int cache_level;	/* --per-cache=LN: N; 0 the last level */
	struct aggr_id *aggr_ids; /* --per-socket etc.: the groups */
	size_t naggr;
	size_t *unit_slot;	/* the group of each CPU */
	const char *pre, *post;	/* --pre/--post as given */
	char **pre_argv, **post_argv;	/* split by words_split() */
	bool legacy;		/* --legacy: the 2008 call, or exit 2 */
	enum pc_backend backend; /* what the counters get (cset_backend()) */
	FILE *out;		/* -o FILE or stderr */
	bool out_file;
	const char *out_name;	/* out, for messages: a path, "standard error" */
	const char *openmetrics; /* --openmetrics FILE, NULL when off */
	struct cgrp *cgroups;	/* -G, --for-each-cgroup (cgroup.c) */
	size_t ncgroups;
	int *ev_cgroup;		/* per event: index in cgroups[], or -1 */
	size_t ev_cgroup_nr;
	unsigned cgroup_names;	/* perf's nr_cgroups: names given; > 0
				   prints the cgroup column */
	/* the command line as given, before parse_args() settles what
	   follows from the options together (the output, the cgroups) */
	struct {
		const char *out_path;	/* -o FILE */
		const char *each_cgroup; /* --for-each-cgroup NAME,.. */
		int log_fd;		/* --log-fd FD, -1 when not given */
		bool append;		/* --append */
		bool csv;		/* -x, even when -j follows */
		bool big_num;		/* -B, last of it and --no-big-num */
	} given;
};

/* A cgroup that events count in: its name as printed, its directory. */
struct cgrp {
	char *name;
	int fd;
};

/* Where a set of counters is opened: one task (any CPU) or one CPU. */
struct unit {
	pid_t tid;		/* -1 for a CPU */
	int cpu;		/* -1 for a task */
	char comm[17];
};

/*
 * The counters: libsysapi's counting set, on units[u] as its unit u.
 * supported[ev] says whether the event opened at all (a tool event
 * always); cur[ev * nunits + u] holds the counts of the last read.
 */
struct cset {
	size_t nev, nunits;
	struct unit *units;
	struct pc_countset *set;
	bool *supported;
	struct pc_count *cur;
	struct pc_count *row;	/* one unit's read */
};

/* counters.c */
/*
 * The backend the counters will get: PC_BACKEND_LEGACY with --legacy or
 * when the library picks the 2008 call by itself, else PC_BACKEND_AUTO.
 */
enum pc_backend cset_backend(bool want_legacy);
void cset_init(struct cset *cs, const struct config *cfg, pid_t child);
void cset_open(struct cset *cs, const struct config *cfg, bool on_exec);
/* Start counting now (the legacy backend counts from open: the counts
   so far are taken off later reads). */
void cset_enable(struct cset *cs, const struct config *cfg);
void cset_disable(struct cset *cs, const struct config *cfg);
void cset_read(struct cset *cs, const struct config *cfg);
/*
 * Fill the tool events' counts (duration_time, user_time, system_time)
 * on the first unit: elapsed_ns, and ru's times (none when ru is NULL).
 */
void cset_tools(struct cset *cs, const struct config *cfg, uint64_t elapsed_ns,
		const struct rusage *ru);
void cset_release(struct cset *cs);

/* The outcome of one measured run (or of one interval). */
struct run_result {
	double wall_ns;
	struct rusage ru;
	bool have_ru;
	int status;		/* exit status to return: 0, N, 128+sig */
	bool interrupted;	/* SIGINT/SIGTERM: stop repeating */
};

#endif
