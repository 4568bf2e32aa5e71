/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - kerneltop's sampling: the events set up, the feed opened on
 * the target (narrowed to the user's own tasks where the paranoid level
 * forbids more), and each resolved sample counted into the model.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sysapi/cgroup.h>

#include "base/clock.h"
#include "base/strbuf.h"
#include "trace/trace.h"
#include "frame.h"
#include "kt.h"
#include "offcpu.h"
#include "openmetrics.h"
#include "options.h"
#include "session.h"
#include "tasks-table.h"
#include "trace-keys.h"
#include "sampling-cli/rings.h"
#include "sampling-cli/sample-args.h"
#include "sampling-cli/sample-setup.h"
#include "util/cpu-topo.h"
#include "util/die.h"
#include "util/events.h"
#include "util/output.h"
#include "util/stop-signals.h"
#include "util/task.h"
#include "util/xmalloc.h"

volatile sig_atomic_t kt_stop;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	kt_stop = 1;
}

static void notice(struct kt *kt, const char *msg)
{
	str_join(kt->notice, sizeof(kt->notice), "; ", msg);
}

static void setup_notice(void *arg, const char *msg)
{
	notice(arg, msg);
}

/* -e into attrs, the samplers' one set-up (sample-setup.h), opened
   disabled; then the off-CPU events, and pprof's member names. */
static void events_setup(struct kt *kt)
{
	struct kt_options *o = &kt->opt;
	struct sample_setup s = {
		.args = &o->sample, .max_events = KT_MAX_EVENTS,
		.notice = setup_notice, .notice_arg = kt,
		.attrs = kt->attrs, .names = kt->names,
		.metrics = &kt->metrics,
	};
	unsigned i;

	sample_setup(&s);
	kt->nevents = s.nevents;
	kt->group_read = s.group_read;
	for (i = 0; i < kt->nevents; i++)
		kt->attrs[i].disabled = 1;	/* feed_enable() in
						   session_open() */
	offcpu_setup(kt);
	for (i = 1; i < kt->nevents; i++)
		kt->members[i - 1] = kt->names[i];
}

/*
 * The profiles: on-CPU's for the events; --off-cpu's beside it.  The
 * chains decay with the table (-g) and are kept since the start for the
 * exports; a group read's members are summed with them (pprof: a sample
 * type each) and make --metric's rates.
 */
static void profiles_new(struct kt *kt)
{
	const struct kt_options *o = &kt->opt;
	struct top_view lists = TOP_VIEW(.comms = o->comms, .dsos = o->dsos,
					 .symbols = o->symbols);
	struct profile_config c = {
		.nevents = kt->nevents,
		.chains = o->callgraph != FEED_CG_NONE,
		.chains_all = exports_any(&o->exports),
		.nmembers = kt->group_read ? kt->nevents - 1 : 0,
		.metrics = kt->metrics.m, .nmetrics = kt->metrics.n,
		.threads = o->cols & KT_COL_THREADS,
		.lists = &lists,	/* copied: the strings are the options' */
	};

	kt->prof[KT_ON_CPU] = profile_new(&c);
	if (!kt->prof[KT_ON_CPU])
		die_nomem();
	offcpu_profiles(kt, &c);
}

static struct feed *try_open(struct kt *kt, enum feed_scope scope,
			     struct feed_failure *fail)
{
	const struct kt_options *o = &kt->opt;

	return feed_open(&FEED_OPTS(
		.attrs = kt->attrs, .nattrs = kt->nattrs, .scope = scope,
		.context_switch = o->off_cpu,
		.ids = o->ids, .nids = o->nids,
		.uid = scope == FEED_USER && o->scope != FEED_USER ?
			getuid() : o->uid,
		.cpus = o->cpus, .ncpus = o->ncpus,
		.ring_pages = sample_ring_pages(o->sample.ring_pages, o->callgraph,
						0),
		.cgroup = o->cgroup, .no_inherit = o->no_inherit,
		.callgraph = o->callgraph, .stack_size = o->stack_size,
		.max_stack = o->max_stack, .group_read = kt->group_read,
		.task_fn = tasks_table_task, .task_arg = kt,
		.user_fallback = true, .sym = kt->sym, .failure = fail));
}

/* Why the feed could not open, in a line. */
static const char *failure_str(const struct kt *kt,
			       const struct feed_failure *fail, int err,
			       char *buf, size_t size)
{
	const struct kt_options *o = &kt->opt;

	return feed_failure_strerror(fail, err, &(struct feed_failure_words){
		.gone = o->scope == FEED_THREADS ? "thread" : "process",
		.on = "task", .id = o->nids ? o->ids[0] : -1,
		.event = kt->names[fail->event],
		.attr = &kt->attrs[fail->event], .rings = "buffers" },
		buf, size);
}

/* Say why the feed could not open, and end. */
static void __attribute__((noreturn))
open_failed(struct kt *kt, const struct feed_failure *fail, int err)
{
	const struct kt_options *o = &kt->opt;
	char buf[PC_STRERROR_SIZE + 256];

	if ((fail->err == ESRCH || (!fail->err && err == ESRCH)) &&
	    o->scope == FEED_USER)
		die("user %s has no tasks to sample", o->user);
	/* the kernel's rule for another user's task (perf_check_permission):
	   CAP_PERFMON, or ptrace's (CAP_SYS_PTRACE); no paranoid level
	   lets it */
	if ((fail->err == EACCES || fail->err == EPERM) &&
	    o->scope == FEED_USER && task_is_others(fail->pid))
		die("user %s's tasks are not yours: sampling another user's "
		    "tasks needs root or CAP_PERFMON (or CAP_SYS_PTRACE), "
		    "whatever perf_event_paranoid says", o->user);
	if ((fail->err == EACCES || fail->err == EPERM) &&
	    task_is_others(fail->pid))
		die("%s %d belongs to another user (run kerneltop as its "
		    "owner or as root)", o->scope == FEED_THREADS ? "thread"
		    : "task", (int)fail->pid);
	die("%s", failure_str(kt, fail, err, buf, sizeof(buf)));
}

static void kt_enable(struct kt *kt)
{
	if (feed_enable(kt->feed) != 0)
		die_errno("cannot start the counters");
	kt->start_ns = clock_ns(CLOCK_REALTIME);
	exports_every_start(&kt->opt.exports, kt->start_ns);
}

/* The CPUs as a list with ranges ("0-3,6"), for the header. */
static void cpu_list_format(struct kt *kt)
{
	const struct kt_options *o = &kt->opt;
	int *online = NULL, *cpus = o->cpus, n = (int)o->ncpus, i, j;
	size_t len = 0, size = sizeof(kt->cpu_list);

	if (!cpus) {
		n = pc_cpus_online(&online);
		cpus = online;
	}
	kt->cpu_list[0] = '\0';
	for (i = 0; i < n && len < size; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		str_append(kt->cpu_list, size, &len,
			   j > i ? "%s%d-%d" : "%s%d", i ? "," : "", cpus[i],
			   cpus[j]);
	}
	free(online);
}

/* -G NAME: a cgroup that cannot be opened is said before anything. */
static void cgroup_check(const struct kt *kt)
{
	const char *mnt;
	int fd;

	if (!kt->opt.cgroup)
		return;
	fd = pc_cgroup_open(kt->opt.cgroup);
	if (fd >= 0) {
		close(fd);
		return;
	}
	mnt = pc_cgroup_mount();
	die_errno("-G %s: cannot open cgroup %s/%s", kt->opt.cgroup,
		  mnt ? mnt : "(no cgroup hierarchy mounted)", kt->opt.cgroup);
}

/* --kallsyms FILE: what is wrong with it, by the errno of its read. */
static const struct {
	int err;
	const char *what;
} kallsyms_refusals[] = {
	{ ENODATA, "no kernel text symbols in it" },
	{ EINVAL, "not a regular file" },	/* a FIFO, /dev/zero */
	{ EISDIR, "a directory, not a file" },
	{ EFBIG, "larger than any kallsyms, over 256 MiB" },
};

/* --kallsyms FILE: read now; a file of no kernel symbols ends here.  A
   stop signal during the read ends kerneltop as it would later. */
static void kallsyms_check(struct kt *kt)
{
	const char *file = kt->opt.kallsyms;

	errno = 0;
	if (symbols_load_kernel(kt->sym) == 0 || (errno == EINTR && kt_stop))
		return;
	for (size_t i = 0; i < sizeof(kallsyms_refusals) /
				 sizeof(*kallsyms_refusals); i++)
		if (errno == kallsyms_refusals[i].err)
			die("--kallsyms %s: %s (give a copy of /proc/kallsyms)",
			    file, kallsyms_refusals[i].what);
	if (errno)
		die_errno("--kallsyms %s: cannot read it", file);
	die("--kallsyms %s: its addresses are all zero (copy /proc/kallsyms "
	    "as root, or with kernel.kptr_restrict=0)", file);
}

/* -v: how the counters and rings were set up, on stderr. */
static void verbose_say(const struct kt *kt)
{
	const struct feed_info *in = &kt->info;
	char scheme[KT_LINE];
	unsigned i;

	for (i = 0; i < kt->nevents; i++) {
		const struct perf_event_attr *a = feed_attr(kt->feed, i);

		warn_msg("event %u: %s, type %u config %#llx, %s %llu%s%s", i,
			 kt->names[i], a->type, (unsigned long long)a->config,
			 a->freq ? "frequency" : "period",
			 (unsigned long long)a->sample_period,
			 a->freq ? " Hz" : "", a->inherit ? ", inherit" : "");
	}
	feed_scheme_str(kt->feed, scheme, sizeof(scheme));
	warn_msg("sampling: %s", scheme);
	warn_msg("%u counters, %u ring buffers of %u data pages (%llu KiB "
		 "each)", in->counters, in->rings, in->ring_pages,
		 (unsigned long long)in->ring_pages *
		 (unsigned long long)sysconf(_SC_PAGESIZE) / 1024);
	if (in->user_only)
		warn_msg("kernel samples refused: user space only");
	warn_msg("kernel symbols: %s", kt->opt.kallsyms ? kt->opt.kallsyms :
		 "/proc/kallsyms");
}

/*
 * The feed for the options' scope (dies with a message where it cannot
 * open).  Everything on every CPU is refused as an unprivileged user
 * above paranoid 0: the user's own tasks are what is left (user space
 * only, where the level says so).  Say what was dropped and the fix.
 */
static void feed_start(struct kt *kt)
{
	struct feed_failure fail = { .err = 0 }, ufail = { .err = 0 };
	const struct kt_options *o = &kt->opt;
	char msg[200];
	int err;

	kt->scope = o->scope;
	kt->feed = try_open(kt, o->scope, &fail);
	err = errno;
	if (kt->feed)
		return;
	if (o->scope != FEED_SYSTEM || o->cgroup ||
	    (err != EACCES && err != EPERM) ||
	    !(kt->feed = try_open(kt, FEED_USER, &ufail)))
		open_failed(kt, &fail, err);
	if (o->verbose) {
		char buf[PC_STRERROR_SIZE + 256];

		warn_msg("every task: %s",
			 failure_str(kt, &fail, err, buf, sizeof(buf)));
	}
	kt->scope = FEED_USER;
	snprintf(msg, sizeof(msg), "other users' tasks not allowed "
		 "(perf_event_paranoid %d): showing yours; fix: sysctl "
		 "kernel.perf_event_paranoid=-1, or CAP_PERFMON",
		 pc_probe()->paranoid);
	notice(kt, msg);
}

static void feed_notices(struct kt *kt);

void session_open(struct kt *kt)
{
	const struct kt_options *o = &kt->opt;

	/* the tools' one rule (util/stop-signals.h), from before the
	   kernel's symbols are read: that can take seconds */
	stop_signals_catch(on_stop);
	/* -r: kerneltop itself, as perf top -r */
	sample_realtime_enter(kt->opt.sample.realtime);
	cgroup_check(kt);
	events_setup(kt);
	trace_keys_setup(kt);
	cpu_list_format(kt);
	/*
	 * The live table needs function names only: loading every sampled
	 * DSO's DWARF for lines would cost tens of MB on a busy machine.
	 * Annotation opens a session with lines when it is asked for.
	 */
	kt->sym = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_LINES,
					    .kallsyms = o->kallsyms,
					    .stop = &kt_stop));
	if (!kt->sym)
		die_nomem();
	/* -s srcline: only then are lines looked up for every sample */
	if ((o->keys & TOP_KEY_SRCLINE) && !kt->sym_lines &&
	    !(kt->sym_lines = symbols_new(&SYMBOLS_OPTS(.flags =
						SYMBOLS_NO_PROC))))
		die_nomem();
	if ((o->keys & TOP_KEY_PARENT) &&
	    regcomp(&kt->parent_re, KT_PARENT_RE, REG_EXTENDED | REG_NOSUB))
		die("cannot compile the parent pattern %s", KT_PARENT_RE);
	profiles_new(kt);
	feed_start(kt);
	if (kt->oc.m)
		feed_on_switch(kt->feed, offcpu_feed_on_switch, &kt->oc);
	/*
	 * The counters opened disabled, so that a target that cannot be
	 * sampled is said at once.  The kernel's symbols are read before the
	 * first frame: read at the first kernel sample, they would hold it,
	 * the keys and the signals back.  Every task on every CPU (or a
	 * user's) is sampled once they are read: a flood of our own samples
	 * on every CPU (-c 1) would slow that read for minutes.  Chosen
	 * tasks are sampled from the start: a short-lived one is not
	 * missed, and its samples cannot flood every CPU.
	 */
	if (kt->scope == FEED_THREADS || kt->scope == FEED_PROCESSES)
		kt_enable(kt);
	if (o->kallsyms)
		kallsyms_check(kt);
	else if (!kt->attrs[0].exclude_kernel)
		symbols_load_kernel(kt->sym);
	if (kt->scope != FEED_THREADS && kt->scope != FEED_PROCESSES)
		kt_enable(kt);
	feed_info(kt->feed, &kt->info);
	kt->info_prev = kt->info;
	if (o->verbose)
		verbose_say(kt);
	feed_notices(kt);
	if (o->tasks)
		tasks_table_start(kt);
	tasks_table_check_sort(kt);
}

/* What the feed opened as says of what is sampled: on the header. */
static void feed_notices(struct kt *kt)
{
	if (kt->info.user_only)
		notice(kt, FEED_USER_ONLY_NOTICE);
	if (kt->info.no_inherit_read)
		notice(kt, FEED_NO_INHERIT_READ_NOTICE);
	if (kt->info.scheme == FEED_SCHEME_BUSIEST) {
		char msg[160];

		/* the header says why; on a screen its end may be cut */
		snprintf(msg, sizeof(msg), "sampling the %u busiest of %u "
			 "threads: too few descriptors (ulimit -n)",
			 kt->info.threads_sampled, kt->info.threads);
		notice(kt, msg);
	}
}

void session_close(struct kt *kt)
{
	tasks_table_stop(kt);
	offcpu_release(kt);
	for (enum kt_measure m = 0; m < KT_MEASURES; m++)
		profile_free(kt->prof[m]);
	exports_every_release(&kt->opt.exports);
	feed_close(kt->feed);
	if (kt->opt.keys & TOP_KEY_PARENT)
		regfree(&kt->parent_re);
	free(kt->socket_of);
	trace_formats_free(kt->trace);
	symbols_free(kt->sym);
	symbols_free(kt->sym_lines);
	options_release(&kt->opt);
}

/*
 * The package (socket) id of cpu, from sysfs, read once per CPU; -1 when
 * sysfs does not say (perf prints -1 then too).
 */
static int socket_of(struct kt *kt, int cpu)
{
	int v;

	if (cpu < 0 || cpu >= KT_MAX_CPUS)
		return -1;
	if (!kt->socket_of) {
		kt->socket_of = xmalloc(KT_MAX_CPUS * sizeof(*kt->socket_of));
		for (int i = 0; i < KT_MAX_CPUS; i++)
			kt->socket_of[i] = INT_MIN;	/* not read yet */
	}
	if (kt->socket_of[cpu] != INT_MIN)
		return kt->socket_of[cpu];
	if (cpu_topo_id(NULL, cpu, "physical_package_id", &v) != 0)
		v = -1;
	return kt->socket_of[cpu] = v;
}

/*
 * perf's srcline: "file:line" by the file's name, "sym+off" where there
 * is no line (the kernel here), "??:0" where there is no function.
 */
static void srcline_of(struct kt *kt, const struct sym_result *r, char *buf,
		       size_t size)
{
	struct sym_result lr;
	const char *base;

	if (!r->kernel && r->dso && r->dso[0] != '[' &&
	    symbols_resolve_file(kt->sym_lines, r->dso, r->dso_off, &lr) == 0 &&
	    lr.file && lr.line) {
		base = strrchr(lr.file, '/');
		snprintf(buf, size, "%s:%d", base ? base + 1 : lr.file,
			 lr.line);
	} else if (r->sym) {
		snprintf(buf, size, "%s+%" PRIu64, r->sym, r->off);
	} else {
		snprintf(buf, size, "??:0");
	}
}

/*
 * perf's parent: the first function of the call chain, from the leaf up,
 * whose name matches the parent pattern; "[other]" without one, and
 * without call chains (as perf top).
 */
static const char *parent_of(const struct kt *kt, const struct feed_sample *s)
{
	unsigned i;

	if (kt->opt.callgraph == FEED_CG_NONE)
		return KT_PARENT_OTHER;
	for (i = 0; i < s->nframes; i++)
		if (s->frames[i].sym &&
		    regexec(&kt->parent_re, s->frames[i].sym, 0, NULL, 0) == 0)
			return s->frames[i].sym;
	return KT_PARENT_OTHER;
}

/* The view of the filters of the command line, for the call chains. */

/* The feed's callback: one sample into the model. */
static int add_sample(void *arg, const struct feed_sample *s)
{
	struct kt *kt = arg;
	const struct sym_result *r = s->sym;
	int chain;
	unsigned keys = kt->opt.keys;
	char srcline[KT_LINE], trace[KT_LINE];
	struct profile_sample ps = {
		.frames = s->frames, .nframes = s->nframes,
		.time = s->raw->time, .lead_delta = s->lead_delta,
		.deltas = s->ndeltas ? s->deltas : NULL,
		.same_fn = s->same_fn,
	};
	struct top_sample ts = {
		.sym = r->sym,
		.dso = r->dso ? r->dso : "[unknown]",
		.comm = s->comm,
		.pid = (pid_t)s->raw->pid, .tid = (pid_t)s->raw->tid,
		.mode = s->mode == 'g' ? '.' : s->mode,
		.event = s->event,
		.weight = 1,
		.addr = r->kernel ? s->raw->ip : r->dso_off,
		.cause = r->cause,
		.period = s->raw->period,
	};

	/* the keys that make more entries, only when a view groups by them */
	if (keys & (TOP_KEY_CPU | TOP_KEY_SOCKET)) {
		ts.cpu = s->has_cpu ? (int)s->raw->cpu : -1;
		if (keys & TOP_KEY_SOCKET)
			ts.socket = socket_of(kt, ts.cpu);
	}
	if (keys & TOP_KEY_SRCLINE) {
		srcline_of(kt, r, srcline, sizeof(srcline));
		ts.srcline = srcline;
	}
	if (keys & TOP_KEY_PARENT)
		ts.parent = parent_of(kt, s);
	if (keys & TOP_KEY_TRACE)
		ts.trace = trace_keys_text(kt, s->raw, s->event, trace,
					   sizeof(trace));

	if (s->raw->time > kt->newest_ns)
		kt->newest_ns = s->raw->time;
	/* for the rate: a sample held for its maps is of a past refresh */
	if (s->raw->time > kt->newest_prev)
		kt->window++;
	/* the first refresh's rate runs from the first sample */
	if (!kt->newest_prev)
		kt->newest_prev = s->raw->time;
	ps.top = ts;
	if ((int)s->event == kt->oc.event) {	/* a switch's stack */
		offcpu_sample(kt, s, &ps);
		return 0;
	}
	chain = profile_add(kt->prof[KT_ON_CPU], &ps);
	if (chain < 0)
		die_nomem();
	if (kt->tasks)
		tasks_table_sample(kt, s);
	offcpu_sample(kt, s, &ps);
	/* the interval's exports take the chains the whole run's take */
	if (chain && kt->measure == KT_ON_CPU)	/* else offcpu.c's, in ns */
		exports_every_add(&kt->opt.exports, s->frames, s->nframes,
				  s->raw->period, s->raw->time);
	return 0;
}

/*
 * One drain's bounds.  Samples may come faster than they are read (-c 1,
 * a high -F with DWARF call graphs, a busy machine): the rings are then
 * never empty, and a drain to the end would hold off frames, keys and
 * signals for ever.
 */
#define DRAIN_MS 50
#define DRAIN_RECORDS 500000

/*
 * A JIT's perf-PID.map of millions of lines takes a second of CPU to
 * read: it is read at each drain within a share of the time since the
 * last (in CPU, a slice at most), so that frames and keys keep their pace
 * while it is read, in as few frames as that share allows.
 */
#define JIT_SHARE 0.25
#define JIT_SLICE_MS 25.0

static void jit_grant(struct kt *kt)
{
	double now = clock_ms(CLOCK_MONOTONIC);
	double ms = JIT_SHARE * (now - kt->jit_granted);

	kt->jit_granted = now;
	symbols_jit_budget(kt->sym, ms < JIT_SLICE_MS ? ms : JIT_SLICE_MS);
}

bool session_drain(struct kt *kt)
{
	bool more = false;

	jit_grant(kt);

	if (feed_drain_some(kt->feed, add_sample, kt,
			    &FEED_BUDGET(.max_records = DRAIN_RECORDS,
					 .max_ms = DRAIN_MS), &more) < 0) {
		if (errno == ENOMEM)	/* symbols, not the buffers */
			die_nomem();
		die_errno("cannot read the sample buffers");
	}
	feed_info(kt->feed, &kt->info);
	/* a -p/-t target that has ended ends the sampling */
	if (!kt->ended && feed_poll(kt->feed, 0) >= 0) {
		feed_info(kt->feed, &kt->info);
		if (kt->info.target_gone) {
			kt->ended = true;
			snprintf(kt->ended_msg, sizeof(kt->ended_msg),
				 "%s %d exited",
				 kt->opt.scope == FEED_THREADS ? "thread"
							       : "process",
				 (int)kt->info.gone_pid);
		}
	}
	return more;
}

bool session_background(struct kt *kt)
{
	/* samples wait for maps: read on without waiting */
	return feed_background(kt->feed, 5) && kt->info.held;
}

/* What avoids lost samples, for the messages. */
static const char *rate_fix(const struct kt *kt)
{
	bool every = false;

	if (kt->opt.off_cpu)
		return OFFCPU_LOST_FIX;
	/* a tracepoint is sampled at each occurrence: -F does not apply */
	for (unsigned i = 0; i < kt->nevents; i++)
		every |= !kt->attrs[i].freq && kt->attrs[i].sample_period == 1;
	if (every && !kt->opt.sample.period_set)
		return kt->opt.callgraph == FEED_CG_DWARF ?
		       "-c N samples every Nth, or use --call-graph fp" :
		       "-c N samples every Nth";
	if (kt->opt.callgraph == FEED_CG_DWARF)
		return kt->opt.sample.period_set ? "raise -c, or use --call-graph fp"
					  : "lower -F, or use --call-graph fp";
	return kt->opt.sample.period_set ? "raise -c" : "lower -F";
}

void session_tick(struct kt *kt, double interval_s)
{
	struct feed_info *now = &kt->info, *prev = &kt->info_prev;
	uint64_t n, k, u, lost;
	double span;

	feed_info(kt->feed, now);
	n = now->samples - prev->samples;
	k = now->by_mode[FEED_MODE_KERNEL] - prev->by_mode[FEED_MODE_KERNEL];
	u = n - k;
	/*
	 * The rate of the samples read that came since the last refresh,
	 * over the time they cover by their own clock: a refresh held up (a
	 * slow read), one that read what piled up meanwhile, or samples held
	 * for their maps would otherwise be off by the delay.
	 */
	span = kt->newest_prev && kt->newest_ns > kt->newest_prev ?
		       (double)(kt->newest_ns - kt->newest_prev) / 1e9 : 0;
	if (span <= 0 || kt->window < 2)
		span = interval_s;
	kt->interval_s = interval_s;
	kt->rate = span > 0 ? (double)kt->window / span : 0;
	kt->window = 0;
	kt->kernel_pct = n ? 100.0 * (double)k / (double)n : 0;
	kt->user_pct = n ? 100.0 * (double)u / (double)n : 0;
	lost = now->lost - prev->lost;
	kt->overload[0] = '\0';
	if (lost)
		snprintf(kt->overload, sizeof(kt->overload), "dropping "
			 "samples: %" PRIu64 " lost, they come faster than "
			 "read (%s)", lost, rate_fix(kt));
	else if (now->cut_short != prev->cut_short)
		snprintf(kt->overload, sizeof(kt->overload), "samples come "
			 "faster than read (%s)", rate_fix(kt));
	else if (now->held)
		snprintf(kt->overload, sizeof(kt->overload), "%" PRIu64
			 " samples wait for their process's maps", now->held);
	kt->newest_prev = kt->newest_ns;
	*prev = *now;
	if (kt->opt.openmetrics && !kt->failed[0] &&
	    kt_openmetrics_write(kt) != 0)
		snprintf(kt->failed, sizeof(kt->failed),
			 "cannot write %s: %s%s", kt->opt.openmetrics,
			 output_strerror(errno),
			 output_path_fix(errno));
	if (kt->tasks)
		tasks_table_tick(kt, interval_s);
	offcpu_tick(kt);
}

void session_lost_say(const struct kt *kt)
{
	struct feed_info in;

	feed_info(kt->feed, &in);
	if (in.lost)
		warn_msg("%" PRIu64 " samples lost: they came faster than "
			 "read (%s)", in.lost, rate_fix(kt));
}

void session_age(struct kt *kt)
{
	for (enum kt_measure m = 0; m < KT_MEASURES; m++)
		if (kt->prof[m])
			profile_age(kt->prof[m], kt->opt.zero);
	kt->frames++;
}
