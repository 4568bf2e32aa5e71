/*
 * test-tasks: the task table's model (lib/profile/tasks.[ch]) on counts
 * with known answers: per-frame deltas and rates, %CPU from task-clock or
 * from samples, IPC and miss shares, counters opened mid-run and reopened,
 * a task that exits keeping its last counts for one frame, every sort
 * column both ways, filters by name and user, threads rolled up into
 * processes, the choice of the tasks to count (rotation) and its bound
 * with 2,000 tasks, argument errors.  Pure: runs on any machine.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profile/tasks.h"
#include "../check.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SEC 1000000000ull
#define SW (TASKS_EV(TASKS_EV_TASK_CLOCK) | TASKS_EV(TASKS_EV_CTX) | \
	    TASKS_EV(TASKS_EV_MIGR) | TASKS_EV(TASKS_EV_FAULTS))
#define HW ((1u << TASKS_NEVENTS) - 1)

/* One step of a scenario: a task's counts or samples, or a frame. */
struct op {
	char kind;		/* 'c' counts, 's' samples, 'f' frame */
	pid_t pid, tid;
	uid_t uid;
	const char *comm;
	unsigned has;
	uint64_t count[TASKS_NEVENTS];	/* or [0]: sampled ns / interval */
	unsigned flags;
};

#define C(p, t, comm, has, fl, ...) \
	{ 'c', p, t, 1000, comm, has, { __VA_ARGS__ }, fl }
#define CU(p, t, u, comm, has, ...) \
	{ 'c', p, t, u, comm, has, { __VA_ARGS__ }, 0 }
#define S(p, t, comm, ns) { 's', p, t, 1000, comm, 0, { ns }, 0 }
#define F(ns) { 'f', 0, 0, 0, NULL, 0, { ns }, 0 }
#define END { 0 }

static void run(struct tasks *t, const struct op *op)
{
	for (; op->kind; op++) {
		struct tasks_id id = { op->pid, op->tid, op->uid, op->comm };

		if (op->kind == 'f')
			tasks_frame(t, op->count[0]);
		else if (op->kind == 's')
			CHECK(tasks_sampled(t, &id, op->count[0]) == 0, "%s",
			      strerror(errno));
		else
			CHECK(tasks_counts(t, &id, op->has, op->count,
					   op->flags) == 0, "%s",
			      strerror(errno));
	}
}

/*
 * The rows as text: "pid.tid" (or "pid*nthreads" in the process view,
 * '~' when partial, '!' when exited) then "name=value" for each column of
 * cols (tasks_cols[].name; %.4g, '-' without a value), rows "; "-joined.
 */
static const char *text(const struct tasks_row *r, size_t n, unsigned cols)
{
	static char buf[8192];
	size_t len = 0;

	if (!r)
		return "NULL";
	buf[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(buf); i++) {
		if (r[i].tid)
			len += snprintf(buf + len, sizeof(buf) - len, "%s%d.%d",
					i ? "; " : "", r[i].pid, r[i].tid);
		else
			len += snprintf(buf + len, sizeof(buf) - len, "%s%d*%u",
					i ? "; " : "", r[i].pid, r[i].nthreads);
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				r[i].partial ? "~" : "", r[i].exited ? "!" : "");
		for (int c = 0; c < TASKS_NCOLS && len < sizeof(buf); c++) {
			if (!(cols & (1u << c)))
				continue;
			if (c == TASKS_COL_COMM)
				len += snprintf(buf + len, sizeof(buf) - len,
						" %s", r[i].comm);
			else if (!tasks_row_has(&r[i], c))
				len += snprintf(buf + len, sizeof(buf) - len,
						" %s=-", tasks_cols[c].name);
			else
				len += snprintf(buf + len, sizeof(buf) - len,
						" %s=%.4g", tasks_cols[c].name,
						r[i].value[c]);
		}
	}
	return buf;
}

#define COL(c) (1u << TASKS_COL_##c)
#define SWCOLS (COL(CPU) | COL(CTX) | COL(MIGR) | COL(FAULTS))
#define HWCOLS (COL(MCYCLES) | COL(MINSTR) | COL(IPC) | COL(CACHE_MISS) | \
		COL(BRANCH_MISS))

static const struct op two_frames[] = {
	/* 10: counted from its open (fresh), then 2 s later */
	C(10, 10, "spin", SW, TASKS_FRESH, SEC, 10, 1, 100),
	/* 11: samples only, 0.5 s of CPU over the 1 s interval */
	S(11, 11, "idle", SEC / 4), S(11, 11, "idle", SEC / 4),
	F(SEC),
	C(10, 10, "spin", SW, 0, 2 * SEC + SEC / 2, 30, 1, 100),
	S(11, 11, "idle", SEC / 10),
	F(2 * SEC),
	END
};

static const struct op hardware[] = {
	C(10, 10, "loop", HW, TASKS_FRESH, SEC / 2, 0, 0, 0,
	  2000000000, 3000000000, 1000, 50, 200, 2),
	F(SEC),
	END
};

/* a task that exits mid-interval keeps its last counts for that frame */
static const struct op exiting[] = {
	C(10, 10, "short", SW, TASKS_FRESH, SEC / 10, 4, 0, 40),
	C(12, 12, "stays", SW, TASKS_FRESH, 0, 0, 0, 0),
	F(SEC),
	C(10, 10, "short", SW, TASKS_EXITED, SEC / 5, 6, 0, 90),
	C(12, 12, "stays", SW, 0, 0, 0, 0, 0),
	F(SEC),
	END
};

/* reopened (rotated out and back in) without TASKS_FRESH: counts fall */
static const struct op reopened[] = {
	C(10, 10, "r", SW, TASKS_FRESH, SEC / 2, 100, 0, 0),
	F(SEC),
	C(10, 10, "r", SW, 0, SEC / 4, 7, 0, 0),
	F(SEC),
	END
};

/* processes: pid 20 has a counted thread and one sampled only */
static const struct op procs[] = {
	C(20, 20, "srv", SW, TASKS_FRESH, SEC / 2, 10, 2, 8),
	S(20, 21, "srv-io", SEC / 4),
	C(30, 30, "db", SW, TASKS_FRESH, SEC / 10, 50, 0, 0),
	C(30, 31, "db-w", SW, TASKS_FRESH, SEC / 10, 50, 4, 0),
	CU(40, 40, 0, "rootd", SW, SEC / 5, 1, 1, 1),
	F(SEC),
	END
};

struct view_case {
	const struct op *ops;
	struct tasks_view view;
	unsigned cols;
	const char *want;
};

static const struct view_case views[] = {
	{ two_frames, TASKS_VIEW(), SWCOLS,
	  "10.10 cpu=75 ctx=10 migr=0 faults=0; "
	  "11.11 cpu=5 ctx=- migr=- faults=-" },
	{ hardware, TASKS_VIEW(), COL(CPU) | HWCOLS,
	  "10.10 cpu=50 mcycles=2000 minstr=3000 ipc=1.5 cache-miss=5 "
	  "branch-miss=1" },
	{ reopened, TASKS_VIEW(), COL(CPU) | COL(CTX), "10.10 cpu=25 ctx=7" },
	{ exiting, TASKS_VIEW(), COL(CPU) | COL(CTX) | COL(FAULTS),
	  "10.10! cpu=10 ctx=2 faults=50; 12.12 cpu=0 ctx=0 faults=0" },
	/* every order: descending figures, ascending names and ids */
	{ procs, TASKS_VIEW(.order = TASKS_COL_CPU), COL(CPU),
	  "20.20 cpu=50; 20.21 cpu=25; 40.40 cpu=20; 30.30 cpu=10; "
	  "30.31 cpu=10" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_CTX), COL(CTX),
	  "30.30 ctx=50; 30.31 ctx=50; 20.20 ctx=10; 40.40 ctx=1; "
	  "20.21 ctx=-" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_MIGR, .reverse = true),
	  COL(MIGR),
	  "30.30 migr=0; 40.40 migr=1; 20.20 migr=2; 30.31 migr=4; "
	  "20.21 migr=-" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_FAULTS), COL(FAULTS),
	  "20.20 faults=8; 40.40 faults=1; 30.30 faults=0; 30.31 faults=0; "
	  "20.21 faults=-" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_COMM), COL(COMM),
	  "30.30 db; 30.31 db-w; 40.40 rootd; 20.20 srv; 20.21 srv-io" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_COMM, .reverse = true),
	  COL(COMM),
	  "20.21 srv-io; 20.20 srv; 40.40 rootd; 30.31 db-w; 30.30 db" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_PID), 0,
	  "20.20; 20.21; 30.30; 30.31; 40.40" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_TID, .reverse = true), 0,
	  "40.40; 30.31; 30.30; 20.21; 20.20" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_USER), 0,
	  "40.40; 20.20; 20.21; 30.30; 30.31" },
	/* hardware columns without the PMU: '-' rows, by pid */
	{ procs, TASKS_VIEW(.order = TASKS_COL_IPC), COL(IPC),
	  "20.20 ipc=-; 20.21 ipc=-; 30.30 ipc=-; 30.31 ipc=-; 40.40 ipc=-" },
	/* filters */
	{ procs, TASKS_VIEW(.order = TASKS_COL_PID, .name = "srv"), COL(COMM),
	  "20.20 srv; 20.21 srv-io" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_PID, .by_uid = true, .uid = 0),
	  COL(COMM), "40.40 rootd" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_PID, .name = "nomatch"), 0,
	  "" },
	{ procs, TASKS_VIEW(.order = TASKS_COL_CPU, .max_rows = 2), COL(CPU),
	  "20.20 cpu=50; 20.21 cpu=25" },
	/* processes: threads summed, the main thread's name, '~' partial */
	{ procs, TASKS_VIEW(.processes = true, .order = TASKS_COL_CPU),
	  COL(CPU) | COL(CTX) | COL(MIGR) | COL(TID) | COL(COMM),
	  "20*2~ tid=2 cpu=75 ctx=10 migr=2 srv; "
	  "30*2 tid=2 cpu=20 ctx=100 migr=4 db; "
	  "40*1 tid=1 cpu=20 ctx=1 migr=1 rootd" },
	{ procs, TASKS_VIEW(.processes = true, .order = TASKS_COL_CTX,
			    .name = "db-w"),
	  COL(CTX) | COL(COMM), "30*1 ctx=50 db-w" },
};

static void test_views(void)
{
	for (size_t i = 0; i < N(views); i++) {
		struct tasks *t = tasks_new();
		const struct tasks_row *r;
		size_t n;

		run(t, views[i].ops);
		r = tasks_rows(t, &views[i].view, &n);
		CHECK(strcmp(text(r, n, views[i].cols), views[i].want) == 0,
		      "view #%zu:\n got  %s\n want %s", i,
		      text(r, n, views[i].cols), views[i].want);
		tasks_free(t);
	}
}

/* the task that exited is gone the frame after, and counts nothing */
static void test_exit_leaves(void)
{
	struct tasks *t = tasks_new();
	const struct tasks_row *r;
	size_t n;

	run(t, exiting);
	CHECK(tasks_count(t) == 2, "%zu", tasks_count(t));
	run(t, (const struct op[]){ C(12, 12, "stays", SW, 0, 0, 0, 0, 0),
				    F(SEC), END });
	r = tasks_rows(t, &TASKS_VIEW(), &n);
	CHECK(strcmp(text(r, n, 0), "12.12") == 0, "%s", text(r, n, 0));
	CHECK(tasks_count(t) == 1, "%zu", tasks_count(t));
	/* a task seen neither way in a frame leaves after it */
	run(t, (const struct op[]){ F(SEC), F(SEC), END });
	CHECK(tasks_count(t) == 0, "%zu", tasks_count(t));
	tasks_free(t);
}

/* rotation: the busiest tasks get counters; an idle one gives way */
static void test_wanted(void)
{
	struct tasks *t = tasks_new();
	pid_t out[8];
	size_t n;

	run(t, (const struct op[]){
		C(1, 1, "a", SW, TASKS_FRESH, SEC / 2, 0, 0, 0),
		C(2, 2, "b", SW, TASKS_FRESH, SEC / 4, 0, 0, 0),
		S(3, 3, "c", SEC / 10),
		F(SEC), END });
	n = tasks_wanted(t, out, 2);
	CHECK(n == 2 && out[0] == 1 && out[1] == 2, "%zu %d %d", n, out[0],
	      out[1]);
	/* 1 goes idle, 3 is sampled busy: 3 takes 1's counters */
	for (int f = 0; f < 3; f++)
		run(t, (const struct op[]){
			C(1, 1, "a", SW, 0, SEC / 2, 0, 0, 0),
			C(2, 2, "b", SW, 0, SEC / 4 + (f + 1) * SEC / 4, 0, 0,
			  0),
			S(3, 3, "c", SEC * 9 / 10),
			F(SEC), END });
	n = tasks_wanted(t, out, 2);
	CHECK(n == 2 && out[0] == 3 && out[1] == 2, "%zu %d %d", n, out[0],
	      out[1]);
	n = tasks_wanted(t, out, 8);
	CHECK(n == 3 && out[2] == 1, "%zu %d", n, out[2]);
	tasks_free(t);
}

/* 2,000 tasks: the counters go to the 64 busiest, rows stay whole */
static void test_many(void)
{
	struct tasks *t = tasks_new();
	static pid_t out[2000];
	const struct tasks_row *r;
	size_t n;

	for (pid_t p = 1; p <= 2000; p++) {
		struct tasks_id id = { p, p, 0, "w" };

		CHECK(tasks_sampled(t, &id, (uint64_t)p * 1000) == 0, "%d", p);
	}
	tasks_frame(t, SEC);
	n = tasks_wanted(t, out, 64);
	CHECK(n == 64 && out[0] == 2000 && out[63] == 1937, "%zu %d %d", n,
	      out[0], out[63]);
	r = tasks_rows(t, &TASKS_VIEW(.order = TASKS_COL_CPU), &n);
	CHECK(r && n == 2000 && r[0].pid == 2000 && r[1999].pid == 1,
	      "%zu", n);
	tasks_free(t);
}

static void test_errors(void)
{
	struct tasks *t = tasks_new();
	struct {
		struct tasks_view v;
		char more[8];
	} big = { TASKS_VIEW(), { 0 } };
	struct tasks_id id = { 1, 1, 0, NULL };
	size_t n = 7;

	big.v.sz = sizeof(big);
	CHECK(tasks_rows(t, (struct tasks_view *)&big, &n) != NULL && n == 0,
	      "zero tail refused");
	big.more[3] = 1;
	errno = 0;
	CHECK(!tasks_rows(t, (struct tasks_view *)&big, &n) && errno == E2BIG
	      && n == 0, "%s", strerror(errno));
	errno = 0;
	CHECK(!tasks_rows(t, &TASKS_VIEW(.order = TASKS_NCOLS), &n) &&
	      errno == EINVAL, "%s", strerror(errno));
	errno = 0;
	CHECK(tasks_sampled(NULL, &id, 1) == -1 && errno == EINVAL, "null");
	/* a NULL comm is "[unknown]" */
	CHECK(tasks_sampled(t, &id, 1) == 0, "%s", strerror(errno));
	tasks_frame(t, SEC);
	CHECK(tasks_rows(t, &TASKS_VIEW(), &n) && n == 1 &&
	      strcmp(tasks_rows(t, &TASKS_VIEW(), &n)[0].comm,
		     "[unknown]") == 0, "comm");
	CHECK(tasks_col_by_name("faults") == TASKS_COL_FAULTS &&
	      tasks_col_by_name("nope") == -1, "names");
	tasks_free(t);
	tasks_free(NULL);
}

int main(void)
{
	test_views();
	test_exit_leaves();
	test_wanted();
	test_many();
	test_errors();
	return check_done();
}
