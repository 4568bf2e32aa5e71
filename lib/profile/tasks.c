/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tasks.c - the task table's model: per-task deltas, rates and rows. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashtab.h"
#include "base/optsz.h"
#include "profile/tasks.h"

#define CPU_NS TASKS_EV(TASKS_EV_TASK_CLOCK)

const struct tasks_col_def tasks_cols[TASKS_NCOLS] = {
	[TASKS_COL_PID] = { "pid", "PID", 7, 0, true },
	[TASKS_COL_TID] = { "tid", "TID", 7, 0, true },
	[TASKS_COL_USER] = { "user", "USER", 8, 0, true },
	[TASKS_COL_CPU] = { "cpu", "%CPU", 6, 0, false },
	[TASKS_COL_CTX] = { "ctx", "CTXSW/s", 8,
			    TASKS_EV(TASKS_EV_CTX), false },
	[TASKS_COL_MIGR] = { "migr", "MIGR/s", 7,
			     TASKS_EV(TASKS_EV_MIGR), false },
	[TASKS_COL_FAULTS] = { "faults", "FAULTS/s", 10,
			       TASKS_EV(TASKS_EV_FAULTS), false },
	[TASKS_COL_MCYCLES] = { "mcycles", "Mcycle/s", 9,
				TASKS_EV(TASKS_EV_CYCLES), false },
	[TASKS_COL_MINSTR] = { "minstr", "Minstr/s", 9,
			       TASKS_EV(TASKS_EV_INSNS), false },
	[TASKS_COL_IPC] = { "ipc", "IPC", 5, TASKS_EV(TASKS_EV_CYCLES) |
			    TASKS_EV(TASKS_EV_INSNS), false },
	[TASKS_COL_CACHE_MISS] = { "cache-miss", "%MISS", 6,
				   TASKS_EV(TASKS_EV_CACHE_REFS) |
				   TASKS_EV(TASKS_EV_CACHE_MISSES), false },
	[TASKS_COL_BRANCH_MISS] = { "branch-miss", "%BMIS", 6,
				    TASKS_EV(TASKS_EV_BRANCHES) |
				    TASKS_EV(TASKS_EV_BRANCH_MISSES), false },
	[TASKS_COL_COMM] = { "comm", "COMMAND", 0, 0, true },
};

/* One task: its counts now and at the last frame, and this frame's. */
struct task {
	pid_t pid, tid;
	uid_t uid;
	char comm[17];
	unsigned has, prev_has;	/* events in cur[], prev[] */
	unsigned flags;		/* TASKS_FRESH, TASKS_EXITED, this frame */
	bool counted;		/* tasks_counts() since the last frame */
	bool gone;		/* exited: drop at the next frame */
	uint64_t cur[TASKS_NEVENTS], prev[TASKS_NEVENTS];
	uint64_t sampled_ns;	/* this refresh, so far */
	struct tasks_row row;	/* the last frame's figures */
	bool in_frame;		/* row is of the last frame */
	double heat;		/* decaying CPU ns, for tasks_wanted() */
};

struct tasks {
	struct hashtab byid;	/* struct task by tid */
	struct tasks_row *rows;	/* tasks_rows()'s array */
	size_t arows;
	struct task **order;	/* tasks_wanted()'s scratch */
	size_t aorder;
	uint64_t interval_ns;	/* the last frame's */
};

static bool task_eq(const void *item, const void *key)
{
	return ((const struct task *)item)->tid == *(const pid_t *)key;
}

static struct task *task_find(const struct tasks *t, pid_t tid)
{
	return hashtab_find(&t->byid, hash_u64((uint64_t)tid), task_eq, &tid);
}

/* The task of id, made on first sight; its name and user updated. */
static struct task *task_get(struct tasks *t, const struct tasks_id *id)
{
	struct task *k = task_find(t, id->tid);
	bool made = k == NULL;

	if (made) {
		k = calloc(1, sizeof(*k));
		if (k == NULL)
			return NULL;
		k->tid = id->tid;
		if (hashtab_add(&t->byid, hash_u64((uint64_t)id->tid), k)) {
			free(k);
			return NULL;
		}
	}
	if (id->pid || made)
		k->pid = id->pid ? id->pid : id->tid;
	if (id->uid != (uid_t)-1 || made)
		k->uid = id->uid;
	/* strncpy pads, and comm[16] stays the NUL */
	if (id->comm || made)
		strncpy(k->comm, id->comm ? id->comm : "[unknown]", 16);
	return k;
}

struct tasks *tasks_new(void)
{
	return calloc(1, sizeof(struct tasks));
}

void tasks_free(struct tasks *t)
{
	if (t == NULL)
		return;
	hashtab_free_items(&t->byid);
	free(t->rows);
	free(t->order);
	free(t);
}

bool tasks_known(const struct tasks *t, pid_t tid)
{
	return task_find(t, tid) != NULL;
}

size_t tasks_count(const struct tasks *t)
{
	return hashtab_count(&t->byid);
}

int tasks_sampled(struct tasks *t, const struct tasks_id *id, uint64_t ns)
{
	struct task *k;

	if (t == NULL || id == NULL) {
		errno = EINVAL;
		return -1;
	}
	k = task_get(t, id);
	if (k == NULL)
		return -1;
	k->sampled_ns += ns;
	return 0;
}

int tasks_counts(struct tasks *t, const struct tasks_id *id, unsigned has,
		 const uint64_t count[TASKS_NEVENTS], unsigned flags)
{
	struct task *k;

	if (t == NULL || id == NULL || count == NULL) {
		errno = EINVAL;
		return -1;
	}
	k = task_get(t, id);
	if (k == NULL)
		return -1;
	has &= (1u << TASKS_NEVENTS) - 1;
	k->has = has;
	k->flags |= flags;
	k->counted = true;
	for (unsigned e = 0; e < TASKS_NEVENTS; e++)
		k->cur[e] = has & TASKS_EV(e) ? count[e] : 0;
	return 0;
}

/* Counts per second of the frame; 0 for an empty interval. */
static double per_s(uint64_t v, uint64_t ns)
{
	return ns ? (double)v * 1e9 / (double)ns : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* Fill r's figure columns from its deltas, its samples and has. */
static void row_values(struct tasks_row *r, uint64_t ns)
{
	const uint64_t *d = r->delta;

	r->value[TASKS_COL_PID] = r->pid;
	r->value[TASKS_COL_TID] = r->tid ? (double)r->tid : r->nthreads;
	r->value[TASKS_COL_USER] = r->uid;
	/* %CPU: the counters' task-clock, else what the samples stand for;
	   a process sums each thread's own (row_add()) */
	r->value[TASKS_COL_CPU] = pct(d[TASKS_EV_TASK_CLOCK], ns);
	r->value[TASKS_COL_CTX] = per_s(d[TASKS_EV_CTX], ns);
	r->value[TASKS_COL_MIGR] = per_s(d[TASKS_EV_MIGR], ns);
	r->value[TASKS_COL_FAULTS] = per_s(d[TASKS_EV_FAULTS], ns);
	r->value[TASKS_COL_MCYCLES] = per_s(d[TASKS_EV_CYCLES], ns) / 1e6;
	r->value[TASKS_COL_MINSTR] = per_s(d[TASKS_EV_INSNS], ns) / 1e6;
	r->value[TASKS_COL_IPC] = d[TASKS_EV_CYCLES] ?
		(double)d[TASKS_EV_INSNS] / (double)d[TASKS_EV_CYCLES] : 0;
	r->value[TASKS_COL_CACHE_MISS] = pct(d[TASKS_EV_CACHE_MISSES],
					     d[TASKS_EV_CACHE_REFS]);
	r->value[TASKS_COL_BRANCH_MISS] = pct(d[TASKS_EV_BRANCH_MISSES],
					      d[TASKS_EV_BRANCHES]);
	r->value[TASKS_COL_COMM] = 0;
}

bool tasks_row_has(const struct tasks_row *r, enum tasks_col c)
{
	if ((unsigned)c >= TASKS_NCOLS)
		return false;
	return (r->has & tasks_cols[c].needs) == tasks_cols[c].needs;
}

/* A task's row of this frame: the differences, and %CPU's time. */
static void task_row(struct task *k)
{
	struct tasks_row *r = &k->row;

	memset(r, 0, sizeof(*r));
	r->pid = k->pid;
	r->tid = k->tid;
	r->uid = k->uid;
	r->comm = k->comm;
	r->nthreads = 1;
	r->exited = k->flags & TASKS_EXITED;
	r->sampled_ns = k->sampled_ns;
	if (k->counted) {
		bool from0 = (k->flags & TASKS_FRESH) != 0;

		r->has = k->has;
		for (unsigned e = 0; e < TASKS_NEVENTS; e++) {
			uint64_t base = 0;

			if (!from0 && (k->prev_has & TASKS_EV(e)))
				base = k->prev[e];
			/* a count never falls; one that did was reopened
			   without TASKS_FRESH: take it from 0 */
			if (k->has & TASKS_EV(e))
				r->delta[e] = k->cur[e] >= base ?
					      k->cur[e] - base : k->cur[e];
		}
	}
	/* without a task-clock, the samples say how long it ran */
	if (!(r->has & CPU_NS))
		r->delta[TASKS_EV_TASK_CLOCK] = k->sampled_ns;
}

/* Drop what tasks_frame() said goes. */
static bool task_gone(void *item, void *arg)
{
	struct task *k = item;

	(void)arg;
	if (!k->gone)
		return false;
	free(k);
	return true;
}

void tasks_frame(struct tasks *t, uint64_t interval_ns)
{
	struct task *k;
	size_t i = 0;

	t->interval_ns = interval_ns;
	/* the last frame's leavers go first: their rows were read */
	hashtab_remove_if(&t->byid, task_gone, NULL);
	while ((k = hashtab_next(&t->byid, &i))) {
		task_row(k);
		row_values(&k->row, interval_ns);
		k->in_frame = k->counted || k->sampled_ns;
		k->heat = k->heat / 2 + (double)k->row.delta[TASKS_EV_TASK_CLOCK];
		/* a task seen neither way, or gone, leaves after this */
		k->gone = !k->in_frame || (k->flags & TASKS_EXITED);
		k->prev_has = k->counted ? k->has : 0;
		memcpy(k->prev, k->cur, sizeof(k->prev));
		k->has = 0;
		k->counted = false;
		k->flags = 0;
		k->sampled_ns = 0;
	}
}

/* Whether view v passes task k. */
static bool passes(const struct tasks_view *v, const struct task *k)
{
	if (v->by_uid && k->uid != v->uid)
		return false;
	return !v->name || !v->name[0] || strstr(k->comm, v->name);
}

/* Sum thread row s into process row r (r's first thread set it up). */
static void row_add(struct tasks_row *r, const struct tasks_row *s)
{
	r->nthreads++;
	r->partial |= (r->has != s->has);
	r->has |= s->has;
	r->sampled_ns += s->sampled_ns;
	r->exited &= s->exited;
	for (unsigned e = 0; e < TASKS_NEVENTS; e++)
		r->delta[e] += s->delta[e];
}

static enum tasks_col sort_col;
static bool sort_rev;

static int cmp_num(double a, double b)
{
	return (a > b) - (a < b);
}

/* tasks_rows()'s order; qsort has no argument, hence the statics. */
static int row_cmp(const void *pa, const void *pb)
{
	const struct tasks_row *a = pa, *b = pb;
	bool ha = tasks_row_has(a, sort_col), hb = tasks_row_has(b, sort_col);
	int c = 0;

	if (ha != hb)
		return ha ? -1 : 1;	/* '-' rows last, either way */
	if (sort_col == TASKS_COL_COMM)
		c = strcmp(a->comm, b->comm);
	else
		c = cmp_num(a->value[sort_col], b->value[sort_col]);
	if (!tasks_cols[sort_col].ascending)
		c = -c;
	if (sort_rev)
		c = -c;
	if (c)
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* The process view: the row of pid in rows[0..n), or NULL. */
static struct tasks_row *row_of_pid(struct tasks_row *rows, size_t n,
				    pid_t pid)
{
	while (n--)
		if (rows[n].pid == pid)
			return &rows[n];
	return NULL;
}

const struct tasks_row *tasks_rows(struct tasks *t, const struct tasks_view *v,
				   size_t *n)
{
	struct tasks_view view = TASKS_VIEW();
	size_t i = 0, nr = 0;
	struct task *k;

	*n = 0;
	/* the size rule is lib/base/optsz.h's */
	if (v == NULL || optsz_copy(&view, sizeof(view), v) != 0)
		return errno = v ? errno : EINVAL, NULL;
	v = &view;
	if ((unsigned)v->order >= TASKS_NCOLS) {
		errno = EINVAL;
		return NULL;
	}
	if (ARRAY_GROW(t->rows, hashtab_count(&t->byid) + 1, t->arows) != 0)
		return NULL;
	while ((k = hashtab_next(&t->byid, &i))) {
		struct tasks_row *r;

		if (!k->in_frame || !passes(v, k))
			continue;
		r = v->processes ? row_of_pid(t->rows, nr, k->pid) : NULL;
		if (r) {
			row_add(r, &k->row);
			/* the main thread names the process */
			if (k->tid == k->pid)
				r->comm = k->comm;
			continue;
		}
		r = &t->rows[nr++];
		*r = k->row;
		if (v->processes)
			r->tid = 0;
	}
	for (i = 0; v->processes && i < nr; i++)
		row_values(&t->rows[i], t->interval_ns);
	sort_col = v->order;
	sort_rev = v->reverse;
	qsort(t->rows, nr, sizeof(*t->rows), row_cmp);
	if (v->max_rows && nr > v->max_rows)
		nr = v->max_rows;
	*n = nr;
	return t->rows;
}

/* tasks_wanted()'s order: heat, then counted now, then tid. */
static int hot_cmp(const void *pa, const void *pb)
{
	const struct task *a = *(struct task *const *)pa;
	const struct task *b = *(struct task *const *)pb;
	int c = cmp_num(b->heat, a->heat);

	if (c)
		return c;
	if (a->prev_has != b->prev_has)
		return a->prev_has ? -1 : 1;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

size_t tasks_wanted(const struct tasks *t, pid_t *out, size_t max)
{
	struct tasks *w = (struct tasks *)t;	/* scratch only */
	size_t i = 0, n = 0;
	struct task *k;

	if (ARRAY_GROW(w->order, hashtab_count(&t->byid) + 1, w->aorder) != 0)
		return 0;
	while ((k = hashtab_next(&t->byid, &i)))
		if (!k->gone)
			w->order[n++] = k;
	qsort(w->order, n, sizeof(*w->order), hot_cmp);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = w->order[i]->tid;
	return n;
}

int tasks_col_by_name(const char *name)
{
	for (int c = 0; c < TASKS_NCOLS; c++)
		if (strcmp(tasks_cols[c].name, name) == 0)
			return c;
	return -1;
}
