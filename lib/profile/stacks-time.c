/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stacks-time.c - call chains aggregated, in the order they were taken:
 * the timeline of runs (see stacks.h), kept within STK_RUNS_MAX runs by
 * coarsening it into windows of time.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/stacks-internal.h"

void stacks_time_release(struct stacks *s)
{
	free(s->runs);
	free(s->runs_out);
	s->runs = s->runs_out = NULL;
	s->nruns = s->aruns = s->aruns_out = 0;
}

void stacks_time_drop(struct stacks *s)
{
	s->untimed = true;
	stacks_time_release(s);
}

/* The window of time t (0 without coarsening: every time its own). */
static uint64_t window_of(const struct stacks *s, uint64_t t)
{
	return s->window ? (t > s->time0 ? t - s->time0 : 0) / s->window : t;
}

static int cmp_window_stack(const void *a, const void *b, void *arg)
{
	const struct stk_run *x = a, *y = b;
	const struct stacks *s = arg;
	uint64_t wx = window_of(s, x->time), wy = window_of(s, y->time);

	if (wx != wy)
		return wx < wy ? -1 : 1;
	if (x->stack != y->stack)
		return (uintptr_t)x->stack < (uintptr_t)y->stack ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

static int cmp_time(const void *a, const void *b)
{
	const struct stk_run *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return ((uintptr_t)x->stack > (uintptr_t)y->stack) -
	       ((uintptr_t)x->stack < (uintptr_t)y->stack);
}

/*
 * Coarsen the timeline until it holds at most half its limit: windows
 * twice as long each round, each stack's runs in a window merged into
 * one at the time of the first.  When even one window for the whole
 * time leaves more (more distinct stacks than that), the limit grows:
 * the stacks themselves take more memory than their runs.
 */
static void coarsen(struct stacks *s)
{
	uint64_t last = s->time0, span;
	size_t i, k;

	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].time > last)
			last = s->runs[i].time;
	span = last - s->time0 + 1;
	if (!s->window)
		s->window = span / (s->runs_max / 4) + 1;
	for (;;) {
		qsort_r(s->runs, s->nruns, sizeof(*s->runs), cmp_window_stack,
			s);
		for (i = 0, k = 0; i < s->nruns; i++) {
			if (k && s->runs[k - 1].stack == s->runs[i].stack &&
			    window_of(s, s->runs[k - 1].time) ==
			    window_of(s, s->runs[i].time)) {
				s->runs[k - 1].count += s->runs[i].count;
				s->runs[k - 1].period += s->runs[i].period;
				continue;
			}
			s->runs[k++] = s->runs[i];
		}
		s->nruns = k;
		if (s->nruns <= s->runs_max / 2 || s->window >= span)
			break;
		s->window *= 2;
	}
	qsort(s->runs, s->nruns, sizeof(*s->runs), cmp_time);
	if (s->nruns > s->runs_max / 2)
		s->runs_max = 2 * s->nruns;
}

void stacks_time_note(struct stacks *s, const struct stk_stack *st,
		      uint64_t weight, uint64_t period, uint64_t time_ns)
{
	struct stk_run *r;

	if (s->untimed)
		return;
	if (!s->runs_max)
		s->runs_max = STK_RUNS_MAX;
	if (s->total == weight)
		s->time0 = time_ns;
	r = s->nruns ? &s->runs[s->nruns - 1] : NULL;
	/* the same stack again, in order (and in the same window): the
	   run goes on */
	if (r && r->stack == st && time_ns >= r->time &&
	    (!s->window || window_of(s, time_ns) == window_of(s, r->time))) {
		r->count += weight;
		r->period += period;
		return;
	}
	if (s->nruns >= s->runs_max)
		coarsen(s);
	if (ARRAY_GROW(s->runs, s->nruns + 1, s->aruns) != 0) {
		stacks_time_drop(s);	/* counts stay right; order is lost */
		return;
	}
	s->runs[s->nruns++] = (struct stk_run){ time_ns, st, weight, period };
}

const struct stk_run *stacks_timeline(struct stacks *s, size_t *n,
				      uint64_t *window_ns)
{
	size_t i, j, k;

	*n = 0;
	if (window_ns)
		*window_ns = s->window;
	if (s->untimed || !s->nruns)
		return NULL;
	if (ARRAY_GROW(s->runs_out, s->nruns, s->aruns_out) != 0)
		return NULL;
	/*
	 * The feed hands samples over in time order but for a few at the
	 * seams of its reads: an insertion sort, stable and linear on
	 * what is nearly sorted already.
	 */
	memcpy(s->runs_out, s->runs, s->nruns * sizeof(*s->runs));
	for (i = 1; i < s->nruns; i++) {
		struct stk_run r = s->runs_out[i];

		for (j = i; j > 0 && s->runs_out[j - 1].time > r.time; j--)
			s->runs_out[j] = s->runs_out[j - 1];
		s->runs_out[j] = r;
	}
	for (i = 0, k = 0; i < s->nruns; i++) {
		if (k && s->runs_out[k - 1].stack == s->runs_out[i].stack) {
			s->runs_out[k - 1].count += s->runs_out[i].count;
			s->runs_out[k - 1].period += s->runs_out[i].period;
			continue;
		}
		s->runs_out[k++] = s->runs_out[i];
	}
	*n = k;
	return s->runs_out;
}
