/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed-maps.c - the mappings of the processes that ran before the feed
 * opened (system-wide and user scopes), read from /proc in the
 * background a few lines at a time, those that are sampled first; and
 * their samples held until then.
 *
 * Their MMAP records were written before the counters existed: /proc is
 * all there is.  Read whole at the first sample, as lib/symbols does on a
 * miss, a process with 60,000 mappings held the drain, its frame and the
 * keys for as long; read here, each feed_background() call costs its
 * budget at most, however large the process.  A sample of a process not
 * read yet is held (copied) and handed over once its maps are in, so
 * that it is resolved, not shown as [unknown] in [unknown]: the feed owns
 * ring->sample, and only it can hold a sample back without the tool
 * knowing of maps.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/array.h"
#include "base/clock.h"
#include "profile/feed-internal.h"

/* The clock is looked at every this many lines of a maps file. */
#define LINES_EVERY 64

static size_t pid_hash(pid_t pid)
{
	return hash_u64((uint64_t)(unsigned)pid);
}

static bool proc_eq(const void *item, const void *key)
{
	return ((const struct feed_proc *)item)->pid == *(const pid_t *)key;
}

int feed_maps_add(struct feed *f, pid_t pid)
{
	struct feed_proc *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	p->pid = pid;
	if (hashtab_add(&f->procs, pid_hash(pid), p) != 0 ||
	    ARRAY_GROW(f->pending, f->npending + 1, f->pending_alloc) != 0) {
		free(p);
		return -1;
	}
	f->pending[f->npending++] = pid;
	f->maps_left++;
	return 0;
}

struct feed_proc *feed_maps_unread(struct feed *f, pid_t pid)
{
	struct feed_proc *p;

	if (!f->maps_left)
		return NULL;
	p = hashtab_find(&f->procs, pid_hash(pid), proc_eq, &pid);
	return p && !p->done ? p : NULL;
}

void feed_maps_want(struct feed *f, struct feed_proc *p)
{
	if (p->wanted || ARRAY_GROW(f->urgent, f->nurgent + 1,
				    f->urgent_alloc) != 0)
		return;		/* no room: read in its turn */
	p->wanted = true;
	f->urgent[f->nurgent++] = p->pid;
}

static void proc_done(struct feed *f, struct feed_proc *p)
{
	if (!p->done) {
		p->done = true;
		f->maps_left--;
		f->maps_gen++;
	}
}

/* The next process to read: a sampled one first, then the others. */
static struct feed_proc *next_proc(struct feed *f)
{
	struct feed_proc *p;
	pid_t pid;

	while (f->nurgent || f->npending) {
		pid = f->nurgent ? f->urgent[--f->nurgent]
				 : f->pending[--f->npending];
		p = hashtab_find(&f->procs, pid_hash(pid), proc_eq, &pid);
		if (p && !p->done)
			return p;
	}
	return NULL;
}

/*
 * Go on reading the current process's maps until EOF or end: true when
 * it is read whole (or gone).  Each code mapping goes to the symbols
 * session as plain data, as an MMAP record's would (what /proc says now
 * replaces what overlaps it).
 */
static bool read_some(struct feed *f, double end)
{
	struct sym_mapping m;
	unsigned n = 0;

	while (getline(&f->line, &f->line_cap, f->maps) > 0) {
		/* prot 0 ("---p") is no code; symbols_mmap() would take
		   it for a plain MMAP record's */
		if (symbols_parse_maps_line(f->line, &m) == 0 && m.prot &&
		    (m.prot & PROT_EXEC) &&
		    symbols_mmap(f->sym, f->reading->pid, &m) != 0 &&
		    errno == ENOMEM)
			f->nomem = true;	/* the next drain says so */
		if (++n % LINES_EVERY == 0 && clock_ms(CLOCK_MONOTONIC) >= end)
			return false;
	}
	return true;
}

/* While samples wait for maps, the reading takes this many budgets. */
#define HELD_BUDGETS 4

size_t feed_background(struct feed *f, double budget_ms)
{
	double end = clock_ms(CLOCK_MONOTONIC) +
		     budget_ms * (f->nheld ? HELD_BUDGETS : 1);
	char path[64];

	while (f->sym && clock_ms(CLOCK_MONOTONIC) < end) {
		if (!f->reading) {
			f->reading = next_proc(f);
			if (!f->reading)
				break;
			snprintf(path, sizeof(path), "/proc/%d/maps",
				 (int)f->reading->pid);
			f->maps = fopen(path, "re");
			if (!f->maps) {		/* it has ended meanwhile */
				proc_done(f, f->reading);
				f->reading = NULL;
				continue;
			}
		}
		if (!read_some(f, end))
			break;
		fclose(f->maps);
		f->maps = NULL;
		proc_done(f, f->reading);
		f->reading = NULL;
	}
	return f->maps_left;
}

void feed_maps_release(struct feed *f)
{
	if (f->maps)
		fclose(f->maps);
	free(f->line);
	hashtab_free_items(&f->procs);
	free(f->pending);
	free(f->urgent);
}
