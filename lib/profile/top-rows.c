/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * top-rows.c - kerneltop's model, the reading side: a view's entries
 * grouped by its keys, with shares, weights and baseline deltas, in order.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/optsz.h"
#include "profile/rates.h"
#include "profile/top-internal.h"

/* The size rule is lib/base/optsz.h's: a smaller, older struct gets
   zeros for what it lacks. */
int top_view_get(struct top_view *v, const struct top_view *user,
		 unsigned nevents)
{
	memset(v, 0, sizeof(*v));
	if (optsz_copy(v, sizeof(*v), user) != 0)
		return -1;
	if (!v->keys)
		v->keys = TOP_KEY_SYM;
	if (v->filter && !*v->filter)
		v->filter = NULL;
	if ((v->keys & ~(unsigned)TOP_KEY_ALL) || v->event < -1 ||
	    (v->event >= 0 && (unsigned)v->event >= nevents) ||
	    (unsigned)v->order >= TOP_ORDER_MAX) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* Whether the comma-separated list holds name (NULL or "": every name
   does). */
static bool list_has(const char *list, const char *name)
{
	size_t len = strlen(name), n;

	if (!list || !*list)
		return true;
	for (;;) {
		n = strcspn(list, ",");
		if (n == len && !memcmp(list, name, len))
			return true;
		if (!list[n])
			return false;
		list += n + 1;
	}
}

/* --dsos names a DSO by its path or, as perf's short name, its file
   name ("libc.so.6", "[kernel.kallsyms]"). */
static bool dso_listed(const char *list, const char *dso)
{
	const char *base = strrchr(dso, '/');

	return list_has(list, dso) || (base && list_has(list, base + 1));
}

bool top_view_shows(const struct top_view *v, const char *sym,
		    const char *dso, char mode, pid_t tid)
{
	return (!v->dso || strcmp(dso, v->dso) == 0) &&
	       (!v->tid || tid == v->tid) &&
	       !(v->hide_kernel && mode == 'k') &&
	       !(v->hide_user && mode == '.') &&
	       (!v->filter || strstr(sym, v->filter)) &&
	       dso_listed(v->dsos, dso) && list_has(v->symbols, sym);
}

/* Per sample: no copy of the view (its size is the caller's sizeof). */
bool top_view_passes(const struct top_view *v, const struct top_sample *s)
{
	return !v || (list_has(v->comms, s->comm ? s->comm : "[unknown]") &&
		      dso_listed(v->dsos, s->dso ? s->dso : "[unknown]") &&
		      list_has(v->symbols, s->sym ? s->sym : "[unknown]"));
}

/* Whether v shows e. */
static bool entry_shown(const struct top_entry *e, const struct top_view *v,
			unsigned nevents)
{
	unsigned i;

	if (!top_view_shows(v, e->sym, e->dso, e->mode, e->tid) ||
	    !list_has(v->comms, e->comm))
		return false;
	for (i = 0; i < nevents && !e->count[i]; i++)
		;
	/* All 0 and not held: only a failed top_add() leaves that. */
	return i < nevents || e->held;
}

/* e's group under keys, as a row with no counts yet. */
static void row_key(struct top_row *r, const struct top_entry *e,
		    unsigned keys)
{
	memset(r, 0, sizeof(*r));
	if (keys & TOP_KEY_SYM) {
		r->sym = e->sym;
		r->dso = e->dso;
		r->mode = e->mode;
		r->cause = e->cause;
	}
	if (keys & TOP_KEY_DSO)
		r->dso = e->dso;
	if (keys & TOP_KEY_COMM)
		r->comm = e->comm;
	if (keys & TOP_KEY_PID)
		r->pid = e->pid;
	if (keys & TOP_KEY_TID)
		r->tid = e->tid;
	if (keys & TOP_KEY_CPU)
		r->cpu = e->cpu;
	if (keys & TOP_KEY_SOCKET)
		r->socket = e->socket;
	if (keys & TOP_KEY_SRCLINE)
		r->srcline = e->srcline;
	if (keys & TOP_KEY_PARENT)
		r->parent = e->parent;
	if (keys & TOP_KEY_TRACE)
		r->trace = e->trace;
}

/* Groups are keyed by interned pointers: their addresses are their
   identity. */
static size_t row_hash(const struct top_row *r)
{
	size_t h = hash_bytes(&r->sym, sizeof(r->sym), 0);

	h = hash_bytes(&r->dso, sizeof(r->dso), h);
	h = hash_bytes(&r->comm, sizeof(r->comm), h);
	h = hash_bytes(&r->srcline, sizeof(r->srcline), h);
	h = hash_bytes(&r->parent, sizeof(r->parent), h);
	h = hash_bytes(&r->trace, sizeof(r->trace), h);
	h = hash_bytes(&r->pid, sizeof(r->pid), h);
	h = hash_bytes(&r->tid, sizeof(r->tid), h);
	h = hash_bytes(&r->cpu, sizeof(r->cpu), h);
	h = hash_bytes(&r->socket, sizeof(r->socket), h);
	return hash_bytes(&r->mode, sizeof(r->mode), h);
}

static bool row_eq(const void *item, const void *key)
{
	const struct top_row *a = item, *b = key;

	return a->sym == b->sym && a->dso == b->dso && a->comm == b->comm &&
	       a->pid == b->pid && a->tid == b->tid && a->mode == b->mode &&
	       a->cpu == b->cpu && a->socket == b->socket &&
	       a->srcline == b->srcline && a->parent == b->parent &&
	       a->trace == b->trace;
}

double top_percent(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* The 2009 kerneltop's sym_weight: count[0] * ... * count[n-2] /
   (count[n-1] + 1), in double as there; count[0] for one event. */
static double row_weight(const uint64_t *count, unsigned n)
{
	double w = (double)count[0];
	unsigned i;

	if (n == 1)
		return w;
	for (i = 1; i < n - 1; i++)
		w *= (double)count[i];
	return w / ((double)count[n - 1] + 1.0);
}

/* --- order --------------------------------------------------------------- */

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	return strcmp(a, b);
}

static int cmp_num(long long a, long long b)
{
	return (a > b) - (a < b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int by_sym(const struct top_row *a, const struct top_row *b)
{
	return cmp_str(a->sym, b->sym);
}

static int by_dso(const struct top_row *a, const struct top_row *b)
{
	return cmp_str(a->dso, b->dso);
}

static int by_comm(const struct top_row *a, const struct top_row *b)
{
	return cmp_str(a->comm, b->comm);
}

static int by_pid(const struct top_row *a, const struct top_row *b)
{
	return cmp_num(a->pid, b->pid);
}

static int by_tid(const struct top_row *a, const struct top_row *b)
{
	return cmp_num(a->tid, b->tid);
}

/* The field each order sorts by first; TOP_BY_SHARE has none. */
static int (*const order_field[TOP_ORDER_MAX])(const struct top_row *,
					       const struct top_row *) = {
	[TOP_BY_SYM] = by_sym,
	[TOP_BY_DSO] = by_dso,
	[TOP_BY_COMM] = by_comm,
	[TOP_BY_PID] = by_pid,
	[TOP_BY_TID] = by_tid,
};

int top_order_cmp(enum top_order o, const struct top_row *a,
		  const struct top_row *b)
{
	return order_field[o] ? order_field[o](a, b) : 0;
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct top_row *a = pa, *b = pb;
	const struct top_view *v = arg;
	int c = top_order_cmp(v->order, a, b);

	/* Then what the view shows, descending: exact counts, not shares. */
	if (!c && v->event >= 0)
		c = cmp_u64(b->count[v->event], a->count[v->event]);
	if (!c && v->event < 0)
		c = (a->weight < b->weight) - (a->weight > b->weight);
	if (!c)
		c = by_sym(a, b);
	if (!c)
		c = by_dso(a, b);
	if (!c)
		c = cmp_num(a->mode, b->mode);
	if (!c)
		c = by_comm(a, b);
	if (!c)
		c = by_pid(a, b);
	if (!c)
		c = by_tid(a, b);
	if (!c)
		c = cmp_num(a->cpu, b->cpu);
	if (!c)
		c = cmp_num(a->socket, b->socket);
	if (!c)
		c = cmp_str(a->srcline, b->srcline);
	if (!c)
		c = cmp_str(a->parent, b->parent);
	return c ? c : cmp_str(a->trace, b->trace);
}

/* --- rows ---------------------------------------------------------------- */

static bool drop_any(void *item, void *arg)
{
	(void)item;
	(void)arg;
	return true;
}

void top_rows_release(struct top *t)
{
	hashtab_release(&t->groups);
	free(t->rows);
	free(t->sums);
	t->rows = NULL;
	t->sums = NULL;
	t->rows_alloc = t->sums_alloc = 0;
}

/*
 * Sum the entries v shows into t->rows by group, and their counts (now,
 * at the baseline) into shown[2 * nevents]; the number of rows, or -1
 * with errno ENOMEM.
 */
static ssize_t rows_group(struct top *t, const struct top_view *v,
			  uint64_t *shown)
{
	unsigned ne = t->nevents, i;
	size_t stride = 3 * (size_t)ne, k = 0, it = 0;
	struct top_entry *e;

	memset(shown, 0, 2 * ne * sizeof(*shown));
	/* Keep the slots: the next view groups about as many rows. */
	hashtab_remove_if(&t->groups, drop_any, NULL);
	while ((e = hashtab_next(&t->entries, &it))) {
		struct top_row key, *r;
		uint64_t *sum;
		size_t h;

		if (!entry_shown(e, v, ne))
			continue;
		row_key(&key, e, v->keys);
		h = row_hash(&key);
		r = hashtab_find(&t->groups, h, row_eq, &key);
		if (!r) {
			/* rows and sums hold one row per entry: never moved
			   during the walk. */
			r = &t->rows[k];
			*r = key;
			r->count = &t->sums[k * stride];
			r->period = r->count + 2 * ne;
			memset(&t->sums[k * stride], 0,
			       stride * sizeof(*t->sums));
			if (hashtab_add(&t->groups, h, r) != 0)
				return -1;
			k++;
		}
		sum = &t->sums[(size_t)(r - t->rows) * stride];
		for (i = 0; i < stride; i++)
			sum[i] = top_add_sat(sum[i], e->count[i]);
		for (i = 0; i < 2 * ne; i++)
			shown[i] = top_add_sat(shown[i], e->count[i]);
	}
	return (ssize_t)k;
}

const struct top_row *top_rows(struct top *t, const struct top_view *view,
			       size_t *n)
{
	size_t ne = hashtab_count(&t->entries), k, i, j;
	unsigned nev = t->nevents;
	size_t stride = 3 * (size_t)nev;
	uint64_t shown[2 * TOP_MAX_EVENTS];
	const uint64_t *total = t->total, *base_total = t->base_total;
	struct top_view v;
	unsigned ev;
	ssize_t got;

	*n = 0;
	if (top_view_get(&v, view, nev) != 0)
		return NULL;
	/* ne * stride cannot overflow: each entry holds 3 * nev counts. */
	if (ARRAY_GROW(t->rows, ne ? ne : 1, t->rows_alloc) != 0 ||
	    ARRAY_GROW(t->sums, ne * stride, t->sums_alloc) != 0)
		return NULL;
	got = rows_group(t, &v, shown);
	if (got < 0)
		return NULL;
	k = (size_t)got;
	ev = v.event < 0 ? 0 : (unsigned)v.event;
	if (v.relative) {
		total = shown;
		base_total = shown + nev;
	}
	for (i = j = 0; i < k; i++) {
		struct top_row *r = &t->rows[i];

		r->share = top_percent(r->count[ev], total[ev]);
		if (r->share < v.percent_limit ||
		    (v.count_filter && r->count[ev] <= v.count_filter))
			continue;
		r->weight = row_weight(r->count, nev);
		r->has_delta = t->baseline;
		if (t->baseline)
			r->delta = r->share - top_percent(r->count[nev + ev],
						      base_total[ev]);
		t->rows[j++] = *r;
	}
	qsort_r(t->rows, j, sizeof(*t->rows), row_cmp, &v);
	if (v.max_rows && j > v.max_rows)
		j = v.max_rows;
	*n = j;
	return t->rows;
}

struct top_row *top_rows_dup(const struct top_row *rows, size_t n,
			     unsigned nevents)
{
	size_t per = 2 * (size_t)nevents;	/* counts, then periods */
	size_t nest = n ? rows[0].nrates : 0, row, i;
	struct rates_est *est;
	struct top_row *copy;
	uint64_t *counts;

	/* every row of one table has as many rates (profile_rows()) */
	row = sizeof(*copy) + per * sizeof(*counts) + nest * sizeof(*est);
	if (n > SIZE_MAX / row) {
		errno = ENOMEM;
		return NULL;
	}
	copy = malloc(n ? n * row : 1);
	if (!copy)
		return NULL;
	/* the counts after the rows, the rates after them: a row's size
	   and a count's keep each aligned */
	counts = (uint64_t *)(copy + n);
	est = (struct rates_est *)(counts + n * per);
	for (i = 0; i < n; i++) {
		copy[i] = rows[i];
		memcpy(&counts[i * per], rows[i].count,
		       nevents * sizeof(*counts));
		memcpy(&counts[i * per + nevents], rows[i].period,
		       nevents * sizeof(*counts));
		copy[i].count = &counts[i * per];
		copy[i].period = &counts[i * per + nevents];
		if (nest && rows[i].rates) {
			memcpy(&est[i * nest], rows[i].rates,
			       nest * sizeof(*est));
			copy[i].rates = &est[i * nest];
		}
	}
	return copy;
}
