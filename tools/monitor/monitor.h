/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monitor.h - what the files of tools/monitor share. */
#ifndef MONITOR_MONITOR_H
#define MONITOR_MONITOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <sysapi/sysapi.h>

#include "profile/feed.h"
#include "profile/offcpu-feed.h"
#include "profile/profile.h"
#include "profile/stacks.h"
#include "profile/top.h"
#include "sampling-cli/exports.h"
#include "sampling-cli/metrics.h"
#include "sampling-cli/sample-args.h"
#include "symbols/symbols.h"
#include "util/spawn.h"

struct trace_formats;

/* the 2008 demo's period, for events that count neither time nor the
   CPU's events (the others: SAMPLE_DEFAULT_FREQ) */
#define DEFAULT_PERIOD 10000

/* Events sampled at once (-e a,b or -e a -e b), at most. */
#define MONITOR_MAX_EVENTS 8

enum monitor_format {
	FORMAT_TEXT,
	FORMAT_RAW,
	FORMAT_JSON,
	FORMAT_SCRIPT,	/* --script: perf script's default lines */
	FORMAT_NONE,	/* --summary: the table only */
};

enum monitor_space {
	SPACE_ALL,
	SPACE_KERNEL,	/* -k */
	SPACE_USER,	/* -u */
};

/* One sample, resolved, as the output formats see it. */
struct monitor_sample {
	uint64_t time;		/* ns, perf clock */
	uint32_t pid, tid, cpu;
	bool has_cpu;		/* false on the legacy backend */
	uint64_t ip;
	uint64_t period;	/* events since the last sample */
	const char *comm;	/* the thread's command name */
	const char *event;	/* the event's name */
	bool event_field;	/* several events: the text line names it */
	unsigned event_width;	/* --script: the longest event name */
	unsigned script_fields;	/* --script: SF_* */
	const char *trace;	/* --script, a tracepoint: its record's
				   text (lib/trace); else NULL */
	const struct sym_result *sym;
	const struct stk_sample_frame *frames;	/* with -g: the chain, leaf
						   first; else NULL */
	unsigned nframes;
};

/* perf script's fields, for --script and --fields. */
enum {
	SF_COMM = 1 << 0, SF_PID = 1 << 1, SF_TID = 1 << 2, SF_CPU = 1 << 3,
	SF_TIME = 1 << 4, SF_PERIOD = 1 << 5, SF_EVENT = 1 << 6,
	SF_IP = 1 << 7, SF_SYM = 1 << 8, SF_SYMOFF = 1 << 9, SF_DSO = 1 << 10,
	SF_TRACE = 1 << 11,
};
/* perf script's default for a tracepoint's samples: its record's text
   instead of the ip */
#define SF_TRACEPOINT (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | \
		       SF_TRACE)
/* perf script's default (the CPU added for CPU-wide counters) */
#define SF_DEFAULT (SF_COMM | SF_TID | SF_TIME | SF_PERIOD | SF_EVENT | 		    SF_IP | SF_SYM | SF_SYMOFF | SF_DSO)

/* --fields: perf script -F's list ("comm,tid,ip", "+cpu", "sw:ip,sym")
   into SF_* bits; exit 2 on a name monitor does not print. */
unsigned script_fields_parse(const char *arg);

/* output.c: one row per format, looked up by enum monitor_format. */
struct monitor_output {
	const char *name;
	void (*sample)(FILE *out, const struct monitor_sample *s);
};
const struct monitor_output *output_for(enum monitor_format fmt);

/* summary.c: the table of top functions, lost and unresolved counts. */
struct monitor_totals {
	uint64_t samples;	/* printed samples */
	uint64_t by_event[MONITOR_MAX_EVENTS];	/* of them, per event */
	uint64_t filtered;	/* dropped by -k/-u */
	uint64_t lost;		/* the kernel's LOST records */
	uint64_t unresolved;	/* samples without a function name */
	enum feed_callgraph callgraph;
	uint32_t stack_size;	/* dwarf: bytes copied per sample */
	const char *event;	/* the events sampled, ","-joined */
	const char *target;	/* "tid 123" or "command ls" */
	const char *lost_fix;	/* what avoids lost samples */
	const char *sampling;	/* feed_scheme_str(): how the target's
				   threads were sampled */
};
/* The top functions of event ev of profile p, max rows, their figure a
   count of unit ("samples", "ns"), with the rates of metrics ms (NULL:
   none). */
struct metrics;
void summary_table(FILE *out, struct profile *p, const struct metrics *ms,
		   unsigned ev, unsigned max, const char *unit);
/* The summary: with several events, their counts and a table each. */
void summary_print(FILE *out, struct profile *p, const struct metrics *ms,
		   const char (*names)[64], unsigned nevents,
		   const struct symbols *sym, const struct monitor_totals *t,
		   unsigned top, const struct feed_info *info);

/* The sampler: what the command line asked (options.c), and the
   running session (monitor.c). */
struct monitor {
	pid_t tid;			/* <tid>, or the command's pid */
	char **command;
	bool all_threads, legacy, summary_only;
	bool system;			/* -a or -C: every task on the CPUs */
	int *cpus;			/* -C, NULL: every online CPU */
	size_t ncpus;
	bool quiet;			/* -q: no notices, no summary */
	bool strict_freq;		/* --strict-freq */
	unsigned script_fields;		/* --script's SF_*, --fields */
	unsigned script_tp_fields;	/* those of a tracepoint's samples */
	struct trace_formats *trace;	/* --script with tracepoints: their
					   formats (lib/trace) */
	bool corrupt_seen;	/* a malformed record was met */
	uint64_t max_samples;		/* -n, 0: none */
	const char *debug_file;
	const char *annotate;		/* --annotate SYM */
	struct sample_args sample;	/* -e, -c, -F, -m, -r, --metric */
	enum monitor_format format;
	enum monitor_space space;
	unsigned top;
	enum feed_callgraph callgraph;
	uint32_t stack_size;
	struct exports exports;
	uint64_t start_ns;		/* wall clock, for the exports */

	struct feed *feed;
	struct feed_info info;
	/* the events, then --off-cpu's context-switches (oc.event) */
	struct perf_event_attr attrs[MONITOR_MAX_EVENTS + 1];
	char event_names[MONITOR_MAX_EVENTS + 1][64];
	const char *members[MONITOR_MAX_EVENTS]; /* event_names[1..], a
					   group read's: pprof's types */
	unsigned nevents;		/* the events asked for */
	unsigned nattrs;		/* the events opened */
	unsigned event_width;		/* the longest name, for --script */
	char events_joined[MONITOR_MAX_EVENTS * 64], target_name[64];
	char rate[64];		/* the rate asked, for the lost message */

	bool group_read;		/* -e '{a,b}:S' */
	struct metrics metrics;		/* their rates per function */

	struct symbols *sym;
	struct profile *prof;		/* the samples: functions per event,
					   --metric's rates, and (without
					   --off-cpu) the exports' chains */
	struct monitor_totals totals;
	struct spawn child;		/* the command, when monitor starts one */
	int child_status;		/* its wait status once it ended on
					   its own; -1 before, or when -n or
					   a signal to us ended it */

	/* --off-cpu (offcpu.c) */
	bool off_cpu;
	bool oc_stacks;			/* switches sampled with chains */
	bool oc_wall;			/* event 0 is a time event: the
					   exports are wall-clock */
	struct offcpu_feed oc;		/* the pairing (oc.m NULL without),
					   the switches' event, the latest
					   record, the records lost */
	struct profile *oc_prof;	/* off-CPU ns by where they waited
					   (with exports: their chains, where
					   event 0 is no time) */
	struct profile *wall_prof;	/* with exports, event 0 a time
					   event: the wall-clock chains */
	uint64_t oc_spans;

	/* the command line as given, before options_parse() settles it */
	struct {
		const char *tid_arg;	/* the TID, -p's or -t's */
		bool pid;		/* -p: the process, all its threads */
		bool no_inherit, dry_run;
	} given;
};

/*
 * offcpu.c.  offcpu_events(): after the events, --off-cpu's (with
 * stacks where allowed, else a notice).  offcpu_start(): once the feed
 * is open (the switch records go to the pairing from then on).
 * offcpu_sample(): true when fs is a switch's stack (taken, not a
 * sample).  offcpu_wall_sample(): an on-CPU sample (ps: as the profile
 * took it) into the wall-clock chains.  offcpu_export_profile(): the
 * profile whose chains the exports write (wall-clock, or off-CPU where
 * the event is no time), NULL without --off-cpu.  offcpu_end(): the
 * spans still open, counted up to
 * the last record (at the end, and before each snapshot).
 * offcpu_summary(): its part of the summary.
 */
void offcpu_events(struct monitor *m);
void offcpu_start(struct monitor *m);
bool offcpu_sample(struct monitor *m, const struct feed_sample *fs);
void offcpu_wall_sample(struct monitor *m, const struct profile_sample *ps);
struct profile *offcpu_export_profile(const struct monitor *m);
void offcpu_end(struct monitor *m);
void offcpu_summary(FILE *out, const struct monitor *m);
void offcpu_release(struct monitor *m);
/* annotate.c: --annotate's function, its samples per instruction, on
   out; 0, or -1 when it cannot be shown (said on stderr). */
int annotate_print(struct monitor *m, FILE *out);

/* options.c: argv into m (exit 2 on a bad command line). */
void options_parse(struct monitor *m, int argc, char **argv);

/* target.c: facts about the target. */
/* The process (thread group) of thread tid, or -1 with errno ESRCH. */
pid_t thread_tgid(pid_t tid);

#endif
