/*
 * monitor.c - sample one thread (or a command) and print each sampled
 * instruction pointer as function+offset, DSO and file:line, as the
 * samples arrive; the 2008 demo's interface, resolved in-process.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monitor.h"
#include "util/die.h"
#include "util/parse.h"
#include "util/usage.h"
#include "util/xmalloc.h"

#define DEFAULT_PERIOD 10000
#define DEFAULT_EVENT "cycles"
#define FALLBACK_EVENT "cpu-clock"
#define RING_PAGES 64
#define MAX_THREADS 1024

struct monitor {
	pid_t tid;			/* <tid>, or the command's pid */
	char **command;
	bool all_threads, legacy, summary_only, period_set, freq_set;
	bool corrupt_seen;	/* a malformed record was met */
	uint64_t period, freq, max_samples;
	const char *event, *debug_file;
	enum monitor_format format;
	enum monitor_space space;
	unsigned top;

	struct pc_counter *counters[MAX_THREADS];
	unsigned ncounters;
	struct pc_ring *ring;
	struct perf_event_attr attr;
	char event_name[64], target_name[64];

	struct symbols *sym;
	struct hist *hist;
	struct monitor_totals totals;
	struct spawn child;		/* the command, when monitor starts one */
	bool target_gone;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

enum {
	OPT_RAW = 256, OPT_JSON, OPT_SUMMARY, OPT_ALL_THREADS, OPT_LEGACY,
	OPT_TOP,
};

/* The options, one table: getopt's and --help's. */
static const struct opt_def options[] = {
	{ "count", 'c', 'c', "COUNT", "sample every COUNT events (default 10000)" },
	{ "freq", 'F', 'F', "HZ", "sample HZ times a second instead" },
	{ "event", 'e', 'e', "EVENT", "event to sample (default cycles, else cpu-clock)" },
	{ "kernel", 'k', 'k', NULL, "kernel samples only" },
	{ "user", 'u', 'u', NULL, "user samples only" },
	{ "samples", 'n', 'n', "N", "stop after N samples" },
	{ "debug-file", 'd', 'd', "FILE", "read symbols of the target's executable from FILE" },
	{ "raw", 0, OPT_RAW, NULL, "print the 2008 demo's 'IP: 0x...' lines" },
	{ "json", 0, OPT_JSON, NULL, "print one JSON object per sample" },
	{ "summary", 0, OPT_SUMMARY, NULL, "print only the summary table, on stdout" },
	{ "top", 0, OPT_TOP, "N", "functions in the summary (default 20)" },
	{ "all-threads", 0, OPT_ALL_THREADS, NULL, "sample every thread of the process, new ones too" },
	{ "legacy", 0, OPT_LEGACY, NULL, "use the 2008 perf_counter_open call (patched kernel)" },
	{ "help", 'h', 'h', NULL, "this help" },
	{ "version", 'V', 'V', NULL, "print the version" },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static void usage(void)
{
	usage_print(stdout, "usage: monitor [options] TID\n"
			    "       monitor [options] -- COMMAND [ARGS...]",
		    options, NOPTIONS, "See monitor(1).");
	exit(0);
}

static void parse_options(struct monitor *m, int argc, char **argv)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[OPTS_SHORT_SIZE(NOPTIONS)];
	uint64_t top;
	int c;

	usage_getopt(options, NOPTIONS, longopts, shortopts, true);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!parse_u64(optarg, 1, UINT64_MAX >> 1, &m->period))
				usage_error("-c wants a count of events >= 1, "
					    "not '%s'", optarg);
			m->period_set = true;
			break;
		case 'F':
			if (!parse_u64(optarg, 1, 1000000000, &m->freq))
				usage_error("-F wants a rate in Hz >= 1, not "
					    "'%s'", optarg);
			m->freq_set = true;
			break;
		case 'e': m->event = optarg; break;
		case 'k': m->space = SPACE_KERNEL; break;
		case 'u': m->space = SPACE_USER; break;
		case 'n':
			if (!parse_u64(optarg, 1, UINT64_MAX, &m->max_samples))
				usage_error("-n wants a number >= 1, not '%s'",
					    optarg);
			break;
		case 'd': m->debug_file = optarg; break;
		case OPT_RAW: m->format = FORMAT_RAW; break;
		case OPT_JSON: m->format = FORMAT_JSON; break;
		case OPT_SUMMARY: m->summary_only = true; break;
		case OPT_TOP:
			if (!parse_u64(optarg, 1, 100000, &top))
				usage_error("--top wants a number, not '%s'",
					    optarg);
			m->top = (unsigned)top;
			break;
		case OPT_ALL_THREADS: m->all_threads = true; break;
		case OPT_LEGACY: m->legacy = true; break;
		case 'h': usage(); break;
		case 'V': printf("monitor (%s) %s\n", PACKAGE_NAME,
				 PACKAGE_VERSION);
			exit(0);
		default: usage_bad_option(c, argv);
		}
	}
	if (m->period_set && m->freq_set)
		usage_error("-c and -F exclude each other");
	if (optind < argc && strcmp(argv[optind - 1], "--") == 0) {
		m->command = &argv[optind];
	} else if (optind + 1 == argc) {
		int tid;

		if (!parse_int(argv[optind], 1, INT32_MAX, &tid))
			usage_error("'%s' is not a thread id (to run a "
				    "command, put it after --)", argv[optind]);
		m->tid = tid;
	} else if (optind == argc) {
		usage_error("which thread? give a TID, or -- COMMAND");
	} else {
		usage_error("one TID only (to run a command, put it after --)");
	}
	if (m->summary_only)
		m->format = FORMAT_NONE;
}

/* -e: parse, and fall back from an absent hardware PMU to cpu-clock. */
static void setup_event(struct monitor *m)
{
	const struct pc_probe *probe = pc_probe();
	const char *name = m->event ? m->event : DEFAULT_EVENT;
	size_t errpos = 0;
	int err = 0;

	if (pc_event_parse(name, &m->attr, &errpos) != 0) {
		const char *sug = pc_event_suggest(name);

		if (sug)
			usage_error("unknown event '%s' (did you mean '%s'?)",
				    name, sug);
		usage_error("unknown event '%s' (see pcstat list)", name);
	}
	if (m->attr.type == PERF_TYPE_HARDWARE &&
	    m->attr.config == PERF_COUNT_HW_CPU_CYCLES && !m->legacy &&
	    !pc_event_available(&m->attr, &err)) {
		fprintf(stderr, "monitor: cycles not supported here (no "
				"hardware PMU); sampling cpu-clock\n");
		pc_event_parse(FALLBACK_EVENT, &m->attr, NULL);
	}
	if (m->space == SPACE_USER)
		m->attr.exclude_kernel = m->attr.exclude_hv = 1;
	if (m->space == SPACE_KERNEL)
		m->attr.exclude_user = 1;

	if (m->freq_set && probe->max_sample_rate > 0 &&
	    m->freq > (uint64_t)probe->max_sample_rate) {
		fprintf(stderr,
			"monitor: -F %" PRIu64 " is above "
			"kernel.perf_event_max_sample_rate; using %d Hz\n",
			m->freq, probe->max_sample_rate);
		m->freq = (uint64_t)probe->max_sample_rate;
	}
	pc_attr_sampling(&m->attr, m->freq_set ? m->freq : m->period,
			 m->freq_set, 0);
	pc_event_name(&m->attr, m->event_name, sizeof(m->event_name));
}

static struct pc_counter *open_one(struct monitor *m, pid_t tid)
{
	enum pc_backend be = m->legacy ? PC_BACKEND_LEGACY : PC_BACKEND_AUTO;
	struct pc_counter *c;

	c = pc_counter_open(&m->attr, &PC_OPEN_TASK(tid, .backend = be));
	/* Not allowed to see the kernel: sample user space, and say so. */
	if (!c && (errno == EACCES || errno == EPERM) &&
	    m->space == SPACE_ALL && !m->attr.exclude_kernel) {
		m->attr.exclude_kernel = m->attr.exclude_hv = 1;
		c = pc_counter_open(&m->attr,
				    &PC_OPEN_TASK(tid, .backend = be));
		if (c)
			fprintf(stderr, "monitor: kernel samples not "
					"allowed (perf_event_paranoid); "
					"sampling user space only\n");
		else
			m->attr.exclude_kernel = m->attr.exclude_hv = 0;
	}
	return c;
}

static void open_counters(struct monitor *m)
{
	pid_t *tids = NULL;
	int n = 1, i;
	char buf[256];

	if (m->command) {
		m->attr.disabled = 1;
		m->attr.enable_on_exec = 1;
	}
	if (m->all_threads)
		m->attr.inherit = 1;
	if (m->all_threads && !m->command) {
		n = pc_task_threads(thread_tgid(m->tid), &tids);
		if (n < 0)
			die("no process has thread %d", (int)m->tid);
		if (n > MAX_THREADS)
			n = MAX_THREADS;
	}
	for (i = 0; i < n; i++) {
		pid_t t = tids ? tids[i] : m->tid;
		struct pc_counter *c = open_one(m, t);

		if (!c) {
			int e = errno;

			if (m->command) {
				kill(m->child.pid, SIGKILL);
				waitpid(m->child.pid, NULL, 0);
			}
			if (e == ESRCH)
				die("no thread %d (has it exited?)", (int)t);
			die("cannot sample %s on thread %d: %s",
			    m->event_name, (int)t,
			    pc_strerror(e, &m->attr, buf, sizeof(buf)));
		}
		m->counters[m->ncounters++] = c;
		if (i == 0) {
			m->ring = pc_counter_mmap(c, RING_PAGES);
			if (!m->ring)
				die_errno("cannot map the sample buffer "
					  "(perf_event_mlock_kb)");
		} else if (pc_counter_set_output(c, m->counters[0]) != 0) {
			die_errno("cannot share the sample buffer");
		}
	}
	free(tids);
}

static bool want_sample(const struct monitor *m, bool kernel)
{
	return m->space == SPACE_ALL || (m->space == SPACE_KERNEL) == kernel;
}

/* Which mode the sample was taken in; the legacy backend has no cpumode,
   so there the address's top bit says it (x86-64 kernel half). */
static bool sample_is_kernel(const struct pc_record *rec)
{
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (mode == PERF_RECORD_MISC_KERNEL ||
	    mode == PERF_RECORD_MISC_GUEST_KERNEL)
		return true;
	if (mode == PERF_RECORD_MISC_CPUMODE_UNKNOWN)
		return rec->sample.ip >> 63;
	return false;
}

static void on_sample(struct monitor *m, const struct pc_record *rec,
		      const struct monitor_output *out)
{
	bool kernel = sample_is_kernel(rec);
	struct sym_result r;
	struct monitor_sample s = {
		.time = rec->sample.time, .pid = rec->sample.pid,
		.tid = rec->sample.tid, .cpu = rec->sample.cpu,
		.has_cpu = !m->legacy, .ip = rec->sample.ip, .sym = &r,
	};

	if (!want_sample(m, kernel)) {
		m->totals.filtered++;
		return;
	}
	if (m->format == FORMAT_RAW) {
		out->sample(stdout, &s);
		m->totals.samples++;
		return;
	}
	if (symbols_resolve(m->sym, (pid_t)s.pid, s.ip, kernel, &r) != 0)
		m->totals.unresolved++;
	out->sample(stdout, &s);
	if (hist_add(m->hist, r.sym ? r.sym : "[unknown]",
		     r.dso ? r.dso : "[unknown]", 1) != 0)
		die("out of memory");
	m->totals.samples++;
}

static void on_mmap(struct monitor *m, const struct pc_record *rec)
{
	struct sym_mapping mp = {
		.start = rec->mmap.addr, .len = rec->mmap.len,
		.pgoff = rec->mmap.pgoff, .maj = rec->mmap.maj,
		.min = rec->mmap.min, .ino = rec->mmap.ino,
		.prot = rec->mmap.prot, .path = rec->mmap.filename,
	};

	if (rec->mmap.build_id_size) {
		mp.maj = mp.min = 0;
		mp.ino = 0;
		mp.build_id = rec->mmap.build_id;
		mp.build_id_size = rec->mmap.build_id_size;
	}
	symbols_mmap(m->sym, (pid_t)rec->mmap.pid, &mp);
}

/* Take every record the ring holds; returns whether gc is due. */
static bool drain(struct monitor *m)
{
	const struct monitor_output *out = output_for(m->format);
	struct pc_record rec;
	bool exited = false;
	int r;

	while (!interrupted && (r = pc_ring_next(m->ring, &rec)) == 1) {
		switch (rec.type) {
		case PERF_RECORD_SAMPLE:
			on_sample(m, &rec, out);
			if (m->max_samples &&
			    m->totals.samples >= m->max_samples)
				return exited;
			break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
			on_mmap(m, &rec);
			break;
		case PERF_RECORD_COMM:
			if (rec.misc & PERF_RECORD_MISC_COMM_EXEC)
				symbols_exec(m->sym, (pid_t)rec.comm.pid);
			break;
		case PERF_RECORD_FORK:
			symbols_fork(m->sym, (pid_t)rec.task.pid,
				     (pid_t)rec.task.ppid);
			break;
		case PERF_RECORD_EXIT:
			if (rec.task.pid == rec.task.tid) {
				symbols_exit(m->sym, (pid_t)rec.task.pid);
				exited = true;
			}
			if ((pid_t)rec.task.tid == m->tid)
				m->target_gone = true;
			break;
		default:
			break;
		}
	}
	/*
	 * A malformed record: the reader has skipped what was unread and
	 * goes on.  Say so once.
	 */
	if (r < 0 && errno == EBADMSG) {
		if (!m->corrupt_seen)
			warn_msg("malformed record in the sample buffer; "
				 "skipped the unread records and going on");
		m->corrupt_seen = true;
	} else if (r < 0) {
		die_errno("cannot read the sample buffer");
	}
	return exited;
}

static void target_setup(struct monitor *m)
{
	char *exe = NULL, link[64];

	if (m->command) {
		exe = path_search(m->command[0]);
		if (!exe)
			die("cannot run '%s': no such command", m->command[0]);
		if (spawn_hold(&m->child, m->command, NULL) != 0)
			die_errno("cannot start '%s'", m->command[0]);
		m->tid = m->child.pid;
		snprintf(m->target_name, sizeof(m->target_name), "%s (pid %d)",
			 m->command[0], (int)m->tid);
	} else {
		if (thread_tgid(m->tid) < 0)
			die("no thread %d (has it exited?)", (int)m->tid);
		snprintf(link, sizeof(link), "/proc/%d/exe", (int)m->tid);
		exe = realpath(link, NULL);
		snprintf(m->target_name, sizeof(m->target_name), "%s %d",
			 m->all_threads ? "process of thread" : "thread",
			 (int)m->tid);
	}
	if (m->debug_file) {
		if (access(m->debug_file, R_OK) != 0)
			die_errno("cannot read -d file '%s'", m->debug_file);
		if (!exe)
			die("cannot find the executable of thread %d for -d",
			    (int)m->tid);
		if (symbols_set_debug_file(m->sym, exe, m->debug_file) != 0)
			die_errno("cannot use -d file '%s'", m->debug_file);
	}
	free(exe);
}

/* stdout is a pipe whose reader is gone (SIGPIPE ignored by our caller):
   stop quietly, as head(1)'s writers do. */
static bool out_closed(void)
{
	return fflush(stdout) != 0 && errno == EPIPE;
}

static void loop(struct monitor *m)
{
	struct pollfd pfd = { pc_counter_fd(m->counters[0]), POLLIN, 0 };
	int status;

	for (;;) {
		if (drain(m))
			symbols_gc(m->sym);
		if (out_closed())
			exit(0);
		if (interrupted || m->target_gone ||
		    (m->max_samples && m->totals.samples >= m->max_samples))
			break;
		if (m->command && waitpid(m->child.pid, &status, WNOHANG) ==
					  m->child.pid) {
			m->child.pid = 0;
			drain(m);
			break;
		}
		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			die_errno("poll");
		/* POLLHUP: the task the counter watches has exited */
		if (pfd.revents & POLLHUP) {
			drain(m);
			break;
		}
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct monitor m = { .period = DEFAULT_PERIOD, .top = 20 };
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned i;

	set_progname(argv[0]);
	parse_options(&m, argc, argv);
	setup_event(&m);
	m.sym = symbols_new(NULL);
	m.hist = hist_new();
	if (!m.sym || !m.hist)
		die("out of memory");

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * SIGPIPE keeps its default, as in every other tool: `monitor ... |
	 * head` ends when head does (status 141), and a command we start
	 * does not inherit an ignored SIGPIPE.  Where our caller ignores
	 * it, out_closed() ends the run instead.
	 */
	target_setup(&m);
	open_counters(&m);
	if (m.command && (errno = spawn_release(&m.child)) != 0) {
		waitpid(m.child.pid, NULL, 0);
		die_errno("cannot run '%s'", m.command[0]);
	}
	loop(&m);

	m.totals.lost = pc_ring_lost(m.ring);
	m.totals.event = m.event_name;
	m.totals.target = m.target_name;
	summary_print(m.summary_only ? stdout : stderr, m.hist, m.sym,
		      &m.totals, m.top);
	for (i = 0; i < m.ncounters; i++)
		pc_counter_close(m.counters[i]);
	if (m.command && m.child.pid > 0) {
		/* -n or a signal ended us first: the command goes on alone */
		if (!interrupted && !m.max_samples)
			waitpid(m.child.pid, NULL, 0);
	}
	symbols_free(m.sym);
	hist_free(m.hist);
	fflush(stdout);
	return 0;
}
