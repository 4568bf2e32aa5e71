/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stacks.c - call chains aggregated, the counting side: functions and
 * frames interned, distinct stacks counted (see stacks.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/decay.h"
#include "profile/stacks-internal.h"

/* Ids live in the hash tables as id + 1, so that id 0 is not NULL. */
#define ID_ITEM(id) ((void *)(uintptr_t)((id) + 1))
#define ITEM_ID(it) ((uint32_t)((uintptr_t)(it) - 1))

struct stacks *stacks_new(void)
{
	return calloc(1, sizeof(struct stacks));
}

void stacks_free(struct stacks *s)
{
	if (!s)
		return;
	hashtab_free_items(&s->stacks);
	hashtab_release(&s->func_idx);
	hashtab_release(&s->frame_idx);
	strpool_release(&s->strings);
	stacks_tree_release(s);
	stacks_time_release(s);
	free(s->func);
	free(s->frame);
	free(s->ids);
	free(s->sorted);
	free(s);
}

/* --- interning ------------------------------------------------------------- */

struct func_key {
	const struct stacks *s;
	struct stk_func f;	/* name, dso interned */
};

static bool func_eq(const void *item, const void *key)
{
	const struct func_key *k = key;
	const struct stk_func *f = &k->s->func[ITEM_ID(item)];

	return f->name == k->f.name && f->dso == k->f.dso &&
	       f->mode == k->f.mode;
}

static size_t func_hash(const struct stk_func *f)
{
	size_t h = hash_u64((uint64_t)(uintptr_t)f->name);

	h = hash_bytes(&f->dso, sizeof(f->dso), h);
	return hash_bytes(&f->mode, 1, h);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/*
 * The function named name (interned) of fr's mode and DSO, made on first
 * sight with file and row (STK_NONE: itself); STK_NONE on ENOMEM.
 */
static uint32_t func_intern(struct stacks *s,
			    const struct stk_sample_frame *fr, const char *name,
			    const char *file, uint32_t row)
{
	struct func_key k = { s, { .mode = fr->mode, .name = name } };
	void *it;
	size_t h;

	k.f.dso = strpool_intern(&s->strings, fr->dso);
	if (!k.f.dso || !k.f.name)
		return STK_NONE;
	h = func_hash(&k.f);
	it = hashtab_find(&s->func_idx, h, func_eq, &k);
	if (it)
		return ITEM_ID(it);
	if (s->nfunc >= STK_NONE ||
	    ARRAY_GROW(s->func, s->nfunc + 1, s->afunc) != 0)
		return STK_NONE;
	k.f.resolved = fr->sym != NULL;
	k.f.cause = fr->sym ? SYM_OK : fr->cause ? fr->cause : SYM_NO_SYMBOL;
	k.f.jit = strcmp(fr->dso, "[jit]") == 0;
	k.f.file = file ? strpool_intern(&s->strings, file) : NULL;
	k.f.row = row == STK_NONE ? (uint32_t)s->nfunc : row;
	s->func[s->nfunc] = k.f;
	if (hashtab_add(&s->func_idx, h, ID_ITEM(s->nfunc)) != 0)
		return STK_NONE;
	return (uint32_t)s->nfunc++;
}

/*
 * The function of sample frame fr; STK_NONE on ENOMEM.  An unresolved
 * place is a function of its own, "file+0xOFF", whose row is its DSO's
 * "[unknown]" (made with it).
 */
static uint32_t func_of(struct stacks *s, const struct stk_sample_frame *fr)
{
	char name[512];
	uint32_t row;

	if (fr->sym)
		return func_intern(s, fr, strpool_intern(&s->strings, fr->sym),
				   fr->file, STK_NONE);
	row = func_intern(s, fr, strpool_intern(&s->strings, "[unknown]"),
			  NULL, STK_NONE);
	if (row == STK_NONE)
		return STK_NONE;
	snprintf(name, sizeof(name), "%s+0x%" PRIx64, base_name(fr->dso),
		 fr->dso_off);
	return func_intern(s, fr, strpool_intern(&s->strings, name), fr->file,
			   row);
}

struct frame_key {
	const struct stacks *s;
	struct stk_frame f;	/* func, file interned, line, dso_off of an
				   unresolved frame (else 0), inlined */
};

static bool frame_eq(const void *item, const void *key)
{
	const struct frame_key *k = key;
	const struct stk_frame *f = &k->s->frame[ITEM_ID(item)];

	return f->func == k->f.func && f->file == k->f.file &&
	       f->line == k->f.line && f->inlined == k->f.inlined &&
	       (k->s->func[f->func].resolved || f->dso_off == k->f.dso_off);
}

/*
 * The frame of fr: resolved frames are one per source line (addresses of
 * one line are one place to a reader, and keep the stacks few); an
 * unresolved frame is its offset.  STK_NONE on ENOMEM.
 */
static uint32_t frame_of(struct stacks *s, const struct stk_sample_frame *fr)
{
	struct frame_key k = { s, { .line = fr->line, .inlined = fr->inlined } };
	void *it;
	size_t h;

	k.f.func = func_of(s, fr);
	if (k.f.func == STK_NONE)
		return STK_NONE;
	if (fr->file && !(k.f.file = strpool_intern(&s->strings, fr->file)))
		return STK_NONE;
	k.f.dso_off = fr->sym ? 0 : fr->dso_off;
	h = hash_bytes(&k.f.file, sizeof(k.f.file), hash_u64(k.f.func));
	h = hash_bytes(&k.f.line, sizeof(k.f.line), h);
	h = hash_bytes(&k.f.dso_off, sizeof(k.f.dso_off), h);
	h = hash_bytes(&k.f.inlined, sizeof(k.f.inlined), h);
	it = hashtab_find(&s->frame_idx, h, frame_eq, &k);
	if (it)
		return ITEM_ID(it);
	if (s->nframe >= STK_NONE ||
	    ARRAY_GROW(s->frame, s->nframe + 1, s->aframe) != 0)
		return STK_NONE;
	k.f.ip = fr->ip;
	k.f.dso_off = fr->dso_off;
	k.f.cause = fr->cause;
	s->frame[s->nframe] = k.f;
	if (hashtab_add(&s->frame_idx, h, ID_ITEM(s->nframe)) != 0)
		return STK_NONE;
	return (uint32_t)s->nframe++;
}

/* --- stacks ------------------------------------------------------------------ */

struct stack_key {
	const uint32_t *ids;
	uint32_t depth;
};

static bool stack_eq(const void *item, const void *key)
{
	const struct stk_stack *st = item;
	const struct stack_key *k = key;

	return st->depth == k->depth &&
	       memcmp(st->frame, k->ids, k->depth * sizeof(*k->ids)) == 0;
}

/* Count a sample of frames[0..n); the stack it went to, or NULL with
   errno ENOMEM. */
/* A stack's bytes up to its values (after the frames, 8-aligned). */
static size_t stack_size(uint32_t depth)
{
	return (sizeof(struct stk_stack) + depth * sizeof(uint32_t) + 7) &
	       ~(size_t)7;
}

static uint64_t *stack_values(const struct stacks *s,
			      const struct stk_stack *st)
{
	return s->nvalues ? (uint64_t *)((char *)st + stack_size(st->depth))
			  : NULL;
}

int stacks_values_set(struct stacks *s, unsigned nvalues)
{
	if (nvalues > STK_MAX_VALUES || hashtab_count(&s->stacks)) {
		errno = EINVAL;
		return -1;
	}
	s->nvalues = nvalues;
	return 0;
}

unsigned stacks_nvalues(const struct stacks *s)
{
	return s->nvalues;
}

const uint64_t *stacks_stack_values(const struct stacks *s,
				    const struct stk_stack *st)
{
	return stack_values(s, st);
}

static struct stk_stack *stack_add(struct stacks *s,
				   const struct stk_sample_frame *frames,
				   unsigned n, uint64_t weight, uint64_t period)
{
	struct stack_key k = { NULL, n };
	struct stk_stack *st;
	unsigned i;
	size_t h;

	if (ARRAY_GROW(s->ids, n ? n : 1, s->aids) != 0)
		return NULL;
	for (i = 0; i < n; i++) {
		s->ids[i] = frame_of(s, &frames[i]);
		if (s->ids[i] == STK_NONE) {
			errno = ENOMEM;
			return NULL;
		}
	}
	k.ids = s->ids;
	h = hash_bytes(s->ids, n * sizeof(*s->ids), 0);
	st = hashtab_find(&s->stacks, h, stack_eq, &k);
	if (!st) {
		st = calloc(1, stack_size(n) + s->nvalues * sizeof(uint64_t));
		if (!st)
			return NULL;
		st->depth = n;
		memcpy(st->frame, s->ids, n * sizeof(*s->ids));
		if (hashtab_add(&s->stacks, h, st) != 0) {
			free(st);
			return NULL;
		}
	}
	st->count += weight;
	st->period += period;
	s->total += weight;
	s->period += period;
	return st;
}

int stacks_add(struct stacks *s, const struct stk_sample_frame *frames,
	       unsigned n, uint64_t period)
{
	if (!stack_add(s, frames, n, 1, period))
		return -1;
	stacks_time_drop(s);	/* a sample the timeline cannot place */
	return 0;
}

int stacks_add_at(struct stacks *s, const struct stk_sample_frame *frames,
		  unsigned n, uint64_t period, uint64_t time_ns)
{
	const struct stk_stack *st = stack_add(s, frames, n, 1, period);

	if (!st)
		return -1;
	stacks_time_note(s, st, 1, period, time_ns);
	return 0;
}

int stacks_add_weight(struct stacks *s, const struct stk_sample_frame *frames,
		      unsigned n, uint64_t weight, uint64_t period,
		      uint64_t time_ns)
{
	const struct stk_stack *st;

	if (!weight)
		return 0;
	st = stack_add(s, frames, n, weight, period);
	if (!st)
		return -1;
	stacks_time_note(s, st, weight, period, time_ns);
	return 0;
}

int stacks_add_values(struct stacks *s, const struct stk_sample_frame *frames,
		      unsigned n, uint64_t period, uint64_t time_ns,
		      const uint64_t *values)
{
	struct stk_stack *st = stack_add(s, frames, n, 1, period);
	uint64_t *v;

	if (!st)
		return -1;
	v = stack_values(s, st);
	for (unsigned i = 0; values && i < s->nvalues; i++)
		v[i] += values[i];
	stacks_time_note(s, st, 1, period, time_ns);
	return 0;
}

struct age_arg {
	struct stacks *s;
	bool zero;
	uint64_t total, period;
};

static bool age_one(void *item, void *arg)
{
	struct stk_stack *st = item;
	struct age_arg *a = arg;

	st->count = a->zero ? 0 : decay_7_8(st->count);
	st->period = a->zero ? 0 : decay_7_8(st->period);
	for (unsigned i = 0; i < a->s->nvalues; i++) {
		uint64_t *v = stack_values(a->s, st);

		v[i] = a->zero ? 0 : decay_7_8(v[i]);
	}
	if (!st->count) {
		free(st);
		return true;
	}
	a->total += st->count;
	a->period += st->period;
	return false;
}

void stacks_age(struct stacks *s, bool zero)
{
	struct age_arg a = { s, zero, 0, 0 };

	stacks_time_drop(s);
	hashtab_remove_if(&s->stacks, age_one, &a);
	s->total = a.total;
	s->period = a.period;
}

uint64_t stacks_total(const struct stacks *s)
{
	return s->total;
}

uint64_t stacks_period(const struct stacks *s)
{
	return s->period;
}

size_t stacks_count(const struct stacks *s)
{
	return hashtab_count(&s->stacks);
}

size_t stacks_nfuncs(const struct stacks *s)
{
	return s->nfunc;
}

size_t stacks_nframes(const struct stacks *s)
{
	return s->nframe;
}

const struct stk_func *stacks_func(const struct stacks *s, uint32_t id)
{
	return id < s->nfunc ? &s->func[id] : NULL;
}

const struct stk_frame *stacks_frame(const struct stacks *s, uint32_t id)
{
	return id < s->nframe ? &s->frame[id] : NULL;
}

uint32_t stacks_func_find(const struct stacks *s, const char *name,
			  const char *dso)
{
	size_t i;

	for (i = 0; i < s->nfunc; i++)
		if (strcmp(s->func[i].name, name) == 0 &&
		    (!dso || strcmp(s->func[i].dso, dso) == 0))
			return (uint32_t)i;
	return STK_NONE;
}

static int cmp_stack(const void *a, const void *b)
{
	const struct stk_stack *x = *(const struct stk_stack *const *)a;
	const struct stk_stack *y = *(const struct stk_stack *const *)b;
	uint32_t i;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	for (i = 0; i < x->depth && i < y->depth; i++)
		if (x->frame[i] != y->frame[i])
			return x->frame[i] < y->frame[i] ? -1 : 1;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

const struct stk_stack *const *stacks_sorted(struct stacks *s, size_t *n)
{
	const struct stk_stack *st;
	size_t i, k = 0;

	*n = 0;
	if (ARRAY_GROW(s->sorted, stacks_count(s) + 1, s->asorted) != 0)
		return NULL;
	STACKS_FOR_EACH(s, i, st)
		s->sorted[k++] = st;
	qsort(s->sorted, k, sizeof(*s->sorted), cmp_stack);
	*n = k;
	return s->sorted;
}
