/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kerneltop.h - what the files of tools/kerneltop share: the options,
 * the session (struct kt), the view of a table (struct kt_view) and the
 * table a screen keeps (struct kt_table), the frame's text.  The TUI's
 * screens are in tui.h, which says how a new screen is added.
 */
#ifndef KERNELTOP_KERNELTOP_H
#define KERNELTOP_KERNELTOP_H

#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <sysapi/sysapi.h>

#include "profile/feed.h"
#include "profile/offcpu-feed.h"
#include "profile/profile.h"
#include "profile/stacks.h"
#include "profile/taskcount.h"
#include "profile/tasks.h"
#include "profile/top.h"

struct trace_formats;
#include "sampling-cli/callgraph.h"
#include "sampling-cli/exports.h"
#include "sampling-cli/metrics.h"
#include "symbols/symbols.h"

#define KT_MAX_EVENTS 8
#define KT_NKEYS 10		/* the TOP_KEY_* bits */
#define KT_MAX_TRACE_COLS 64	/* -s trace keys, fields expanded */
#define KT_MAX_CPUS 4096	/* -s socket: CPUs whose package is known */
/* -s parent: perf's default --parent pattern */
#define KT_PARENT_RE "^sys_|^do_page_fault"
#define KT_PARENT_OTHER "[other]"	/* the parent of a chain without one */

/* The figure columns of a table (--fields, --show-total-period). */
enum kt_col {
	KT_COL_OVERHEAD = 1,
	KT_COL_SAMPLES = 2,
	KT_COL_PERIOD = 4,
	KT_COL_THREADS = 8,	/* the distinct threads of a function */
};

/* What a table counts (offcpu.c): --off-cpu adds the last two. */
enum kt_measure {
	KT_ON_CPU,		/* samples of the events */
	KT_OFF_CPU,		/* ns off the CPU, on the stack left with */
	KT_WALL,		/* ns: on-CPU samples of a time event, each
				   worth its period, with the off-CPU ns */
	KT_MEASURES
};
extern const char *const kt_measure_names[KT_MEASURES];

/* What the command line asked for (options.c). */
struct kt_options {
	struct pc_event_list events;	/* -e, parsed */
	uint64_t freq, period;		/* -F / -c */
	bool period_set, freq_set;
	enum feed_scope scope;
	pid_t *ids;			/* -p / -t, deduplicated */
	size_t nids;
	uid_t uid;			/* -u */
	const char *user;		/* -u as given */
	int *cpus;			/* -C */
	size_t ncpus;
	const char *cpu_list;
	double delay;			/* -d seconds */
	unsigned keys;			/* -s: TOP_KEY_* */
	const char *comms, *dsos, *symbols; /* --comms, --dsos, --symbols */
	uint64_t count_filter;		/* -f */
	bool relative;			/* --percentage relative */
	unsigned cols;			/* KT_COL_*: --fields, --show-* */
	bool group;			/* --group: a share column per event */
	unsigned group_sort_idx;	/* --group-sort-idx, < nevents */
	bool hierarchy;			/* --hierarchy */
	unsigned key_order[KT_NKEYS];	/* -s / --fields keys as given, for
					   --hierarchy's levels */
	unsigned nkey_order;
	bool zero;			/* -z */
	double percent_limit;
	size_t entries;			/* -E, 0 all */
	bool hide_kernel, hide_user;	/* -K, -U */
	bool batch;			/* -b / --stdio / not a terminal */
	uint64_t iterations;		/* -n, 0 unlimited */
	enum feed_callgraph callgraph;	/* -g, --call-graph */
	uint32_t stack_size;		/* dwarf: bytes copied per sample */
	struct callgraph_print cg_print;/* --call-graph's printing part (-b) */
	bool no_children;		/* --no-children */
	unsigned max_stack;		/* --max-stack, 0 none */
	struct exports exports;		/* --folded, --flamegraph, ... */
	const char *openmetrics;	/* --openmetrics FILE, NULL: none */
	/* perf top's targets, sampling and symbols */
	const char *cgroup;		/* -G: this cgroup's tasks only */
	bool no_inherit;		/* -i */
	unsigned mmap_pages;		/* -m, a power of two; 0 the feed's */
	int realtime;			/* -r SCHED_FIFO priority, 0 none */
	unsigned verbose;		/* -v */
	const char *kallsyms;		/* --kallsyms FILE */
	const char *sym_annotate;	/* --sym-annotate SYM */
	char *trace_keys[KT_MAX_TRACE_COLS]; /* -s trace, trace_fields and
					   tracepoint fields, as given */
	size_t ntrace_keys;
	bool raw_trace;			/* --raw-trace */
	/* the task table: --tasks (batch prints it), its order, a row
	   per process (--tasks-processes), batch's counts (--tasks-raw) */
	bool tasks;
	enum tasks_col tasks_order;
	bool tasks_processes;
	bool off_cpu;			/* --off-cpu, --wall-clock */
	enum kt_measure measure;	/* the measure shown first */
	char *metric_args[METRICS_MAX];	/* --metric, as given */
	unsigned nmetric_args;
	bool tasks_raw;
};

void options_parse(struct kt_options *o, int argc, char **argv);
void options_release(struct kt_options *o);

/*
 * The running session: the counters and their feed, the profiles the
 * samples go to (one per measure), and the figures of each refresh.
 * What a table shows of it is a struct kt_view's (view.c); the TUI's
 * screens are in tui.h.
 */

struct kt {
	struct kt_options opt;
	/* the events, then --off-cpu's context-switches (oc_event) */
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
	struct top_view lists;		/* --comms, --dsos, --symbols: the
					   chains' (the profile's rule) */

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
	struct offcpu *offcpu;		/* the pairing; NULL without */
	int oc_event;			/* context-switches' index, or -1 */
	bool oc_stacks;			/* switches sampled with chains */
	bool wall_ok;			/* event 0 is a time event */
	uint64_t oc_newest;		/* the latest switch's time */
	uint64_t oc_lost;		/* records lost (LOST) */
	/* -e '{a,b}:S': the members read at each sample, and --metric's
	   rates per function (the profile's, since the start) */
	bool group_read;
	struct metrics metrics;
	const char *members[KT_MAX_EVENTS]; /* names[1..]: pprof's types */
};

/*
 * tasks-table.c: the task table.  tasks_table_start() makes the model and
 * the counters (at --tasks, or the `T' screen's first opening); from then
 * on the samples feed it (tasks_table_sample()), the feed tells of
 * exits (tasks_table_task()), and each refresh reads the counters and
 * closes a frame (tasks_table_tick(), from session_tick()).  The text
 * functions format the last frame as batch and the screen show it.
 */
void tasks_table_start(struct kt *kt);
void tasks_table_stop(struct kt *kt);
/* Whether column c is shown (the hardware ones only where counted). */
bool tasks_table_shown(const struct kt *kt, enum tasks_col c);
/* --tasks-sort by a column not shown here: a usage error (exit 2). */
void tasks_table_check_sort(struct kt *kt);
void tasks_table_sample(struct kt *kt, const struct feed_sample *s);
void tasks_table_task(void *arg, pid_t pid, pid_t tid, pid_t ptid,
		      bool exited);
void tasks_table_tick(struct kt *kt, double interval_s);
/* line 0: the summary; line 1: the notices ("" when none) */
void tasks_table_header(const struct kt *kt, const struct tasks_view *v,
			unsigned line, char *buf, size_t size);
void tasks_table_columns(const struct kt *kt, const struct tasks_view *v,
			 char *buf, size_t size);
void tasks_table_row(const struct kt *kt, const struct tasks_view *v,
		     const struct tasks_row *r, char *buf, size_t size);
/* A whole frame, as batch prints it (raw: each event's count in the
   interval, --tasks-raw, rather than the rates); 0, or -1 with errno. */
int tasks_table_print(const struct kt *kt, const struct tasks_view *v,
		      FILE *out, size_t max_rows, bool raw);
/* The task screen's `s' cycle. */
extern const enum tasks_col kt_tasks_orders[];
extern const size_t kt_tasks_norders;

/*
 * offcpu.c.  offcpu_setup(): after the events, add --off-cpu's (0 with
 * no stacks).  offcpu_profiles(): the other measures' profiles (like
 * config, but weighted).  measure_next(): the measure after m that this
 * session has (`o').  offcpu_sample(): an on-CPU sample (ps: as the
 * on-CPU profile took it) for the wall-clock profile, or a switch's
 * stack.  offcpu_switch(): the feed's switch callback.  offcpu_tick():
 * at a refresh, the spans still open counted up to now.
 * offcpu_header(): measure m, for line 0.
 */
void offcpu_setup(struct kt *kt);
void offcpu_profiles(struct kt *kt, const struct profile_config *config);
enum kt_measure measure_next(const struct kt *kt, enum kt_measure m);
void offcpu_sample(struct kt *kt, const struct feed_sample *s,
		   const struct profile_sample *ps);
int offcpu_switch(void *arg, const struct feed_switch *sw);
void offcpu_tick(struct kt *kt);
void offcpu_header(const struct kt *kt, enum kt_measure m, char *buf,
		   size_t size, size_t *len);
void offcpu_release(struct kt *kt);

/* trace-keys.c: the -s trace keys' columns from the events' formats
   (the samples then carry their records), and a sample's key text. */
void trace_keys_setup(struct kt *kt);
const char *trace_keys_text(struct kt *kt, const struct pc_sample *s,
			    unsigned event, char *buf, size_t size);

/* A stop signal came (util/stop-signals.h), caught from session_open()
   on: the batch and TUI loops end on it. */
extern volatile sig_atomic_t kt_stop;

/* session.c: open the feed for the options (dies with a message). */
void session_open(struct kt *kt);
void session_close(struct kt *kt);
/* Drain the rings into the model, within a bound of time and records
   (keys and signals are looked at between drains); true when records
   were left: drain again without waiting. */
bool session_drain(struct kt *kt);
/* Between drains: the maps of processes that ran before kerneltop, read
   a little at a time; true when samples wait for them (do not wait). */
bool session_background(struct kt *kt);
/* A refresh: header figures for the interval that ends now. */
void session_tick(struct kt *kt, double interval_s);
/* At the end: how many samples were lost and the fix, on stderr. */
void session_lost_say(const struct kt *kt);
/* After a frame was shown: decay or zero. */
void session_age(struct kt *kt);


/*
 * view.c: what a table shows -- the model's view and the choices of the
 * TUI's keys, apart from the session -- and the one call that reads its
 * rows.  Batch mode has one too, from the command line.
 */
struct kt_view {
	struct top_view top;	/* keys, event, order, zooms, hides, filter,
				   limits; sort_self: rows by Self, not
				   Children (-g) */
	unsigned sort_cycle;	/* `s': index into view_orders[] */
	bool paused;		/* `p': the screens keep what they drew */
	bool self_only;		/* no Children column (-b --no-children) */
	unsigned gen;		/* bumped at each change of what rows are
				   shown (zoom, filter), for the screens
				   to start at the top again */
	char zoom_dso[4096];	/* top.dso points here when set */
	char zoom_comm[32];	/* the zoomed thread's name */
	char filter[128];	/* top.filter points here when set */
	/* the task screen's choices (screen-tasks.c), kept between its
	   openings; tasks_return: its Enter zoomed, Esc goes back there */
	unsigned tasks_sort;	/* index into kt_tasks_orders[] */
	bool tasks_reverse, tasks_processes, tasks_by_uid, tasks_return;
	uid_t tasks_uid;
	char tasks_name[64];
	int metric;		/* `m': the --metric column shown, -1 all
				   (batch); none without a group read */
	enum kt_measure measure;/* `o': the profile shown (--off-cpu) */
};

/* The `s' cycle: the orders, and their names as the status line says. */
struct view_order {
	enum top_order order;
	const char *name;
};
extern const struct view_order view_orders[];
extern const size_t view_norders;

/* The view the command line asks for. */
void view_init(struct kt_view *v, const struct kt *kt);
/* What rows are shown changed: the screens go back to the first. */
void view_changed(struct kt_view *v);
/* Whether v's table has a Children column: -g, one event shown, rows
   grouped by symbol alone, no thread zoom. */
bool view_children(const struct kt *kt, const struct kt_view *v);
/* The profile v shows. */
struct profile *kt_profile(const struct kt *kt, const struct kt_view *v);

/*
 * A table as it was read: a copy of its rows (valid however the models
 * move on; strings are the models' own) and what formats them.  A screen
 * keeps the table it drew and acts on it.
 */
struct kt_table {
	struct top_row *rows;	/* top_rows_dup()'s block */
	size_t n;
	unsigned keys;		/* the view's TOP_KEY_* */
	int event;		/* the view's event, -1 the weight */
	bool children;		/* a Children column */
	bool baseline;		/* a Delta column */
	unsigned cols;		/* KT_COL_* */
	bool group;		/* --group: a share per event, of these */
	unsigned elide;		/* TOP_KEY_* columns not shown: a filter
				   of one name fixes them (perf's elide) */
	uint64_t total[KT_MAX_EVENTS];
	int metric;		/* the view's */
	enum kt_measure measure;/* the view's */
};

/* Read v's rows now into tb (whose old rows go).  Returns 0, or -1 with
   errno ENOMEM (tb then empty). */
int table_take(struct kt_table *tb, struct kt *kt, const struct kt_view *v);
void table_release(struct kt_table *tb);

/* exports.c: the chains written out. */
/* `S': the chains the table shows now as an SVG flame graph,
   ./kerneltop-DATE-TIME.svg; what was done, or why not, into msg. */
void kt_snapshot(struct kt *kt, enum kt_measure measure, char *msg,
		 size_t size);
/* --export-every: the interval's snapshots when due (last: now, the end
   of the run); -1 when one failed, msg then says it. */
int kt_exports_tick(struct kt *kt, bool last, char *msg, size_t size);
/* At exit: the last snapshot, and the exports of the command line, of
   every sample since the start; -1 when one failed (said on stderr). */
int kt_exports_write(struct kt *kt);

/* openmetrics.c: --openmetrics FILE rewritten with the figures of the
   refresh.  Returns 0, or -1 with errno. */
int kt_openmetrics_write(struct kt *kt);

/* frame.c: the text of a frame, shared by batch, TUI and `P`. */
#define KT_LINE 512
/* Header line 0 or 1 of a table of measure m. */
void frame_header(const struct kt *kt, enum kt_measure m, unsigned line,
		  char *buf, size_t size);
/* The column header and the rows of table tb; width 0: no screen. */
void frame_columns(const struct kt *kt, const struct kt_table *tb,
		   char *buf, size_t size, int width);
void frame_row(const struct kt *kt, const struct kt_table *tb,
	       const struct top_row *r, char *buf, size_t size, int width);
/* What is sampled, as the header says it ("pid 123 on CPUs 0-1"). */
void frame_target(const struct kt *kt, char *buf, size_t size);
/* A whole frame of tb as batch prints it; returns 0 or -1 with errno. */
/*
 * --hierarchy: tb's rows nested by the -s keys in their order, a line
 * each (text as shown).  open(path, arg) says whether a group's lines
 * are shown under it (path: its key values from the top, 0x1f between);
 * NULL shows all, unmarked (batch); else groups are marked + or -.
 * max_rows 0: every row.  frame_hier_free() frees the lines.
 */
struct kt_hline {
	char *text;
	char *path;			/* the group (or row) it is */
	unsigned level;
	bool open;			/* a group shown open */
	const struct top_row *row;	/* the last level: its row; NULL for
					   a group */
};
bool frame_hier_shown(const struct kt *kt, const struct kt_table *tb);
void frame_hier_columns(const struct kt *kt, const struct kt_table *tb,
			char *buf, size_t size);
size_t frame_hier_lines(const struct kt *kt, const struct kt_table *tb,
			size_t max_rows,
			bool (*open)(const char *path, void *arg), void *arg,
			struct kt_hline **lines);
void frame_hier_free(struct kt_hline *lines, size_t n);
int frame_print(const struct kt *kt, const struct kt_table *tb, FILE *out,
		size_t max_rows);

/* batch.c */
int batch_run(struct kt *kt);

/* chains.c: under row r of table tb, its call graph as perf top
   --stdio prints it (--call-graph's print type, threshold, limit and
   order); nothing without -g, or for a row that is no function. */
void chains_print(const struct kt *kt, const struct kt_table *tb,
		  const struct top_row *r, FILE *out);

/* term.c: die with one line unless stdout is a terminal curses can
   drive. */
void term_check(void);
/* tui.c: the live screens until q or a stop signal. */
int tui_run(struct kt *kt);

/* annotate.c: per-source-line shares of one symbol. */
struct annotate_line {
	const char *file;	/* owned by the annotation */
	int line;
	uint64_t count;
	char *text;		/* the source line, NULL when unreadable */
};
struct annotation {
	struct annotate_line *lines;
	size_t n;
	uint64_t total;
	size_t hottest;		/* index of the line with most samples */
	char **files;		/* storage of the file names */
	size_t nfiles;
};
int annotate_build(struct kt *kt, const char *sym, const char *dso,
		   struct annotation *a);
void annotate_release(struct annotation *a);
/* --sym-annotate: the first row of tb whose symbol is sym, or NULL. */
const struct top_row *annotate_row(const struct kt_table *tb,
				   const char *sym);
/* --sym-annotate in batch: sym's annotation after a frame of tb, or
   "no samples"; 0, or -1 with errno. */
int annotate_print(struct kt *kt, const struct kt_table *tb,
		   const char *sym, FILE *out);

#endif
