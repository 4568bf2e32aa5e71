/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed-scheme.c - how the counters watch a target of tasks (feed.h's
 * enum feed_scheme): one per thread while the descriptors allow it, else
 * one per CPU kept to the target's records (the kernel filtering by
 * cgroup where the target is alone in one), else per thread on the
 * busiest threads that fit; and the scheme said in one line.
 *
 * A 5,000-thread process on 16 CPUs needs 80,000 per-thread counters, a
 * descriptor each: more than most limits allow.  One counter per CPU
 * needs 16, whatever the threads.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sysapi/cgroup.h>

#include "base/array.h"
#include "base/escape.h"
#include "profile/feed-internal.h"

/*
 * Descriptors left aside for the session's own files (a DSO's ELF and
 * debug files stay open while it is used): at most this many, at most a
 * quarter of what is free.
 */
#define FD_RESERVE 128

/* The descriptors open now (a guess where /proc cannot say). */
static uint64_t fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	uint64_t n = 0;

	if (!d)
		return 16;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n ? n - 1 : 0;		/* the directory's own */
}

static void fd_budget(struct feed_info *in)
{
	struct rlimit r;
	uint64_t open = fds_open(), room, reserve;

	if (getrlimit(RLIMIT_NOFILE, &r) != 0)
		r.rlim_cur = 1024;
	in->fd_limit = (uint64_t)r.rlim_cur;
	room = in->fd_limit > open ? in->fd_limit - open : 0;
	reserve = room / 4 < FD_RESERVE ? room / 4 : FD_RESERVE;
	in->fd_free = room - reserve;
}

/*
 * The cgroup of pid in the hierarchy pc_cgroup_mount() names (v1's
 * perf_event line where it has one, else v2's "0::"), or NULL.  A path
 * that climbs ("/.." from inside a cgroup namespace) is refused: it
 * could name a directory of another hierarchy.
 */
static char *task_cgroup(pid_t pid)
{
	char path[64], *line = NULL, *v1 = NULL, *v2 = NULL, *p;
	size_t cap = 0;
	ssize_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	fp = fopen(path, "re");
	if (!fp)
		return NULL;
	while ((n = getline(&line, &cap, fp)) > 0) {
		char *ctl, *cg;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		/* "ID:CONTROLLERS:PATH" */
		ctl = strchr(line, ':');
		if (!ctl)
			continue;
		*ctl++ = '\0';
		cg = strchr(ctl, ':');
		if (!cg)
			continue;
		*cg++ = '\0';
		if (!*ctl && strcmp(line, "0") == 0 && !v2)
			v2 = strdup(cg);
		for (p = ctl; p && !v1; p = strchr(p, ',')) {
			p += *p == ',';
			if (strncmp(p, "perf_event", 10) == 0 &&
			    (p[10] == ',' || !p[10]))
				v1 = strdup(cg);
		}
	}
	free(line);
	fclose(fp);
	p = v1 ? v1 : v2;
	free(v1 ? v2 : v1);
	if (p && (*p != '/' || strstr(p, "/../") ||
		  (strlen(p) >= 3 && strcmp(p + strlen(p) - 3, "/..") == 0))) {
		free(p);
		p = NULL;
	}
	return p;
}

static bool id_listed(const pid_t *ids, size_t n, pid_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* The cgroup at fd has child cgroups (a cgroup counter counts them). */
static bool cgroup_has_children(int fd)
{
	int dfd = dup(fd);
	struct dirent *de;
	bool any = false;
	DIR *d;

	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return true;		/* cannot tell: not alone */
	}
	while (!any && (de = readdir(d)))
		any = de->d_type == DT_DIR && de->d_name[0] != '.';
	closedir(d);
	return any;
}

/* Every process in the cgroup at fd is one of ids (one at least is). */
static bool cgroup_only(int fd, const pid_t *ids, size_t nids)
{
	int pfd = openat(fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	bool only = true, any = false;
	FILE *fp;
	long pid;

	if (pfd < 0 || !(fp = fdopen(pfd, "r"))) {
		if (pfd >= 0)
			close(pfd);
		return false;
	}
	while (only && fscanf(fp, "%ld", &pid) == 1) {
		only = id_listed(ids, nids, (pid_t)pid);
		any = true;
	}
	fclose(fp);
	return only && any;
}

/*
 * FEED_PROCESSES: when the processes share a cgroup that holds nothing
 * else (no other process, no child cgroup), open it in f->cgroup_fd: a
 * cgroup counter then sees the target alone, the kernel filtering.
 */
static bool cgroup_alone(struct feed *f, const struct feed_opts *o)
{
	char *cg = NULL, *other;
	size_t i;
	int fd;

	if (o->scope != FEED_PROCESSES || !pc_cgroup_mount())
		return false;
	for (i = 0; i < o->nids; i++) {
		other = task_cgroup(o->ids[i]);
		if (!other || (cg && strcmp(cg, other) != 0)) {
			free(other);
			free(cg);
			return false;
		}
		free(cg);
		cg = other;
	}
	fd = pc_cgroup_open(cg);
	if (fd < 0 || cgroup_has_children(fd) ||
	    !cgroup_only(fd, o->ids, o->nids)) {
		if (fd >= 0)
			close(fd);
		free(cg);
		return false;
	}
	f->cgroup_fd = fd;
	f->cgroup = cg;
	return true;
}

/* The process of thread tid (its Tgid), or -1. */
static pid_t task_tgid(pid_t tid)
{
	char path[64], line[256];
	long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fp = fopen(path, "re");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "Tgid: %ld", &v) == 1)
			break;
	fclose(fp);
	return (pid_t)v;
}

/* The records kept: the target's processes, or threads (-t lists). */
static int filter_setup(struct feed *f, const struct feed_opts *o)
{
	struct feed_proc *p;
	size_t i = 0;
	pid_t tgid;

	f->filter = true;
	f->filter_tids = o->scope == FEED_THREADS;
	switch (o->scope) {
	case FEED_THREADS:
		for (i = 0; i < o->nids; i++) {
			if (feed_filter_add(f, o->ids[i], true) != 0)
				return -1;
			tgid = task_tgid(o->ids[i]);
			if (tgid > 0 && feed_filter_add(f, tgid, false) != 0)
				return -1;
		}
		return 0;
	case FEED_PROCESSES:
		for (i = 0; i < o->nids; i++)
			if (feed_filter_add(f, o->ids[i], false) != 0)
				return -1;
		return 0;
	default:		/* FEED_USER: the processes found at open */
		while ((p = hashtab_next(&f->procs, &i)))
			if (feed_filter_add(f, p->pid, false) != 0)
				return -1;
		return 0;
	}
}

/* A thread and how much CPU time it has had, to rank them. */
struct busy {
	pid_t tid;
	uint64_t ticks;		/* utime + stime; UINT64_MAX: a main thread */
};

static uint64_t task_ticks(pid_t tid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	size_t n;
	FILE *fp;

	/* /proc/TID/stat would add up the whole process's threads */
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)tid,
		 (int)tid);
	fp = fopen(path, "re");
	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	p = strrchr(buf, ')');		/* comm may hold ") " */
	/* state ppid pgrp session tty tpgid flags 4 faults, utime stime */
	if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			"%llu %llu", &ut, &st) == 2)
		return ut + st;
	return 0;
}

static int cmp_busy(const void *a, const void *b)
{
	const struct busy *x = a, *y = b;

	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* A process's main thread: its end is the process's (on_exit_record). */
static bool is_main(const struct feed *f, pid_t tid)
{
	struct feed_proc *p;
	size_t i;

	if (f->scope == FEED_PROCESSES) {
		for (i = 0; i < f->nwatch; i++)
			if (f->watch[i].id == tid)
				return true;
		return false;
	}
	if (f->scope == FEED_USER) {
		i = 0;
		while ((p = hashtab_next(&f->procs, &i)))
			if (p->pid == tid)
				return true;
	}
	return false;
}

/*
 * Per-thread counters on as many threads as the descriptors allow: the
 * main threads (whose EXIT ends the target), then the busiest.  The
 * others are not sampled; threads they create later are not followed.
 */
static int busiest(struct feed *f)
{
	struct feed_info *in = &f->info;
	uint64_t per = (uint64_t)f->ncpus * f->nattrs;
	size_t k = (size_t)(in->fd_free / per), i;
	struct busy *b;

	if (k < 1)
		k = 1;		/* too few even for one: EMFILE says so */
	if (k >= f->ntasks) {
		in->scheme = FEED_SCHEME_THREADS;
		return 0;
	}
	b = malloc(f->ntasks * sizeof(*b));
	if (!b)
		return -1;
	for (i = 0; i < f->ntasks; i++) {
		b[i].tid = f->tasks[i];
		b[i].ticks = is_main(f, f->tasks[i]) ? UINT64_MAX
						      : task_ticks(f->tasks[i]);
	}
	qsort(b, f->ntasks, sizeof(*b), cmp_busy);
	for (i = 0; i < k; i++)
		f->tasks[i] = b[i].tid;
	free(b);
	f->ntasks = k;
	in->threads_sampled = (unsigned)k;
	in->scheme = FEED_SCHEME_BUSIEST;
	return 0;
}

int feed_scheme_choose(struct feed *f, const struct feed_opts *o)
{
	struct feed_info *in = &f->info;
	uint64_t per_cpu;
	unsigned e;

	f->scope = o->scope;
	f->uid = o->uid;
	in->cpus = (unsigned)f->ncpus;
	if (o->scope == FEED_SYSTEM) {
		in->scheme = FEED_SCHEME_SYSTEM;
		if (!o->cgroup)
			return 0;
		f->cgroup = strdup(o->cgroup);
		if (!f->cgroup || (f->cgroup_fd = pc_cgroup_open(o->cgroup)) < 0)
			return -1;
		return 0;
	}
	in->threads = in->threads_sampled = (unsigned)f->ntasks;
	in->fds_per_thread = (uint64_t)f->ntasks * f->ncpus * f->nattrs;
	fd_budget(in);
	if (in->fds_per_thread <= in->fd_free) {
		in->scheme = FEED_SCHEME_THREADS;
		return 0;
	}
	per_cpu = (uint64_t)f->ncpus * f->nattrs;
	/*
	 * enable_on_exec acts on the task's own counters; the 2008 call has
	 * no CPU-wide counter; one thread alone (no CPUs listed) needs one
	 * descriptor per event, which CPU-wide counters do not beat.
	 */
	if (o->enable_on_exec || !f->per_cpu ||
	    (o->backend == PC_BACKEND_AUTO ? pc_backend_default()
					   : o->backend) == PC_BACKEND_LEGACY) {
		in->cpu_wide_err = EOPNOTSUPP;
		return busiest(f);
	}
	if (per_cpu > in->fd_free) {
		in->cpu_wide_err = EMFILE;
		return busiest(f);
	}
	if (filter_setup(f, o) != 0)
		return -1;
	in->scheme = cgroup_alone(f, o) ? FEED_SCHEME_CGROUP : FEED_SCHEME_CPUS;
	/* counters for every task on a CPU inherit nothing */
	for (e = 0; e < f->nattrs; e++)
		f->attrs[e].inherit = 0;
	return 0;
}

void feed_scheme_refused(struct feed *f, int err)
{
	unsigned e;

	feed_scheme_release(f);
	feed_filter_release(f);
	f->filter = f->filter_tids = false;
	for (e = 0; e < f->nattrs; e++)
		f->attrs[e].inherit = f->inherit && !f->no_inherit;
	f->info.cpu_wide_err = err;
	/* (busiest() allocates nothing on failure: tasks stay whole) */
	if (busiest(f) != 0)
		f->info.scheme = FEED_SCHEME_THREADS;
}

void feed_scheme_release(struct feed *f)
{
	if (f->cgroup_fd >= 0)
		close(f->cgroup_fd);
	f->cgroup_fd = -1;
	free(f->cgroup);
	f->cgroup = NULL;
}

/* --- the line ------------------------------------------------------------- */

struct line {
	char *buf;
	size_t size, len;
};

static void __attribute__((format(printf, 2, 3)))
put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->len < l->size ? l->buf + l->len : NULL,
		      l->len < l->size ? l->size - l->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n;
}

/* "pid 123", "tids 4,5,6": the ids the filter started from. */
static void put_ids(struct line *l, const struct feed *f)
{
	size_t i;

	if (f->scope == FEED_USER) {
		put(l, "the processes of uid %u", (unsigned)f->uid);
		return;
	}
	put(l, "%s%s ", f->watch_tids ? "tid" : "pid",
	    f->nwatch > 1 ? "s" : "");
	for (i = 0; i < f->nwatch && i < 8; i++)
		put(l, "%s%d", i ? "," : "", (int)f->watch[i].id);
	if (f->nwatch > 8)
		put(l, ",...");
}

/* "3000 threads x 2 CPUs would need 6000 descriptors; limit 4096". */
static void put_need(struct line *l, const struct feed *f, bool fits)
{
	const struct feed_info *in = &f->info;

	put(l, "%u thread%s", in->threads, in->threads == 1 ? "" : "s");
	if (f->per_cpu)
		put(l, " x %u CPU%s", in->cpus, in->cpus == 1 ? "" : "s");
	if (f->nattrs > 1)
		put(l, " x %u events", f->nattrs);
	put(l, fits ? " = %" PRIu64 " descriptor%s" :
		      " would need %" PRIu64 " descriptor%s",
	    in->fds_per_thread, in->fds_per_thread == 1 ? "" : "s");
	put(l, "; limit %" PRIu64, in->fd_limit);
	if (!fits && in->fds_per_thread <= in->fd_limit)
		put(l, ", %" PRIu64 " free", in->fd_free);
}

static void put_refusal(struct line *l, int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		put(l, "; per-CPU counters not allowed at "
		    "perf_event_paranoid %d (root, CAP_PERFMON or "
		    "paranoid <= 0 would sample every thread)",
		    pc_probe()->paranoid);
		break;
	case EMFILE:
		put(l, "; too few even for per-CPU counters");
		break;
	case EOPNOTSUPP:
		put(l, "; per-CPU counters cannot follow a command's exec "
		    "or use the 2008 call");
		break;
	case 0:
		break;
	default:
		put(l, "; per-CPU counters refused: %s", strerror(err));
	}
}

size_t feed_scheme_str(const struct feed *f, char *buf, size_t size)
{
	const struct feed_info *in = &f->info;
	struct line l = { buf, size, 0 };
	char cg[256];

	if (size)
		buf[0] = '\0';
	switch (in->scheme) {
	case FEED_SCHEME_SYSTEM:
		if (f->cgroup) {
			esc_visible(cg, sizeof(cg), f->cgroup);
			put(&l, "per-CPU counters on cgroup %s (%u CPUs)", cg,
			    in->cpus);
			break;
		}
		put(&l, "per-CPU counters for every task (%u CPUs)", in->cpus);
		break;
	case FEED_SCHEME_THREADS:
		put(&l, "per-thread counters (");
		put_need(&l, f, in->fds_per_thread <= in->fd_free);
		put(&l, ")");
		break;
	case FEED_SCHEME_CPUS:
		put(&l, "per-CPU counters filtered to ");
		put_ids(&l, f);
		put(&l, " (");
		put_need(&l, f, false);
		put(&l, ")");
		break;
	case FEED_SCHEME_CGROUP:
		esc_visible(cg, sizeof(cg), f->cgroup ? f->cgroup : "?");
		put(&l, "per-CPU counters on cgroup %s, ", cg);
		put_ids(&l, f);
		put(&l, " alone in it (");
		put_need(&l, f, false);
		put(&l, ")");
		break;
	case FEED_SCHEME_BUSIEST:
		put(&l, "per-thread counters on the %u busiest of %u threads "
		    "(", in->threads_sampled, in->threads);
		put_need(&l, f, false);
		put_refusal(&l, in->cpu_wide_err);
		put(&l, ")");
		break;
	}
	return l.len;
}
