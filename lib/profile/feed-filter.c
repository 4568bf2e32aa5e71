/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed-filter.c - with counters per CPU for a target of tasks
 * (FEED_SCHEME_CPUS, FEED_SCHEME_CGROUP), the records that are the
 * target's: its samples, and the mappings, names and task events the
 * symbols session needs for them.  Other tasks' records are dropped
 * before they cost anything.  The kept processes follow the FORK records:
 * a child of a kept process is kept, as a per-thread counter's inherit
 * would follow it; a process is dropped once every record written before
 * its EXIT was read (feed-drain.c's marks), so that its last samples in
 * another CPU's ring still count.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "profile/feed-internal.h"

static size_t id_hash(pid_t id)
{
	return hash_u64((uint64_t)(unsigned)id);
}

static bool keep_eq(const void *item, const void *key)
{
	return ((const struct feed_keep *)item)->id == *(const pid_t *)key;
}

static struct feed_keep *keep_find(const struct hashtab *t, pid_t id)
{
	return hashtab_find(t, id_hash(id), keep_eq, &id);
}

static int keep_add(struct hashtab *t, pid_t id)
{
	struct feed_keep *k = keep_find(t, id);

	if (k) {
		k->gone = false;	/* a kept pid given again */
		return 0;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return -1;
	k->id = id;
	if (hashtab_add(t, id_hash(id), k) != 0) {
		free(k);
		return -1;
	}
	return 0;
}

int feed_filter_add(struct feed *f, pid_t id, bool tid)
{
	return keep_add(tid ? &f->keep_tids : &f->keep_pids, id);
}

static bool kept(const struct hashtab *t, pid_t id)
{
	const struct feed_keep *k = keep_find(t, id);

	return k && !k->gone;
}

static bool drop_gone(void *item, void *arg)
{
	struct feed_keep *k = item;

	(void)arg;
	if (!k->gone)
		return false;
	free(k);
	return true;
}

/*
 * A FORK: a new process is kept when its parent is (not with -t lists:
 * threads alone are watched, as their per-thread counters would be; nor
 * with opts.no_inherit, as the counters would not follow it); a
 * pid kept before and given now to another's child is not.  A new thread
 * is its process's.
 */
static bool on_fork(struct feed *f, const struct pc_record *rec)
{
	pid_t pid = (pid_t)rec->task.pid, ppid = (pid_t)rec->task.ppid;
	struct feed_keep *k;

	if (pid == ppid || f->filter_tids || f->no_inherit)
		return kept(&f->keep_pids, pid);
	k = keep_find(&f->keep_pids, pid);
	if (kept(&f->keep_pids, ppid)) {
		/* not kept when there is no memory: missed, not wrong */
		return keep_add(&f->keep_pids, pid) == 0;
	}
	if (k) {
		k->gone = true;
		feed_filter_sweep(f);
	}
	return false;
}

bool feed_filter_keep(struct feed *f, const struct pc_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return f->filter_tids ?
			       kept(&f->keep_tids, (pid_t)rec->sample.tid) :
			       kept(&f->keep_pids, (pid_t)rec->sample.pid);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return kept(&f->keep_pids, (pid_t)rec->mmap.pid);
	case PERF_RECORD_COMM:
		return kept(&f->keep_pids, (pid_t)rec->comm.pid);
	case PERF_RECORD_FORK:
		return on_fork(f, rec);
	case PERF_RECORD_EXIT:
		return kept(&f->keep_pids, (pid_t)rec->task.pid);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* the task switching, from sample_id_all */
		return f->filter_tids ? kept(&f->keep_tids, (pid_t)rec->id.tid)
				      : kept(&f->keep_pids, (pid_t)rec->id.pid);
	default:
		return true;	/* LOST, THROTTLE: the counters' own */
	}
}

void feed_filter_exit(struct feed *f, pid_t pid, pid_t tid)
{
	struct feed_keep *k;

	if (!f->filter)
		return;
	/* with -t lists, the (few) processes stay: their other threads
	   may be watched still */
	if (f->filter_tids)
		k = keep_find(&f->keep_tids, tid);
	else
		k = pid == tid ? keep_find(&f->keep_pids, pid) : NULL;
	if (k)
		k->gone = true;
}

void feed_filter_sweep(struct feed *f)
{
	hashtab_remove_if(&f->keep_pids, drop_gone, NULL);
	hashtab_remove_if(&f->keep_tids, drop_gone, NULL);
}

void feed_filter_release(struct feed *f)
{
	hashtab_free_items(&f->keep_pids);
	hashtab_free_items(&f->keep_tids);
}
