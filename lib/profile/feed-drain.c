/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed-drain.c - the records of the feed's rings: mappings and task
 * events to lib/symbols, samples classified, resolved and handed over.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "base/array.h"
#include "profile/feed-internal.h"

/* The event a sample belongs to, from its id (several events only). */
static unsigned sample_event(const struct feed *f, uint64_t id)
{
	size_t lo = 0, hi = f->nctr;

	if (f->nattrs == 1)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->ctr[mid].id == id)
			return f->ctr[mid].event;
		if (f->ctr[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
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

static int on_sample(struct feed *f, const struct pc_record *rec,
		     feed_fn fn, void *arg)
{
	const struct pc_sample *s = &rec->sample;
	struct sym_result r;
	struct feed_sample fs = {
		.raw = s,
		.event = sample_event(f, s->id),
		.mode = sample_mode(rec),
		.has_cpu = f->backend != PC_BACKEND_LEGACY,
	};

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
		fs.sym = &r;
		fs.comm = comm_get(&f->comms, (pid_t)s->pid, (pid_t)s->tid);
		if (feed_chain_build(f, rec, &r, &fs) != 0)
			return -1;
	}
	f->info.samples++;
	return fn(arg, &fs);
}

static void on_mmap(struct feed *f, const struct pc_record *rec)
{
	struct sym_mapping mp = {
		.start = rec->mmap.addr, .len = rec->mmap.len,
		.pgoff = rec->mmap.pgoff, .maj = rec->mmap.maj,
		.min = rec->mmap.min, .ino = rec->mmap.ino,
		.prot = rec->mmap.prot, .path = rec->mmap.filename,
	};

	if (!f->sym)
		return;
	/* new code: what the unwinder learnt of the process may be stale */
	if (f->unwind && (!mp.prot || (mp.prot & PROT_EXEC)))
		unwind_forget(f->unwind, (pid_t)rec->mmap.pid);
	if (rec->mmap.build_id_size) {
		mp.maj = mp.min = 0;
		mp.ino = 0;
		mp.build_id = rec->mmap.build_id;
		mp.build_id_size = rec->mmap.build_id_size;
	}
	/* a mapping the session cannot take is a miss later, not an error */
	(void)symbols_mmap(f->sym, (pid_t)rec->mmap.pid, &mp);
}

/* An EXIT: forget the task later; note a watched target's end. */
static void on_exit_record(struct feed *f, const struct pc_record *rec)
{
	pid_t pid = (pid_t)rec->task.pid, tid = (pid_t)rec->task.tid;
	size_t i, gone = 0;

	comm_exit(&f->comms, tid);
	if (pid == tid && f->sym)
		symbols_exit(f->sym, pid);
	/* forgotten once every ring is read: samples may follow the EXIT */
	if (pid == tid && f->unwind &&
	    ARRAY_GROW(f->gone, f->ngone + 1, f->agone) == 0)
		f->gone[f->ngone++] = pid;
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

/* One record, whatever its ring; returns fn's stop value or 0. */
static int on_record(struct feed *f, const struct pc_record *rec,
		     feed_fn fn, void *arg, bool *exited)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(f, rec, fn, arg);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		on_mmap(f, rec);
		break;
	case PERF_RECORD_COMM:
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && f->sym)
			symbols_exec(f->sym, (pid_t)rec->comm.pid);
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && f->unwind)
			unwind_forget(f->unwind, (pid_t)rec->comm.pid);
		comm_set(&f->comms, (pid_t)rec->comm.pid,
			 (pid_t)rec->comm.tid, rec->comm.comm);
		break;
	case PERF_RECORD_FORK:
		if (rec->task.pid != rec->task.ppid && f->sym)
			symbols_fork(f->sym, (pid_t)rec->task.pid,
				     (pid_t)rec->task.ppid);
		break;
	case PERF_RECORD_EXIT:
		on_exit_record(f, rec);
		*exited = true;
		break;
	case PERF_RECORD_THROTTLE:
		f->info.throttled++;
		break;
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

int feed_drain(struct feed *f, feed_fn fn, void *arg)
{
	bool exited = false;
	size_t i, best = 0;
	int rc = 0, r;

	while (rc == 0 && (r = head_earliest(f, &best)) != 0) {
		if (r < 0)
			return -1;
		f->heads[best].full = false;
		/* its pointers live until the next read of its ring */
		rc = on_record(f, &f->heads[best].rec, fn, arg, &exited);
	}
	/*
	 * Exited tasks are forgotten only once every ring was read: their
	 * last samples may sit in another CPU's ring.  The tool copied what
	 * it kept from the samples, so the session's strings may go.
	 */
	if (exited && rc == 0) {
		if (f->sym)
			symbols_gc(f->sym);
		comm_gc(&f->comms);
		for (i = 0; i < f->ngone; i++)
			unwind_forget(f->unwind, f->gone[i]);
		f->ngone = 0;
		if (f->unwind)
			unwind_gc(f->unwind);
	}
	return rc;
}
