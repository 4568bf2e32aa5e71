/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kt.h - the running session, struct kt: the counters and their feed,
 * the profiles the samples go to (one per measure), and the figures of
 * each refresh.  Its state only: session.c opens, feeds and ages it
 * (session.h); every room of kerneltop reads it.  What a table shows of
 * it is a struct kt_view's (view.h); the TUI's screens are in screen.h.
 */
#ifndef KERNELTOP_KT_H
#define KERNELTOP_KT_H

#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <sysapi/sysapi.h>

#include "options.h"
#include "profile/feed.h"
#include "profile/offcpu-feed.h"
#include "profile/profile.h"
#include "profile/taskcount.h"
#include "profile/tasks.h"
#include "profile/top.h"
#include "symbols/symbols.h"

struct trace_formats;

struct kt {
	struct kt_options opt;
	/* the events, then --off-cpu's context-switches (oc.event) */
	struct perf_event_attr attrs[KT_MAX_EVENTS + 1];
	char names[KT_MAX_EVENTS + 1][64];	/* event names as shown */
	unsigned nevents;		/* the events a table shows */
	unsigned nattrs;		/* the events opened */
	char notice[512];		/* notices (fallbacks), "; "-joined */
	char cpu_list[128];		/* the CPUs watched, as "0-3,6" */
	enum feed_scope scope;		/* what is sampled: -p/-t/-u, or the
					   user's own tasks after a refusal */

	struct symbols *sym;		/* functions only, for the live table */
	double jit_granted;		/* when JIT maps last got CPU (ms) */
	struct symbols *sym_lines;	/* with file:line, for annotation */
	struct feed *feed;
	/* the profile of each measure: [KT_ON_CPU] the events' samples,
	   the others --off-cpu's (offcpu.c), NULL without; a view shows
	   one (kt_profile()) */
	struct profile *prof[KT_MEASURES];

	/* per-refresh figures for the header */
	struct feed_info info, info_prev;
	double interval_s;		/* length of the last refresh */
	double rate;			/* samples/s over it */
	uint64_t newest_ns, newest_prev;/* the latest sample time read, now
					   and at the last refresh (the
					   first sample's before it) */
	uint64_t window;		/* samples read since, of later times */
	char overload[160];		/* samples arrived faster than read
					   in the last refresh: how many
					   were lost, and the fix */
	double kernel_pct, user_pct;
	uint64_t frames;
	bool ended;
	char ended_msg[96];
	char failed[512];		/* why kerneltop must end with status
					   1 (--openmetrics could not be
					   written); "" while all is well */

	uint64_t start_ns;		/* wall clock, for the exports */

	int *socket_of;			/* -s socket: per CPU, read once */
	/* -s trace keys: the formats, the columns (trace_fields expanded)
	   and their header (trace-keys.c) */
	struct trace_formats *trace;
	struct kt_trace_col {
		int event;		/* its values from this event only;
					   -1: any that has the field */
		const char *field;	/* NULL: the record's whole text */
		int width;		/* padded to, but the last column */
	} tcols[KT_MAX_TRACE_COLS];
	size_t ntcols;
	char trace_head[512];
	regex_t parent_re;		/* -s parent: KT_PARENT_RE */

	/* the task table (tasks-table.c), from its first use on */
	struct tasks *tasks;
	struct taskcount *tcount;
	int tasks_clock;		/* the clock event whose samples are
					   CPU time; -1 none */
	pid_t *tasks_exited;		/* counted threads that exited since
					   the last refresh */
	size_t ntasks_exited, atasks_exited;
	pid_t *tasks_tids;		/* scratch: taskcount_max() tids */
	int tasks_err;			/* the first errno refusing a thread */
	double tasks_interval_s;	/* the last frame's */
	/* --off-cpu (offcpu.c); measure: what the exports write, the
	   command line's (a view shows its own) */
	enum kt_measure measure;
	struct offcpu_feed oc;		/* the pairing (oc.m NULL without),
					   the switches' event, the latest
					   record, the records lost */
	bool oc_stacks;			/* switches sampled with chains */
	bool wall_ok;			/* event 0 is a time event */
	/* -e '{a,b}:S': the members read at each sample, and --metric's
	   rates per function (the profile's, since the start) */
	bool group_read;
	struct metrics metrics;
	const char *members[KT_MAX_EVENTS]; /* names[1..]: pprof's types */
};

/* A stop signal came (util/stop-signals.h), caught from session_open()
   on: the batch and TUI loops end on it. */
extern volatile sig_atomic_t kt_stop;

#endif
