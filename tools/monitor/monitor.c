/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor.c - sample one thread (or a command) and print each sampled
 * instruction pointer as function+offset, DSO and file:line, as the
 * samples arrive; the 2008 demo's interface, resolved in-process.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/strbuf.h"
#include "trace/trace.h"
#include "monitor.h"
#include "sampling-cli/callgraph.h"
#include "sampling-cli/exports.h"
#include "sampling-cli/rings.h"
#include "sampling-cli/sample-args.h"
#include "sampling-cli/sample-setup.h"
#include "util/die.h"
#include "util/events.h"
#include "util/fd-limit.h"
#include "util/output.h"
#include "util/stop-signals.h"
#include "util/task.h"
#include "util/usage.h"
#include "util/xmalloc.h"

/* data pages per ring without -m (and DWARF call graphs) */
#define RING_PAGES 64


static volatile sig_atomic_t interrupted;	/* the stop signal, or 0 */
static volatile sig_atomic_t interrupt_code;	/* its si_code */
static volatile sig_atomic_t interrupt_count;	/* how many came */

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	interrupted = sig;
	interrupt_code = si->si_code;
	interrupt_count++;
}


/* --script: a tracepoint's format, for its records' text, as perf
   script prints it. */
static void trace_add(struct monitor *m, const struct pc_event_spec *ev)
{
	char name[64];

	if (!m->trace && !(m->trace = trace_formats_new(NULL)))
		die("cannot read the tracepoints' formats for --script: %s "
		    "(mount tracefs: mount -t tracefs nodev "
		    "/sys/kernel/tracing)", strerror(errno));
	trace_event_name(ev->name, name, sizeof(name));
	if (trace_formats_add(m->trace, name) != 0)
		die("cannot read the format of %s: %s", name,
		    errno == EBADMSG ? "libtraceevent cannot parse it" :
		    strerror(errno));
}

/* A notice of the set-up: on stderr, unless -q. */
static void setup_notice(void *arg, const char *msg)
{
	const struct monitor *m = arg;

	if (!m->quiet)
		warn_msg("%s", msg);
}

/*
 * -e into attrs, the samplers' one set-up (sample-setup.h): without -c
 * or -F, events with a fast one among them are sampled at perf's 4000
 * Hz, all of them (the ring's records have one layout), and other
 * events every 10000, as the 2008 demo (whose 2008 call knows no
 * frequency: --legacy keeps the period).  Then what monitor shows of
 * them.
 */
static void setup_events(struct monitor *m)
{
	struct sample_setup s = {
		.args = &m->sample, .max_events = MONITOR_MAX_EVENTS,
		.strict_freq = m->strict_freq, .slow_period = DEFAULT_PERIOD,
		.legacy = m->legacy,
		.exclude_kernel = m->space == SPACE_USER,
		.exclude_user = m->space == SPACE_KERNEL,
		.notice = setup_notice, .notice_arg = m,
		.attrs = m->attrs, .names = m->event_names,
		.metrics = &m->metrics,
	};
	unsigned i;

	/* (before the set-up: the 2008 call's limit, not the events') */
	if (m->legacy && m->sample.events.nr > 1)
		usage_error("--legacy samples one event, not %zu (the 2008 "
			    "call reads each counter's IPs alone)",
			    m->sample.events.nr);
	sample_setup(&s);
	m->nevents = s.nevents;
	m->group_read = s.group_read;
	for (i = 0; i < m->nevents; i++) {
		struct perf_event_attr *a = &m->attrs[i];

		if (strlen(m->event_names[i]) > m->event_width)
			m->event_width = (unsigned)strlen(m->event_names[i]);
		if (a->type == PERF_TYPE_TRACEPOINT &&
		    m->format == FORMAT_SCRIPT &&
		    (m->script_tp_fields & SF_TRACE))
			trace_add(m, &m->sample.events.ev[i]);
		str_join(m->events_joined, sizeof(m->events_joined), ",",
			 m->event_names[i]);
		if (i == 0)
			snprintf(m->rate, sizeof(m->rate), a->freq ?
				 "-F %" PRIu64 : "-c %" PRIu64,
				 (uint64_t)(a->freq ? a->sample_freq
						    : a->sample_period));
	}
	/* the records come with every event's samples: one layout */
	for (i = 0; m->trace && i < m->nevents; i++)
		m->attrs[i].sample_type |= PERF_SAMPLE_RAW;
	offcpu_events(m);
}

/* The feed on the thread, its process, or the command we started. */
static void open_feed(struct monitor *m)
{
	struct feed_failure fail = { .err = 0 };
	pid_t id = m->tid;
	char buf[PC_STRERROR_SIZE + 256];

	if (m->all_threads && !m->command && !m->system)
		id = thread_tgid(m->tid);
	m->feed = feed_open(&FEED_OPTS(
		.attrs = m->attrs, .nattrs = m->nattrs,
		.context_switch = m->off_cpu,
		.scope = m->system ? FEED_SYSTEM : m->all_threads ?
			 FEED_PROCESSES : FEED_THREADS,
		.ids = m->system ? NULL : &id, .nids = m->system ? 0 : 1,
		.cpus = m->cpus, .ncpus = m->ncpus,
		.backend = m->legacy ? PC_BACKEND_LEGACY : PC_BACKEND_AUTO,
		/* -a: every task from the start, as perf record -a */
		.enable_on_exec = m->command != NULL && !m->system,
		.user_fallback = m->space == SPACE_ALL,
		.no_resolve = m->format == FORMAT_RAW,
		.ring_pages = sample_ring_pages(m->sample.ring_pages, m->callgraph,
						RING_PAGES),
		.sym = m->sym, .failure = &fail,
		.callgraph = m->callgraph, .stack_size = m->stack_size,
		.group_read = m->group_read));
	if (!m->feed) {
		int e = errno;

		if (m->command && m->child.pid > 0) {
			kill(m->child.pid, SIGKILL);
			waitpid(m->child.pid, NULL, 0);
		}
		die("%s", feed_failure_strerror(&fail, e,
			&(struct feed_failure_words){
				.gone = "thread", .on = "thread", .id = m->tid,
				.event = m->event_names[fail.event],
				.attr = &m->attrs[fail.event],
				.rings = "buffer" }, buf, sizeof(buf)));
	}
	offcpu_start(m);
	feed_info(m->feed, &m->info);
	if (m->info.user_only && !m->quiet)
		warn_msg("%s", FEED_USER_ONLY_NOTICE);
	if (m->info.no_inherit_read && !m->quiet)
		warn_msg("%s", FEED_NO_INHERIT_READ_NOTICE);
	if (m->info.scheme == FEED_SCHEME_BUSIEST && !m->quiet) {
		feed_scheme_str(m->feed, buf, sizeof(buf));
		warn_msg("sampling: %s", buf);	/* not every thread */
	}
}

static bool want_sample(const struct monitor *m, bool kernel)
{
	return m->space == SPACE_ALL || (m->space == SPACE_KERNEL) == kernel;
}

/* The feed's callback: one sample, printed and counted. */
static int on_sample(void *arg, const struct feed_sample *fs)
{
	struct monitor *m = arg;
	const struct monitor_output *out = output_for(m->format);
	const struct sym_result *r = fs->sym;
	bool tp = m->attrs[fs->event].type == PERF_TYPE_TRACEPOINT;
	struct profile_sample ps;
	char trace[1024];
	int chain;
	struct monitor_sample s = {
		.time = fs->raw->time, .pid = fs->raw->pid,
		.tid = fs->raw->tid, .cpu = fs->raw->cpu,
		.has_cpu = fs->has_cpu, .ip = fs->raw->ip, .sym = r,
		.event = m->event_names[fs->event],
		.event_field = m->nevents > 1,
		.period = fs->raw->period, .comm = fs->comm,
		.event_width = m->event_width,
		.script_fields = tp ? m->script_tp_fields : m->script_fields,
		.frames = m->callgraph != FEED_CG_NONE ? fs->frames : NULL,
		.nframes = fs->nframes,
	};

	if (offcpu_sample(m, fs))
		return 0;	/* a switch's stack, not a sample */
	if (!want_sample(m, fs->mode == 'k')) {
		m->totals.filtered++;
		return 0;
	}
	if (tp && m->trace) {
		if (trace_record_text(m->trace, fs->raw->raw,
				      fs->raw->raw_size, TRACE_PRETTY, trace,
				      sizeof(trace)) < 0)
			snprintf(trace, sizeof(trace), "[%s]", errno == EBADMSG ?
				 "bad record" : "unknown record");
		s.trace = trace;
	}
	out->sample(stdout, &s);
	output_note(stdout);	/* a failed flush inside keeps its errno */
	/* by (function, DSO) alone: one mode, no task; unresolved (--raw)
	   it counts in the rates and chains only */
	ps = (struct profile_sample){
		.top = { .sym = r ? r->sym : NULL, .dso = r ? r->dso : NULL,
			 .mode = '.', .event = fs->event, .weight = r != NULL,
			 .addr = !r ? 0 : r->kernel ? fs->raw->ip : r->dso_off,
			 .cause = r ? r->cause : SYM_OK,
			 .period = fs->raw->period },
		.frames = fs->frames, .nframes = fs->nframes,
		.time = fs->raw->time, .lead_delta = fs->lead_delta,
		.deltas = fs->ndeltas ? fs->deltas : NULL,
		.same_fn = fs->same_fn,
	};
	chain = profile_add(m->prof, &ps);
	if (chain < 0)
		die_nomem();
	if (r && !r->sym)
		m->totals.unresolved++;
	/* --off-cpu: the exports hold wall-clock ns (offcpu.c), or the
	   off-CPU time alone */
	if (m->oc.m)
		offcpu_wall_sample(m, &ps);
	else if (chain)
		exports_every_add(&m->exports, fs->frames, fs->nframes,
				  fs->raw->period, fs->raw->time);
	m->totals.samples++;
	m->totals.by_event[fs->event]++;
	return m->max_samples && m->totals.samples >= m->max_samples;
}

/*
 * Take the records, within a bound: samples may come faster than they
 * are printed, and a signal must still be seen.  True when records were
 * left.  Say once that malformed ones were skipped.
 */
static bool drain(struct monitor *m)
{
	bool more = false;

	if (feed_drain_some(m->feed, on_sample, m,
			    &FEED_BUDGET(.max_ms = 50), &more) < 0) {
		if (errno == ENOMEM)	/* symbols, not the buffer */
			die_nomem();
		die_errno("cannot read the sample buffer");
	}
	feed_info(m->feed, &m->info);
	if (m->info.malformed && !m->corrupt_seen) {
		if (!m->quiet)
			warn_msg("malformed record in the sample buffer; "
			 "skipped the unread records and going on");
		m->corrupt_seen = true;
	}
	return more;
}

static bool samples_done(const struct monitor *m)
{
	return m->max_samples && m->totals.samples >= m->max_samples;
}

static void target_setup(struct monitor *m)
{
	char *exe = NULL, link[64];

	if (m->command) {
		char why[512];
		int e;

		exe = spawn_path_search(m->command[0]);
		if (spawn_hold(&m->child, m->command, NULL) != 0)
			die("cannot start '%s': %s", m->command[0],
			    spawn_strerror(&m->child, errno, why,
					   sizeof(why)));
		if (!exe) {
			/* it cannot run: its exec says why (a directory, no
			   x bit, no such file) */
			e = spawn_release(&m->child);
			if (e == 0) {	/* ran after all: not unwatched */
				spawn_end_started();
				e = ENOENT;
			}
			waitpid(m->child.pid, NULL, 0);
			if (spawn_exit_status(&m->child, e) == 127)
				die("cannot run '%s': no such command",
				    m->command[0]);
			die("cannot run '%s': %s", m->command[0],
			    spawn_strerror(&m->child, e, why, sizeof(why)));
		}
		m->tid = m->child.pid;
		snprintf(m->target_name, sizeof(m->target_name), "%s (pid %d)",
			 m->command[0], (int)m->tid);
	} else if (m->system) {
		snprintf(m->target_name, sizeof(m->target_name), "%s",
			 m->cpus ? "the CPUs of -C" : "every CPU");
	} else {
		if (thread_tgid(m->tid) < 0)
			die("no thread %d (has it exited?)", (int)m->tid);
		if (task_is_others(m->tid))
			die("thread %d belongs to another user (run monitor "
			    "as its owner or as root)", (int)m->tid);
		snprintf(link, sizeof(link), "/proc/%d/exe", (int)m->tid);
		exe = realpath(link, NULL);
		snprintf(m->target_name, sizeof(m->target_name), "%s %d",
			 m->all_threads ? "process of thread" : "thread",
			 (int)m->tid);
	}
	if (m->debug_file) {
		struct stat st;
		enum sym_cause c;

		if (access(m->debug_file, R_OK) != 0)
			die_errno("cannot read -d file '%s'", m->debug_file);
		if (stat(m->debug_file, &st) == 0 && S_ISDIR(st.st_mode))
			die("-d file '%s' is a directory (give the target's "
			    "unstripped executable or its debug file)",
			    m->debug_file);
		if (stat(m->debug_file, &st) == 0 && !S_ISREG(st.st_mode))
			die("-d file '%s' is not a regular file (a FIFO or a "
			    "device; give the target's unstripped executable "
			    "or its debug file)", m->debug_file);
		if (!exe && m->system)
			die("-d names the target's executable: give -a/-C a "
			    "command (-- COMMAND), or drop -d");
		if (!exe)
			die("cannot find the executable of thread %d for -d",
			    (int)m->tid);
		/* refused now, not blamed on the target in every sample */
		c = symbols_check_debug_file(m->sym, exe, m->debug_file);
		if (c != SYM_OK)
			die("cannot use -d file '%s' for %s: %s (%s)",
			    m->debug_file, exe, symbols_cause_name(c),
			    symbols_cause_advice(c));
		if (symbols_set_debug_file(m->sym, exe, m->debug_file) != 0)
			die_errno("cannot use -d file '%s'", m->debug_file);
	}
	free(exe);
}

/*
 * The samples written so far went out, or exit 1: a full disk is an
 * error.  A pipe whose reader is gone (SIGPIPE ignored by our caller)
 * ends the run quietly instead, as head(1)'s writers do.
 */
static void out_check(void)
{
	if (output_reader_gone(stdout, "standard output")) {
		spawn_end_started();	/* never left running behind us */
		exit(0);
	}
}

/*
 * The samples' profile: functions per event, --metric's rates of a
 * group read, and the chains the exports write (pprof: a sample type
 * per member) unless --off-cpu's wall-clock or off-CPU time is written.
 */
static void profile_start(struct monitor *m)
{
	m->prof = profile_new(&(struct profile_config){
		.nevents = m->nevents,
		.chains_all = exports_any(&m->exports) && !m->off_cpu,
		.nmembers = m->group_read ? m->nevents - 1 : 0,
		.metrics = m->metrics.m, .nmetrics = m->metrics.n });
	if (!m->prof)
		die_nomem();
}

/* The chains the exports write; NULL without exports. */
static struct stacks *export_chains(const struct monitor *m)
{
	return profile_chains_all(m->oc.m ? offcpu_export_profile(m)
					    : m->prof);
}

/* What the exports say of the profile, besides its stacks and time. */
static struct export_meta export_meta(struct monitor *m)
{
	for (unsigned i = 1; i < m->nevents; i++)
		m->members[i - 1] = m->event_names[i];
	return EXPORT_META(.tool = "monitor", .target = m->target_name,
			   .event = m->event_names[0],
			   .attr = feed_attr(m->feed, 0),
			   .time_ns = m->start_ns,
			   .duration_ns = clock_ns(CLOCK_REALTIME) -
					  m->start_ns,
			   .sym = m->sym, .ns_weights = m->off_cpu,
			   .program = symbols_program(m->sym, m->tid),
			   .values = m->members);
}

/* --export-every: the interval's snapshots when due (last: now); true
   when one failed (said on stderr). */
static bool export_tick(struct monitor *m, bool last)
{
	struct export_meta meta;
	char msg[512];

	if (!exports_every(&m->exports))
		return false;
	offcpu_end(m);	/* the threads off the CPU, in this interval */
	meta = export_meta(m);
	if (exports_every_tick(&m->exports, &meta, last, msg,
			       sizeof(msg)) == 0)
		return false;
	warn_msg("%s", msg);
	return true;
}

static void loop(struct monitor *m)
{
	bool more;
	int status;

	for (;;) {
		more = drain(m);
		export_tick(m, false);
		/* -a/-C: the maps of the processes that ran before; their
		   samples wait for them (feed_background()) */
		if (m->system && feed_background(m->feed, 20) > 0 &&
		    m->info.held)
			more = true;
		out_check();
		if (interrupted || m->info.target_gone || samples_done(m))
			break;
		if (m->command && waitpid(m->child.pid, &status, WNOHANG) ==
					  m->child.pid) {
			m->child.pid = 0;
			m->child_status = status;
			/* what it left in the ring (and the samples that
			   wait for maps), a signal still heard */
			while ((drain(m) || (m->system &&
				feed_background(m->feed, 50) > 0)) &&
			       !interrupted && !samples_done(m))
				out_check();
			break;
		}
		/* behind: what is left is read at once */
		if (!more && feed_poll(m->feed, 100) < 0)
			die_errno("poll");
	}
	out_check();
}

/* What avoids lost samples, for the lost message. */
static void rate_fix(const struct monitor *m, char *buf, size_t size)
{
	if (m->off_cpu) {
		snprintf(buf, size, "%s", OFFCPU_LOST_FIX);
		return;
	}
	snprintf(buf, size, "sample less often than %s%s%s", m->rate,
		 m->callgraph == FEED_CG_DWARF ?
			 ", or use --call-graph fp" : "",
		 m->format == FORMAT_NONE ? "" : ", or print --summary only");
}

/*
 * The command we started, once the sampling ended: -n ended us first
 * (the command is ended, SIGTERM then SIGKILL after a second, as pcstat
 * --timeout does), or a stop signal did (the command gets it too and is
 * waited for, never left running behind our back).
 */
static void command_end(struct monitor *m)
{
	if (m->command && m->child.pid > 0 && !interrupted && samples_done(m)) {
		/* -n ended us first: the command is not left running on its
		   own (SIGTERM, then SIGKILL after a second), as pcstat
		   --timeout does */
		int st;
		pid_t w = waitpid(m->child.pid, &st, WNOHANG);

		if (w == m->child.pid)		/* it ended on its own */
			m->child_status = st;
		if (w == 0) {
			spawn_end_started();
			if (!m->quiet)
				warn_msg("%" PRIu64 " samples taken (-n): ended %s "
				 "(pid %d)", m->max_samples, m->command[0],
				 (int)m->child.pid);
		}
		m->child.pid = 0;
	}
	if (m->command && m->child.pid > 0 && interrupted) {
		/* a stop signal ended us: the command gets it too (from the
		   terminal it already has), and is waited for, never left
		   running behind our back; a second signal ends one that
		   ignores the first (polled: no signal is missed between a
		   check and a blocking wait) */
		struct timespec tick = { 0, 20 * 1000 * 1000 };
		unsigned passed = 0;

		while (waitpid(m->child.pid, NULL, WNOHANG) == 0) {
			unsigned n = (unsigned)interrupt_count;

			if (n != passed)
				stop_signal_pass(m->child.pid, interrupted,
						 interrupt_code, n);
			passed = n;
			nanosleep(&tick, NULL);
		}
		m->child.pid = 0;
	}
}

/* The run's last figures (the spans still open, what the feed counted)
   and its summary, on standard error (--summary: standard output). */
static void summary_say(struct monitor *m)
{
	char fix[160], sampling[512];

	offcpu_end(m);
	feed_info(m->feed, &m->info);
	m->totals.event = m->events_joined;
	m->totals.target = m->target_name;
	m->totals.callgraph = m->callgraph;
	m->totals.stack_size = m->stack_size;
	rate_fix(m, fix, sizeof(fix));
	m->totals.lost_fix = fix;
	feed_scheme_str(m->feed, sampling, sizeof(sampling));
	m->totals.sampling = sampling;
	if (m->summary_only || !m->quiet) {
		summary_print(m->summary_only ? stdout : stderr, m->prof,
			      m->group_read ? &m->metrics : NULL,
			      (const char (*)[64])m->event_names,
			      m->group_read ? 1 : m->nevents,
			      m->sym, &m->totals, m->top, &m->info);
		offcpu_summary(m->summary_only ? stdout : stderr, m);
		output_check(m->summary_only ? stdout : stderr,
			     m->summary_only ? "standard output"
					    : "standard error");
	}
	m->totals.lost_fix = m->totals.sampling = NULL;	/* ours, here */
}

/* --annotate and the exports, the last interval's snapshots included;
   0, or 1 when one could not be written (said on stderr). */
static int outputs_write(struct monitor *m)
{
	int status = 0;

	if (m->annotate && annotate_print(m, stdout) != 0)
		status = 1;
	/* the last interval, partial: the snapshots add up to the run;
	   one lost on the way fails the run, whatever the last did */
	if (export_tick(m, true) || exports_every_failed(&m->exports))
		status = 1;
	exports_every_release(&m->exports);
	if (export_chains(m)) {
		struct export_meta meta = export_meta(m);

		if (exports_write(&m->exports, export_chains(m), &meta) != 0)
			status = 1;
	}
	return status;
}

/* The command's own status, as perf record and pcstat pass it on. */
static int command_status(const struct monitor *m)
{
	/* a script sees the command fail; 128 + N for a signal */
	if (m->child_status != -1 && WIFEXITED(m->child_status))
		return WEXITSTATUS(m->child_status);
	if (m->child_status != -1 && WIFSIGNALED(m->child_status))
		return 128 + WTERMSIG(m->child_status);
	return 0;
}

int main(int argc, char **argv)
{
	struct monitor m = { .top = 20,
			     .child_status = -1 };
	int status;
	set_progname(argv[0]);
	std_fds_guard();
	fd_limit_raise();
	/* a failure mid-run ends the command we started, never leaves it */
	spawn_end_on_failure();
	options_parse(&m, argc, argv);
	std_fd_require(STDOUT_FILENO, m.summary_only ?
		       "the summary would be lost: give it a file or a pipe" :
		       "the samples would be lost: give it a file or a pipe");
	if (!m.summary_only)
		std_fd_require(STDERR_FILENO, "the summary would be lost: "
			       "give --summary to print it on standard output");
	exports_check(&m.exports);
	setup_events(&m);
	m.sym = symbols_new(NULL);
	if (!m.sym)
		die_nomem();
	profile_start(&m);

	/* the tools' one rule (util/stop-signals.h) */
	stop_signals_catch(on_signal);
	/*
	 * SIGPIPE still ends us, as in every other tool: `monitor ... |
	 * head` ends when head does (status 141), once the command is
	 * ended (spawn_end_on_failure()), and a command we start does not
	 * inherit an ignored SIGPIPE.  Where our caller ignores it,
	 * out_closed() ends the run instead.
	 */
	m.start_ns = clock_ns(CLOCK_REALTIME);
	exports_every_start(&m.exports, m.start_ns);
	/*
	 * -a/-C: the counters first, then the command, a new process whose
	 * maps come as records; started first, it would be a process whose
	 * maps the feed's scan reads, and its samples wait for that scan.
	 */
	if (m.system)
		open_feed(&m);
	target_setup(&m);
	if (!m.system)
		open_feed(&m);
	if (m.command && (errno = spawn_release(&m.child)) != 0) {
		char why[512];
		int e = errno;

		waitpid(m.child.pid, NULL, 0);
		die("cannot run '%s': %s", m.command[0],
		    spawn_strerror(&m.child, e, why, sizeof(why)));
	}
	/* perf record's -r: the reader, not the command (started already) */
	sample_realtime_enter(m.sample.realtime);
	loop(&m);
	/* what was lost while we read: not what came once we stopped */
	feed_info(m.feed, &m.info);
	m.totals.lost = m.info.lost;
	command_end(&m);

	summary_say(&m);
	status = outputs_write(&m);
	feed_close(m.feed);
	if (m.command && m.child.pid > 0)
		waitpid(m.child.pid, &m.child_status, 0);
	symbols_free(m.sym);
	trace_formats_free(m.trace);
	profile_free(m.prof);
	offcpu_release(&m);
	pc_event_list_release(&m.sample.events);
	free(m.cpus);
	output_check(stdout, "standard output");
	if (status)
		return 1;
	return command_status(&m);
}
