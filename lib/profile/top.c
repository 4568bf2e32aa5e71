/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * top.c - kerneltop's model, the feeding side: interned strings, entries
 * with decaying counts, the baseline and the cumulative per-address counts
 * for annotation.  Reading views is top-rows.c.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/decay.h"
#include "profile/top-internal.h"

#define UNKNOWN "[unknown]"

/* One sampled address of (sym, dso), for annotation. */
struct top_addr_node {
	const char *sym, *dso;	/* interned */
	struct top_addr a;
};

static bool counts_zero(const uint64_t *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (c[i])
			return false;
	return true;
}

/* --- the model ----------------------------------------------------------- */

struct top *top_new(unsigned nevents)
{
	struct top *t;

	if (nevents == 0 || nevents > TOP_MAX_EVENTS) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->nevents = nevents;
	return t;
}

static void free_all(struct hashtab *h)
{
	size_t i = 0;
	void *item;

	while ((item = hashtab_next(h, &i)))
		free(item);
	hashtab_release(h);
}

void top_free(struct top *t)
{
	if (!t)
		return;
	free_all(&t->entries);
	free_all(&t->addr_tab);
	strpool_release(&t->strings);
	top_rows_release(t);
	free(t->addrs);
	free(t);
}

unsigned top_nevents(const struct top *t)
{
	return t->nevents;
}

size_t top_count(const struct top *t)
{
	return hashtab_count(&t->entries);
}

uint64_t top_total(const struct top *t, unsigned event)
{
	return event < t->nevents ? t->total[event] : 0;
}

/*
 * Entries are found by the caller's strings, so that a sample of a known
 * entry -- nearly every sample -- costs one lookup and no interning.  The
 * hash is of the strings' bytes (with their NULs, so "ab","c" differs
 * from "a","bc"), not of the interned pointers.
 */
static size_t entry_hash(const struct top_entry *k)
{
	size_t h = hash_bytes(k->sym, strlen(k->sym) + 1, 0);

	h = hash_bytes(k->dso, strlen(k->dso) + 1, h);
	h = hash_bytes(k->comm, strlen(k->comm) + 1, h);
	h = hash_bytes(k->srcline, strlen(k->srcline) + 1, h);
	h = hash_bytes(k->parent, strlen(k->parent) + 1, h);
	h = hash_bytes(k->trace, strlen(k->trace) + 1, h);
	h = hash_bytes(&k->pid, sizeof(k->pid), h);
	h = hash_bytes(&k->tid, sizeof(k->tid), h);
	h = hash_bytes(&k->cpu, sizeof(k->cpu), h);
	h = hash_bytes(&k->socket, sizeof(k->socket), h);
	return hash_bytes(&k->mode, sizeof(k->mode), h);
}

static bool entry_eq(const void *item, const void *key)
{
	const struct top_entry *a = item, *b = key;

	return a->pid == b->pid && a->tid == b->tid && a->mode == b->mode &&
	       a->cpu == b->cpu && a->socket == b->socket &&
	       !strcmp(a->sym, b->sym) && !strcmp(a->dso, b->dso) &&
	       !strcmp(a->comm, b->comm) && !strcmp(a->srcline, b->srcline) &&
	       !strcmp(a->parent, b->parent) && !strcmp(a->trace, b->trace);
}

/* The entry of key (the caller's strings), made with zero counts and
   interned strings if new; NULL with errno ENOMEM. */
static struct top_entry *entry_get(struct top *t, const struct top_entry *key)
{
	size_t h = entry_hash(key);
	struct top_entry *e = hashtab_find(&t->entries, h, entry_eq, key);
	const char *sym, *dso, *comm, *srcline, *parent, *trace;

	if (e)
		return e;
	sym = strpool_intern(&t->strings, key->sym);
	dso = strpool_intern(&t->strings, key->dso);
	comm = strpool_intern(&t->strings, key->comm);
	srcline = strpool_intern(&t->strings, key->srcline);
	parent = strpool_intern(&t->strings, key->parent);
	trace = strpool_intern(&t->strings, key->trace);
	if (!sym || !dso || !comm || !srcline || !parent || !trace)
		return NULL;
	e = calloc(1, sizeof(*e) + 3 * t->nevents * sizeof(e->count[0]));
	if (!e)
		return NULL;
	*e = *key;
	e->sym = sym;
	e->dso = dso;
	e->comm = comm;
	e->srcline = srcline;
	e->parent = parent;
	e->trace = trace;
	if (hashtab_add(&t->entries, h, e) != 0) {
		free(e);
		return NULL;
	}
	return e;
}

/* Annotation is keyed by interned pointers: they come from the entry. */
static size_t addr_hash(const char *sym, const char *dso, uint64_t addr)
{
	size_t h = hash_bytes(&sym, sizeof(sym), 0);

	h = hash_bytes(&dso, sizeof(dso), h);
	return hash_bytes(&addr, sizeof(addr), h);
}

static bool addr_eq(const void *item, const void *key)
{
	const struct top_addr_node *a = item, *b = key;

	return a->a.addr == b->a.addr && a->sym == b->sym && a->dso == b->dso;
}

/* The node of addr in (sym, dso), made (count 0) if new. */
static struct top_addr_node *addr_get(struct top *t, const char *sym,
				      const char *dso, uint64_t addr)
{
	struct top_addr_node key = { sym, dso, { addr, 0 } }, *a;
	size_t h = addr_hash(sym, dso, addr);

	a = hashtab_find(&t->addr_tab, h, addr_eq, &key);
	if (a)
		return a;
	a = malloc(sizeof(*a));
	if (!a)
		return NULL;
	*a = key;
	if (hashtab_add(&t->addr_tab, h, a) != 0) {
		free(a);
		return NULL;
	}
	return a;
}

int top_add(struct top *t, const struct top_sample *s)
{
	struct top_entry key = { 0 }, *e;
	struct top_addr_node *a;

	if (!t || !s || s->event >= t->nevents) {
		errno = EINVAL;
		return -1;
	}
	if (!s->weight)
		return 0;
	key.sym = s->sym ? s->sym : UNKNOWN;
	key.dso = s->dso ? s->dso : UNKNOWN;
	key.comm = s->comm ? s->comm : UNKNOWN;
	key.srcline = s->srcline ? s->srcline : "";
	key.parent = s->parent ? s->parent : "";
	key.trace = s->trace ? s->trace : "";
	key.pid = s->pid;
	key.tid = s->tid;
	key.cpu = s->cpu;
	key.socket = s->socket;
	key.mode = s->mode;
	key.cause = s->sym ? SYM_OK : s->cause ? s->cause : SYM_NO_SYMBOL;
	/*
	 * Find or make both records before counting, so a failure changes
	 * no count.  What a failure leaves made has all counts 0: readers
	 * skip it and the next top_age() drops the entry.
	 */
	e = entry_get(t, &key);
	if (!e)
		return -1;
	a = addr_get(t, e->sym, e->dso, s->addr);
	if (!a)
		return -1;
	e->count[s->event] = top_add_sat(e->count[s->event], s->weight);
	e->count[2 * t->nevents + s->event] =
		top_add_sat(e->count[2 * t->nevents + s->event], s->period);
	t->total[s->event] = top_add_sat(t->total[s->event], s->weight);
	a->a.count = top_add_sat(a->a.count, s->weight);
	return 0;
}

struct age_arg {
	struct top *t;
	bool zero;
};

/* top_age()'s work on one entry; true when it is dropped (and freed). */
static bool entry_age(void *item, void *arg)
{
	struct top_entry *e = item;
	struct age_arg *g = arg;
	unsigned n = g->t->nevents;

	for (unsigned i = 0; i < n; i++) {
		uint64_t *period = &e->count[2 * n + i];

		e->count[i] = g->zero ? 0 : decay_7_8(e->count[i]);
		*period = g->zero ? 0 : decay_7_8(*period);
		g->t->total[i] = top_add_sat(g->t->total[i], e->count[i]);
	}
	if (e->held || !counts_zero(e->count, n))
		return false;
	free(e);
	return true;
}

void top_age(struct top *t, bool zero)
{
	struct age_arg g = { t, zero };

	memset(t->total, 0, sizeof(t->total));
	hashtab_remove_if(&t->entries, entry_age, &g);
}

/* Drop (and free) an entry with nothing to show and nothing holding it. */
static bool entry_empty(void *item, void *arg)
{
	struct top_entry *e = item;
	const struct top *t = arg;

	if (e->held || !counts_zero(e->count, t->nevents))
		return false;
	free(e);
	return true;
}

int top_baseline_take(struct top *t)
{
	unsigned n = t->nevents;
	struct top_entry *e;
	size_t i = 0;

	while ((e = hashtab_next(&t->entries, &i))) {
		memcpy(e->count + n, e->count, n * sizeof(e->count[0]));
		e->held = !counts_zero(e->count, n);
	}
	memcpy(t->base_total, t->total, sizeof(t->total));
	t->baseline = true;
	/* What the old baseline alone kept goes, as at a drop. */
	hashtab_remove_if(&t->entries, entry_empty, t);
	return 0;
}

void top_baseline_drop(struct top *t)
{
	struct top_entry *e;
	size_t i = 0;

	/* The counts at the baseline are left: only a take reads them. */
	while ((e = hashtab_next(&t->entries, &i)))
		e->held = false;
	t->baseline = false;
	hashtab_remove_if(&t->entries, entry_empty, t);
}

bool top_baseline_active(const struct top *t)
{
	return t->baseline;
}

static int addr_cmp(const void *pa, const void *pb)
{
	const struct top_addr *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* A walk over every address ever sampled: for a view opened by hand, not
   for each sample. */
const struct top_addr *top_addrs(struct top *t, const char *sym,
				 const char *dso, size_t *n)
{
	const struct top_addr_node *a;
	size_t k = 0, i = 0;

	*n = 0;
	sym = top_intern_find(t, sym ? sym : UNKNOWN);
	dso = top_intern_find(t, dso ? dso : UNKNOWN);
	while (sym && dso && (a = hashtab_next(&t->addr_tab, &i))) {
		if (a->sym != sym || a->dso != dso || !a->a.count)
			continue;	/* count 0: left by a failed top_add() */
		if (ARRAY_GROW(t->addrs, k + 1, t->addrs_alloc) != 0)
			return NULL;
		t->addrs[k++] = a->a;
	}
	if (!k) {
		errno = ENOENT;
		return NULL;
	}
	qsort(t->addrs, k, sizeof(*t->addrs), addr_cmp);
	*n = k;
	return t->addrs;
}
