/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed-drain.c - the records of the feed's rings: mappings and task
 * events to lib/symbols, samples classified, resolved and handed over.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "base/clock.h"
#include "profile/feed-internal.h"
#include "profile/rates.h"

/* The event a sample belongs to, from its id (several events only). */
static unsigned sample_event(const struct feed *f, uint64_t id)
{
	size_t i;

	if (f->nattrs == 1)
		return 0;
	/* f->ctr is sorted by id (feed_open) */
	i = addr_lower_bound(f->ctr, f->nctr, sizeof(*f->ctr),
			     offsetof(struct feed_counter, id), id);
	return i < f->nctr && f->ctr[i].id == id ? f->ctr[i].event : 0;
}

/*
 * The mode a sample was taken in.  The 2008 backend has no cpumode: there
 * the address's top bit says it (the x86-64 and arm64 kernel half).
 */
static char sample_mode(const struct pc_record *rec)
{
	switch (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	case PERF_RECORD_MISC_HYPERVISOR:
		return 'h';
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_GUEST_USER:
		return 'g';
	default:
		return rec->sample.ip >> 63 ? 'k' : '.';
	}
}

static bool stream_eq(const void *item, const void *key)
{
	const struct feed_stream *a = item, *b = key;

	return a->id == b->id && a->tid == b->tid;
}

/*
 * opts.group_read: the members' deltas since the previous sample of s's
 * stream into fs.  A stream is a counter, and a thread on per-thread
 * counters: there an inherited counter reads the sampled thread's own
 * counts (Linux 6.12's rule for inherit with PERF_SAMPLE_READ), and a
 * thread's first sample counts from its counter's start.
 */
static void sample_deltas(struct feed *f, const struct pc_sample *s,
			  struct feed_sample *fs)
{
	unsigned i;
	struct feed_stream key = { s->id, f->cpu_wide ? 0 : (pid_t)s->tid,
				   (pid_t)s->pid, s->ip };
	size_t h = hash_bytes(&key.tid, sizeof(key.tid), hash_u64(key.id));
	struct feed_stream *st;

	if (s->nr_read != f->nattrs || !s->read) {
		f->info.group_unread++;
		return;
	}
	st = hashtab_find(&f->streams, h, stream_eq, &key);
	if (!st) {
		st = calloc(1, sizeof(*st) + f->nattrs * sizeof(st->last[0]));
		if (!st || hashtab_add(&f->streams, h, st) != 0) {
			free(st);
			f->info.group_unread++;
			return;
		}
		*st = key;
		st->fn = ~0ull;		/* a first sample: no interval */
	}
	/* the function by its start, or the row of code without a symbol
	   (the IP when nothing is resolved) */
	if (fs->sym)
		key.fn = rates_fn_key(fs->sym->sym, s->ip - fs->sym->off,
				      fs->sym->dso, fs->sym->cause ?
				      fs->sym->cause : SYM_NO_SYMBOL);
	fs->same_fn = st->fn == key.fn && st->pid == key.pid;
	st->fn = key.fn;
	st->pid = key.pid;
	/* the leader's first, then the members' */
	for (i = 0; i < f->nattrs; i++) {
		uint64_t v = s->read[(size_t)i * s->read_stride];

		/* below the last: a new counter on a tid used again */
		f->deltas[i] = v >= st->last[i] ? v - st->last[i] : v;
		st->last[i] = v;
	}
	fs->lead_delta = f->deltas[0];
	fs->deltas = f->deltas + 1;
	fs->ndeltas = f->nattrs - 1;
}

void feed_streams_release(struct feed *f)
{
	hashtab_free_items(&f->streams);
}

/* The sample resolved and handed to fn. */
static int sample_out(struct feed *f, struct pc_record *rec,
		      feed_fn fn, void *arg)
{
	struct pc_sample *s = &rec->sample;
	struct sym_result r;
	struct feed_sample fs = {
		.raw = s,
		.event = sample_event(f, s->id),
		.mode = sample_mode(rec),
		.has_cpu = f->backend != PC_BACKEND_LEGACY,
	};
	const struct perf_event_attr *a = &f->attrs[fs.event];

	/* a fixed period is not in the record; the ring's own counter
	   may be another event's */
	if (!(a->sample_type & PERF_SAMPLE_PERIOD) && !a->freq)
		s->period = a->sample_period;
	switch (fs.mode) {
	case 'k': f->info.by_mode[FEED_MODE_KERNEL]++; break;
	case 'h': f->info.by_mode[FEED_MODE_HV]++; break;
	case 'g': f->info.by_mode[FEED_MODE_GUEST]++; break;
	default: f->info.by_mode[FEED_MODE_USER]++; break;
	}
	if (!f->no_resolve) {
		if (symbols_resolve(f->sym, (pid_t)s->pid, s->ip,
				    fs.mode == 'k' || fs.mode == 'h',
				    &r) != 0)
			f->info.unresolved++;
		if (r.cause == SYM_NO_MEMORY) {
			errno = ENOMEM;
			return -1;
		}
		fs.sym = &r;
		fs.comm = comm_get(&f->comms, (pid_t)s->pid, (pid_t)s->tid);
		if (feed_chain_build(f, rec, &r, &fs) != 0)
			return -1;
	}
	if (f->group_read)
		sample_deltas(f, s, &fs);
	f->info.samples++;
	return fn(arg, &fs);
}

/* Samples held at most, in bytes of copies (DWARF stacks are large). */
#define HELD_MAX (16u << 20)

/*
 * Copy rec aside when its process ran before the feed and its maps are
 * not read yet (feed-maps.c), and ask for them first; true when held.
 * A kernel sample needs no maps, but for its chain's user frames.
 */
static bool sample_hold(struct feed *f, const struct pc_record *rec)
{
	const struct pc_sample *s = &rec->sample;
	size_t chain = s->nr_callchain * 8, regs = s->nr_regs * 8;
	size_t stack = s->stack ? s->stack_dyn_size : 0;
	size_t reads = s->read ? (size_t)s->nr_read * s->read_stride * 8 : 0;
	struct feed_proc *p;
	struct feed_held *h;
	uint8_t *c;

	if (f->no_resolve || (sample_mode(rec) == 'k' &&
			      f->callgraph == FEED_CG_NONE))
		return false;
	p = feed_maps_unread(f, (pid_t)s->pid);
	if (!p || f->held_bytes + chain + regs + stack + reads > HELD_MAX ||
	    ARRAY_GROW(f->held, f->nheld + 1, f->aheld) != 0)
		return false;
	c = malloc(chain + regs + ((stack + 7) & ~(size_t)7) + reads + 1);
	if (!c)
		return false;
	h = &f->held[f->nheld++];
	h->rec = *rec;
	h->copy = c;
	h->bytes = chain + regs + stack + reads;
	if (chain)
		h->rec.sample.callchain = memcpy(c, s->callchain, chain);
	if (regs)
		h->rec.sample.regs = memcpy(c + chain, s->regs, regs);
	if (stack) {
		h->rec.sample.stack = memcpy(c + chain + regs, s->stack,
					     stack);
		h->rec.sample.stack_size = stack;
	}
	if (reads)	/* after the stack: still 8-byte aligned */
		h->rec.sample.read = memcpy(c + chain + regs +
					    ((stack + 7) & ~(size_t)7), s->read,
					    reads);
	f->held_bytes += h->bytes;
	feed_maps_want(f, p);
	return true;
}

static int on_sample(struct feed *f, struct pc_record *rec,
		     feed_fn fn, void *arg)
{
	if (f->maps_left && sample_hold(f, rec))
		return 0;
	return sample_out(f, rec, fn, arg);
}

/*
 * The held samples whose maps are in, handed over in the order they
 * came, counted in *n, max at most (0: no bound).  Looked at only when a
 * process was read since the last time all were.  Returns fn's stop
 * value or 0.
 */
static int held_out(struct feed *f, feed_fn fn, void *arg, unsigned *n,
		    unsigned max)
{
	unsigned gen = f->maps_gen;
	bool all = true;
	size_t i, j;
	int rc = 0;

	if (gen == f->held_gen)
		return 0;
	for (i = 0, j = 0; i < f->nheld; i++) {
		struct feed_held *h = &f->held[i];

		if (rc == 0 && (!max || *n < max) &&
		    !feed_maps_unread(f, (pid_t)h->rec.sample.pid)) {
			rc = sample_out(f, &h->rec, fn, arg);
			(*n)++;
			f->held_bytes -= h->bytes;
			free(h->copy);
			continue;
		}
		all &= rc == 0 && (!max || *n < max);
		f->held[j++] = *h;
	}
	f->nheld = j;
	if (all)
		f->held_gen = gen;
	return rc;
}

void feed_held_release(struct feed *f)
{
	size_t i;

	for (i = 0; i < f->nheld; i++)
		free(f->held[i].copy);
	free(f->held);
	f->held = NULL;
	f->nheld = f->aheld = f->held_bytes = 0;
}

/* 0, or -1 with errno ENOMEM: the mapping could not be kept. */
static int on_mmap(struct feed *f, const struct pc_record *rec)
{
	struct sym_mapping mp = {
		.start = rec->mmap.addr, .len = rec->mmap.len,
		.pgoff = rec->mmap.pgoff, .maj = rec->mmap.maj,
		.min = rec->mmap.min, .ino = rec->mmap.ino,
		.prot = rec->mmap.prot, .path = rec->mmap.filename,
	};

	if (!f->sym)
		return 0;
	/* new code: what the unwinder learnt of the process may be stale */
	if (f->unwind && (!mp.prot || (mp.prot & PROT_EXEC)))
		unwind_forget(f->unwind, (pid_t)rec->mmap.pid);
	if (rec->mmap.build_id_size) {
		mp.maj = mp.min = 0;
		mp.ino = 0;
		mp.build_id = rec->mmap.build_id;
		mp.build_id_size = rec->mmap.build_id_size;
	}
	/* a mapping the session cannot take is a miss later, not an
	   error; but for want of memory every later sample would miss */
	if (symbols_mmap(f->sym, (pid_t)rec->mmap.pid, &mp) != 0 &&
	    errno == ENOMEM)
		return -1;
	return 0;
}

/*
 * Where each ring's records end now: once every ring has been read up to
 * its mark, every record written before this moment was handled.
 */
static int marks_set(struct feed *f)
{
	size_t i;

	if (ARRAY_GROW(f->marks, f->nrings, f->amarks) != 0)
		return -1;
	for (i = 0; i < f->nrings; i++)
		f->marks[i] = pc_ring_written(f->rings[i]);
	f->nmarked = f->nexits;
	return 0;
}

/* Every ring read up to its mark (a record taken into its head but not
   handled yet does not count). */
static bool marks_passed(const struct feed *f)
{
	size_t i;

	for (i = 0; i < f->nrings; i++) {
		uint64_t done = pc_ring_taken(f->rings[i]);

		if (f->heads[i].full)
			done -= f->heads[i].rec.size;
		if (done < f->marks[i])
			return false;
	}
	return true;
}

/*
 * The exits met before the marks were set are acted on once the marks
 * are passed: their tasks' last samples may sit in another CPU's ring,
 * written before the EXIT and read after it.  Later exits wait for
 * marks of their own: symbols_gc() and comm_gc() drop every task marked
 * exited, so a task is marked only when it may go.  The tool copied
 * what it kept from the samples, so the session's strings may go.
 */
static void exits_collect(struct feed *f)
{
	size_t i;

	if (!f->nmarked || !marks_passed(f))
		return;
	for (i = 0; i < f->nmarked; i++) {
		const struct feed_exit *e = &f->exits[i];

		feed_filter_exit(f, e->pid, e->tid);
		comm_exit(&f->comms, e->tid);
		if (e->pid != e->tid)
			continue;
		if (f->sym)
			symbols_exit(f->sym, e->pid);
		if (f->unwind)
			unwind_forget(f->unwind, e->pid);
	}
	if (f->sym)
		symbols_gc(f->sym);
	if (f->filter)
		feed_filter_sweep(f);
	comm_gc(&f->comms);
	if (f->unwind)
		unwind_gc(f->unwind);
	f->nexits -= f->nmarked;
	memmove(f->exits, f->exits + f->nmarked,
		f->nexits * sizeof(*f->exits));
	f->nmarked = 0;
	if (f->nexits)
		(void)marks_set(f);	/* no marks: tried at the next exit */
}

/* A FORK: a pid reused after its EXIT is a new task, not one to forget. */
static void exits_reused(struct feed *f, pid_t tid)
{
	size_t i, j, marked = 0;

	for (i = 0, j = 0; i < f->nexits; i++) {
		if (f->exits[i].tid == tid)
			continue;
		marked += i < f->nmarked;
		f->exits[j++] = f->exits[i];
	}
	f->nexits = j;
	f->nmarked = marked;
	if (!f->nmarked && f->nexits)
		(void)marks_set(f);
}

/* An EXIT: forget the task later; note a watched target's end. */
static void on_exit_record(struct feed *f, const struct pc_record *rec)
{
	pid_t pid = (pid_t)rec->task.pid, tid = (pid_t)rec->task.tid;
	size_t i, gone = 0;

	if (ARRAY_GROW(f->exits, f->nexits + 1, f->aexits) == 0) {
		f->exits[f->nexits++] = (struct feed_exit){ pid, tid };
		if (!f->nmarked)
			(void)marks_set(f);
	}
	for (i = 0; i < f->nwatch; i++) {
		struct feed_watch *w = &f->watch[i];

		if (!w->gone && w->id == (f->watch_tids ? tid : pid) &&
		    (f->watch_tids || pid == tid)) {
			w->gone = true;
			f->gone_pid = w->id;
		}
		gone += w->gone;
	}
	if (f->nwatch && gone == f->nwatch)
		f->target_gone = true;
}

void feed_on_switch(struct feed *f, feed_switch_fn fn, void *arg)
{
	f->switch_fn = fn;
	f->switch_arg = arg;
}

/* A switch, exit or loss to the off-CPU callback: its stop value or 0. */
static int switch_out(struct feed *f, const struct pc_record *rec,
		      enum feed_switch_kind kind)
{
	struct feed_switch sw = {
		.kind = kind, .pid = (pid_t)rec->id.pid,
		.tid = (pid_t)rec->id.tid, .time = rec->id.time,
		.cpu = f->backend != PC_BACKEND_LEGACY ? (int)rec->id.cpu : -1,
	};

	if (!f->switch_fn)
		return 0;
	switch (kind) {
	case FEED_SWITCH_OUT:
		sw.preempted = rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
		break;
	case FEED_SWITCH_EXIT:
		sw.pid = (pid_t)rec->task.pid;
		sw.tid = (pid_t)rec->task.tid;
		sw.time = rec->task.time;
		break;
	case FEED_SWITCH_LOST:
		sw.pid = sw.tid = -1;
		sw.lost = rec->lost.lost;
		return f->switch_fn(f->switch_arg, &sw);
	default:
		break;
	}
	sw.comm = comm_get(&f->comms, sw.pid, sw.tid);
	return f->switch_fn(f->switch_arg, &sw);
}

/* One record, whatever its ring; returns fn's stop value or 0. */
static int on_record(struct feed *f, struct pc_record *rec,
		     feed_fn fn, void *arg)
{
	/* per-CPU counters: another task's record costs nothing more */
	if (f->filter && !feed_filter_keep(f, rec)) {
		f->info.foreign++;
		return 0;
	}
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(f, rec, fn, arg);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(f, rec);
	case PERF_RECORD_COMM:
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && f->sym &&
		    symbols_exec(f->sym, (pid_t)rec->comm.pid) != 0 &&
		    errno == ENOMEM)
			return -1;
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && f->unwind)
			unwind_forget(f->unwind, (pid_t)rec->comm.pid);
		comm_set(&f->comms, (pid_t)rec->comm.pid,
			 (pid_t)rec->comm.tid, rec->comm.comm);
		break;
	case PERF_RECORD_FORK:
		if (f->nexits)
			exits_reused(f, (pid_t)rec->task.tid);
		if (rec->task.pid != rec->task.ppid && f->sym &&
		    symbols_fork(f->sym, (pid_t)rec->task.pid,
				 (pid_t)rec->task.ppid) != 0 && errno == ENOMEM)
			return -1;
		if (f->task_fn)
			f->task_fn(f->task_arg, (pid_t)rec->task.pid,
				   (pid_t)rec->task.tid, (pid_t)rec->task.ptid,
				   false);
		break;
	case PERF_RECORD_EXIT:
		on_exit_record(f, rec);
		if (f->task_fn)
			f->task_fn(f->task_arg, (pid_t)rec->task.pid,
				   (pid_t)rec->task.tid, 0, true);
		return switch_out(f, rec, FEED_SWITCH_EXIT);
	case PERF_RECORD_THROTTLE:
		f->info.throttled++;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return switch_out(f, rec,
				  rec->misc & PERF_RECORD_MISC_SWITCH_OUT ?
				  FEED_SWITCH_OUT : FEED_SWITCH_IN);
	case PERF_RECORD_LOST:
		return switch_out(f, rec, FEED_SWITCH_LOST);
	default:
		break;
	}
	return 0;
}

/* Fill ring i's head with its next record, if it has one: 0 or -1. */
static int head_fill(struct feed *f, size_t i)
{
	struct feed_head *h = &f->heads[i];
	int r;

	while (!h->full && (r = pc_ring_next(f->rings[i], &h->rec)) != 0) {
		if (r > 0) {
			h->full = true;
		} else if (errno == EBADMSG) {
			/* the reader has skipped past the garbage */
			f->info.malformed++;
		} else {
			return -1;
		}
	}
	return 0;
}

static uint64_t head_time(const struct feed_head *h)
{
	return h->rec.type == PERF_RECORD_SAMPLE ? h->rec.sample.time
						 : h->rec.id.time;
}

/*
 * The earliest record of all the rings, or -1 when they are empty.  The
 * rings are per CPU: a child's samples can sit in one CPU's ring while
 * the FORK (or the MMAP2 of a library it runs) that must come first sits
 * in another's, as perf's ordered events know.  An empty ring is looked
 * at again for every record: what made a record in another ring (a fork,
 * an mmap) was written before it, so it is visible by then.
 */
static int head_earliest(struct feed *f, size_t *best)
{
	size_t i;
	bool any = false;

	for (i = 0; i < f->nrings; i++) {
		if (head_fill(f, i) != 0)
			return -1;
		if (!f->heads[i].full)
			continue;
		if (!any || head_time(&f->heads[i]) <
			    head_time(&f->heads[*best]))
			*best = i;
		any = true;
	}
	return any ? 1 : 0;
}

/*
 * The clock is looked at every this many records: one record can cost
 * much (a JIT map read further, a file's symbols loaded), so not many.
 */
#define CLOCK_EVERY 8

/*
 * With more than FEED_LOST_READ_ALL counters feed_info() does not read
 * their lost counts itself (a read(2) each, and kerneltop asks at every
 * drain: with 6,000 counters, a 3,000-thread process on 2 CPUs, that was
 * 8% of a CPU, perf top's whole cost 2.5-4%, and 3.6% without it): a
 * drain does, at most every LOST_READ_MS.
 */
#define LOST_READ_MS 250

bool feed_lost_count(const struct feed *f, uint64_t *counted)
{
	uint64_t n;
	size_t i;

	*counted = 0;
	for (i = 0; i < f->nctr; i++) {
		if (pc_counter_lost(f->ctr[i].c, &n) != 0)
			return false;
		*counted += n;
	}
	return f->nctr > 0;
}

void feed_lost_read(struct feed *f, double now)
{
	if (f->nctr <= FEED_LOST_READ_ALL ||
	    (f->lost_read_ms > 0 && now - f->lost_read_ms < LOST_READ_MS))
		return;
	f->lost_complete = feed_lost_count(f, &f->lost_counted);
	f->lost_read_ms = now;
}

int feed_drain_some(struct feed *f, feed_fn fn, void *arg,
		    const struct feed_budget *budget, bool *more)
{
	unsigned max = budget ? budget->max_records : 0, n = 0;
	double end = budget && budget->max_ms > 0 ?
			     clock_ms(CLOCK_MONOTONIC) + budget->max_ms : 0;
	size_t best = 0;
	int rc = 0, r;

	if (more)
		*more = false;
	if (f->nomem) {		/* the background map reading ran out */
		errno = ENOMEM;
		return -1;
	}
	if (f->nheld)
		rc = held_out(f, fn, arg, &n, max);
	while (rc == 0 && (r = head_earliest(f, &best)) != 0) {
		if (r < 0)
			return -1;
		if ((max && n >= max) ||
		    (end && n % CLOCK_EVERY == 0 && n &&
		     clock_ms(CLOCK_MONOTONIC) >= end)) {
			/* the record found stays in its head for next time */
			f->info.cut_short++;
			if (more)
				*more = true;
			break;
		}
		f->heads[best].full = false;
		n++;
		/* its pointers live until the next read of its ring */
		rc = on_record(f, &f->heads[best].rec, fn, arg);
	}
	exits_collect(f);
	feed_lost_read(f, clock_ms(CLOCK_MONOTONIC));
	return rc;
}

int feed_drain(struct feed *f, feed_fn fn, void *arg)
{
	return feed_drain_some(f, fn, arg, NULL, NULL);
}
