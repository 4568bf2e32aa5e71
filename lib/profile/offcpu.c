/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * offcpu.c - switch-outs paired with switch-ins: off-CPU spans weighted
 * in nanoseconds (offcpu.h says the rules).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashtab.h"
#include "base/strpool.h"
#include "profile/offcpu.h"

const struct stk_sample_frame offcpu_leaf = {
	.sym = OFFCPU_LEAF, .dso = OFFCPU_LEAF, .mode = 'k', .cause = SYM_OK,
};

/* What the model knows of one thread. */
struct offcpu_thread {
	pid_t pid, tid;
	const char *comm;	/* interned */
	bool out;		/* off the CPU since out_time */
	bool preempted;
	bool out_stack;		/* frames belong to the pending out */
	bool next_stack;	/* frames wait for the next out */
	bool suspect;		/* records were lost since the out */
	uint64_t out_time;
	uint64_t last_in;	/* an unpaired switch-in's time, or 0 */
	unsigned exited;	/* 0; else it exited (EXIT), and the
				   flushes since, plus one */
	struct stk_sample_frame *frames;	/* offcpu_leaf, the chain */
	unsigned nframes;		/* of the chain */
	size_t aframes;
	struct stk_sample_frame *seen;	/* the chain as the caller gave it
					   (its strings' addresses), to
					   know the same chain again */
	size_t aseen;
};

struct offcpu {
	offcpu_fn fn;
	void *arg;
	struct hashtab threads;		/* of struct offcpu_thread */
	struct strpool strings;		/* the frames' strings */
	struct offcpu_stats st;
};

struct offcpu *offcpu_new(offcpu_fn fn, void *arg)
{
	struct offcpu *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->fn = fn;
	m->arg = arg;
	return m;
}

static void thread_free(void *item)
{
	struct offcpu_thread *t = item;

	free(t->frames);
	free(t->seen);
	free(t);
}

void offcpu_free(struct offcpu *m)
{
	if (!m)
		return;
	hashtab_release_items(&m->threads, thread_free);
	strpool_release(&m->strings);
	free(m);
}

static bool thread_eq(const void *item, const void *key)
{
	return ((const struct offcpu_thread *)item)->tid == *(const pid_t *)key;
}

static struct offcpu_thread *thread_find(const struct offcpu *m, pid_t tid)
{
	return hashtab_find(&m->threads, hash_u64((uint64_t)tid), thread_eq,
			    &tid);
}

/* tid's entry, made on first sight; NULL with errno ENOMEM. */
static struct offcpu_thread *thread_get(struct offcpu *m, pid_t pid,
					pid_t tid)
{
	struct offcpu_thread *t = thread_find(m, tid);

	if (t) {
		t->pid = pid;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	if (hashtab_add(&m->threads, hash_u64((uint64_t)tid), t) != 0) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * The scheduler's own functions, which every chain taken at a switch
 * starts with (the context-switches event fires inside __schedule()).
 * A prefix each.
 */
static const char *const sched_funcs[] = {
	"__schedule", "schedule", "preempt_schedule", "__cond_resched",
	"_cond_resched", "io_schedule", "context_switch",
	"prepare_task_switch", "finish_task_switch",
	"__perf_event_task_sched", "perf_event_task_sched",
	"perf_swevent", "___perf_sw_event", "__perf_sw_event",
};

static bool is_sched(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(sched_funcs) / sizeof(sched_funcs[0]); i++)
		if (!strncmp(name, sched_funcs[i], strlen(sched_funcs[i])))
			return true;
	return false;
}

const char *offcpu_where(const struct stk_sample_frame *frames, unsigned n)
{
	unsigned i;

	for (i = 0; i < n && frames[i].mode == 'k'; i++)
		if (frames[i].sym && !is_sched(frames[i].sym))
			return frames[i].sym;
	return NULL;
}

static const char *intern(struct offcpu *m, const char *s)
{
	return s ? strpool_intern(&m->strings, s) : NULL;
}

static int emit(struct offcpu *m, struct offcpu_thread *t, uint64_t start,
		uint64_t end, bool with_stack, bool estimated)
{
	struct offcpu_span sp = {
		.pid = t->pid, .tid = t->tid, .comm = t->comm, .start = start,
		.ns = end - start, .estimated = estimated,
		.state = t->preempted ? OFFCPU_PREEMPTED : OFFCPU_BLOCKED,
	};

	sp.frames = &offcpu_leaf;
	sp.nframes = 1;
	if (with_stack) {
		sp.frames = t->frames;
		sp.nframes = t->nframes + 1;
		if (!t->preempted)
			sp.where = offcpu_where(t->frames + 1, t->nframes);
	}
	m->st.spans++;
	m->st.ns += sp.ns;
	if (estimated) {
		m->st.estimated++;
		m->st.estimated_ns += sp.ns;
	}
	return m->fn(m->arg, &sp) ? -1 : 0;
}

/*
 * t ran at time, a record of its own says: a span pending from before
 * lost its switch-in, and ends there, estimated.  0, or fn's -1.
 */
static int ran(struct offcpu *m, struct offcpu_thread *t, uint64_t time)
{
	if (!t->out || time <= t->out_time)
		return 0;
	t->out = t->suspect = false;
	return emit(m, t, t->out_time, time, t->out_stack, true);
}


static bool drop_tid(void *item, void *arg)
{
	struct offcpu_thread *t = item;

	if (t->tid != *(pid_t *)arg)
		return false;
	thread_free(t);
	return true;
}

/*
 * Whether frames[0..n) is the chain t copied last, frame for frame and
 * string for string (the same addresses: a thread that blocks in one
 * place blocks there again, thousands of times a second).
 */
static bool same_chain(const struct offcpu_thread *t,
		       const struct stk_sample_frame *frames, unsigned n)
{
	unsigned i;

	if (n != t->nframes || !t->seen)
		return false;
	for (i = 0; i < n; i++) {
		const struct stk_sample_frame *a = &frames[i], *b = &t->seen[i];

		if (a->ip != b->ip || a->sym != b->sym || a->dso != b->dso ||
		    a->file != b->file || a->line != b->line ||
		    a->mode != b->mode || a->inlined != b->inlined ||
		    a->cause != b->cause)
			return false;
	}
	return true;
}

int offcpu_stack(struct offcpu *m, pid_t pid, pid_t tid, uint64_t time,
		 const struct stk_sample_frame *frames, unsigned n)
{
	struct offcpu_thread *t = thread_get(m, pid, tid);
	unsigned i;

	if (!t || ran(m, t, time) != 0)
		return -1;
	if (same_chain(t, frames, n))
		goto attach;
	if (ARRAY_GROW(t->frames, n + 1, t->aframes) != 0 ||
	    ARRAY_GROW(t->seen, n ? n : 1, t->aseen) != 0)
		return -1;
	t->frames[0] = offcpu_leaf;
	for (i = 0; i < n; i++) {
		struct stk_sample_frame *fr = &t->frames[i + 1];

		*fr = frames[i];
		fr->sym = intern(m, frames[i].sym);
		fr->dso = intern(m, frames[i].dso);
		fr->file = intern(m, frames[i].file);
		if ((frames[i].sym && !fr->sym) || !fr->dso ||
		    (frames[i].file && !fr->file)) {
			t->nframes = 0;
			return -1;
		}
	}
	if (n)
		memcpy(t->seen, frames, n * sizeof(*frames));
	t->nframes = n;
attach:
	/* a stack read after its own switch-out (another ring) */
	if (t->out && !t->out_stack)
		t->out_stack = true;
	else
		t->next_stack = true;
	return 0;
}

int offcpu_out(struct offcpu *m, pid_t pid, pid_t tid, const char *comm,
	       uint64_t time, bool preempted)
{
	struct offcpu_thread *t = thread_get(m, pid, tid);
	bool stack;

	if (!t)
		return -1;
	if (t->exited) {
		/* its last switch, into do_task_dead(): it never runs again */
		hashtab_remove_if(&m->threads, drop_tid, &tid);
		return 0;
	}
	if (comm && (!t->comm || strcmp(t->comm, comm))) {
		t->comm = intern(m, comm);
		if (!t->comm)
			return -1;
	}
	if (ran(m, t, time) != 0)	/* its switch-in was lost */
		return -1;
	if (t->out)		/* out of order: the later out is kept */
		m->st.dropped++;
	t->preempted = preempted;
	stack = t->next_stack;
	t->next_stack = false;
	if (t->last_in && time <= t->last_in) {
		/* its switch-in was read first */
		uint64_t in = t->last_in;

		t->last_in = 0;
		t->out = false;
		m->st.unpaired--;
		return emit(m, t, time, in, stack, false);
	}
	t->last_in = 0;
	t->out = true;
	t->suspect = false;
	t->out_time = time;
	t->out_stack = stack;
	return 0;
}

int offcpu_in(struct offcpu *m, pid_t pid, pid_t tid, uint64_t time)
{
	struct offcpu_thread *t = thread_get(m, pid, tid);
	bool estimated;

	if (!t)
		return -1;
	if (t->exited) {	/* its tid reused by a new thread */
		t->exited = 0;
		t->out = t->out_stack = t->next_stack = false;
	}
	if (!t->out || time < t->out_time) {
		m->st.unpaired++;
		if (!t->out)
			t->last_in = time;
		return 0;
	}
	estimated = t->suspect;
	t->out = t->suspect = false;
	return emit(m, t, t->out_time, time, t->out_stack, estimated);
}

int offcpu_seen(struct offcpu *m, pid_t tid, uint64_t time)
{
	struct offcpu_thread *t = thread_find(m, tid);

	return t ? ran(m, t, time) : 0;
}


/*
 * The kernel writes a task's EXIT before its last switch-out (into
 * do_task_dead()), which no switch-in follows: the thread is kept,
 * marked, so that this switch-out is known and dropped with it.  Where
 * that record was lost, the mark goes at the second flush.  A span still
 * pending lost its switch-in: the thread ran to its exit.
 */
int offcpu_exit(struct offcpu *m, pid_t tid, uint64_t time)
{
	struct offcpu_thread *t = thread_find(m, tid);
	int rc = 0;

	if (!t)
		t = thread_get(m, 0, tid);
	if (!t)
		return -1;	/* no memory: its last switch-out is lost */
	rc = ran(m, t, time);
	if (t->out)
		m->st.dropped++;
	t->out = t->out_stack = t->next_stack = t->suspect = false;
	t->last_in = 0;
	t->exited = 1;
	return rc;
}

static bool drop_exited(void *item, void *arg)
{
	struct offcpu_thread *t = item;

	(void)arg;
	if (!t->exited || ++t->exited < 3)
		return false;
	thread_free(t);
	return true;
}

void offcpu_lost(struct offcpu *m)
{
	struct offcpu_thread *t;
	size_t i = 0;

	m->st.lost++;
	while ((t = hashtab_next(&m->threads, &i))) {
		t->suspect = t->out;
		t->last_in = 0;
	}
}

int offcpu_flush(struct offcpu *m, uint64_t now)
{
	struct offcpu_thread *t;
	size_t i = 0;

	while ((t = hashtab_next(&m->threads, &i))) {
		if (!t->out || t->out_time >= now)
			continue;
		if (emit(m, t, t->out_time, now, t->out_stack,
			 t->suspect) != 0)
			return -1;
		t->out_time = now;
	}
	hashtab_remove_if(&m->threads, drop_exited, NULL);
	return 0;
}

void offcpu_stats(const struct offcpu *m, struct offcpu_stats *out)
{
	*out = m->st;
}
