/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile.c - one measure's models, fed once, read as rows (profile.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"

struct profile {
	struct top *top;
	struct stacks *chains, *chains_all;
	bool weighted;
	struct rates *rates;		/* NULL without metrics */
	struct fnthreads *threads;	/* NULL unless asked for */
	struct rates_metric metrics[PROFILE_MAX_METRICS];
	unsigned nmetrics;
	struct top_view lists;		/* the chains' comms, dsos, symbols */
	struct top_row *rows;		/* profile_rows()'s, with rates */
	size_t arows;
	struct rates_est *est;		/* their rates, nmetrics a row */
	size_t aest;
};

struct profile *profile_new(const struct profile_config *c)
{
	struct profile *p;

	if (!c || c->nmetrics > PROFILE_MAX_METRICS ||
	    c->nmembers > RATES_MAX_MEMBERS ||
	    (c->nmetrics && !c->nmembers)) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->weighted = c->weighted;
	p->nmetrics = c->nmetrics;
	if (c->nmetrics)
		memcpy(p->metrics, c->metrics, c->nmetrics * sizeof(*p->metrics));
	p->lists = c->lists ? *c->lists : TOP_VIEW();
	p->top = top_new(c->nevents);
	if (!p->top ||
	    (c->chains && !(p->chains = stacks_new())) ||
	    (c->chains_all && !(p->chains_all = stacks_new())) ||
	    (p->chains_all && c->nmembers &&
	     stacks_values_set(p->chains_all, c->nmembers) != 0) ||
	    (c->nmetrics && !(p->rates = rates_new(c->nmembers))) ||
	    (c->threads && !(p->threads = fnthreads_new()))) {
		int e = errno;

		profile_free(p);
		errno = e;
		return NULL;
	}
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	top_free(p->top);
	stacks_free(p->chains);
	stacks_free(p->chains_all);
	rates_free(p->rates);
	fnthreads_free(p->threads);
	free(p->rows);
	free(p->est);
	free(p);
}

/* s's chain into the chains of p: samples of a period, or weights. */
static int chains_add(struct profile *p, const struct profile_sample *s)
{
	const struct top_sample *t = &s->top;

	if (p->weighted)
		return (p->chains &&
			stacks_add_weight(p->chains, s->frames, s->nframes,
					  t->weight, t->weight, s->time) != 0) ||
		       (p->chains_all &&
			stacks_add_weight(p->chains_all, s->frames, s->nframes,
					  t->weight, t->weight, s->time) != 0)
		       ? -1 : 0;
	return (p->chains &&
		stacks_add(p->chains, s->frames, s->nframes, t->period) != 0) ||
	       (p->chains_all &&
		stacks_add_values(p->chains_all, s->frames, s->nframes,
				  t->period, s->time, s->deltas) != 0)
	       ? -1 : 0;
}

int profile_add(struct profile *p, const struct profile_sample *s)
{
	if (!p || !s) {
		errno = EINVAL;
		return -1;
	}
	if (top_add(p->top, &s->top) != 0)
		return -1;
	/* only an interval that began and ended in the function: a delta
	   across a change of function would leak one's events into the
	   other.  The leader's count over it, not its nominal period: the
	   same interval as the members' deltas, periods missed included */
	if (p->rates && s->deltas && s->same_fn &&
	    rates_add(p->rates, &(struct rates_sample){
			.sym = s->top.sym, .dso = s->top.dso,
			.period = s->lead_delta, .deltas = s->deltas }) != 0)
		return -1;
	if (p->threads && s->top.weight &&
	    fnthreads_add(p->threads, s->top.sym, s->top.dso,
			  s->top.tid) != 0)
		return -1;
	/* the chains of the first event: of several, whose would add up?
	   Only those the lists pass (the table filters its own rows,
	   keeping the whole total) */
	if (s->top.event != 0 || !top_view_passes(&p->lists, &s->top))
		return 0;
	return chains_add(p, s) != 0 ? -1 : 1;
}

void profile_age(struct profile *p, bool zero)
{
	top_age(p->top, zero);
	if (p->chains)
		stacks_age(p->chains, zero);
}

/* Room for n rows' rates; 0 or -1 with errno ENOMEM. */
static int est_reserve(struct profile *p, size_t n)
{
	size_t want = n * p->nmetrics;
	struct rates_est *e;

	if (want <= p->aest)
		return 0;
	if (n > SIZE_MAX / sizeof(*e) / (p->nmetrics ? p->nmetrics : 1)) {
		errno = ENOMEM;
		return -1;
	}
	e = realloc(p->est, want * sizeof(*e));
	if (!e)
		return -1;
	p->est = e;
	p->aest = want;
	return 0;
}

const struct top_row *profile_rows(struct profile *p,
				   const struct top_view *v, bool children,
				   size_t *n)
{
	const struct top_row *rows;
	size_t i, k;

	*n = 0;
	if (children && !p->chains) {
		errno = EINVAL;
		return NULL;
	}
	rows = children ? top_rows_chains(p->top, p->chains, v, n)
			: top_rows(p->top, v, n);
	if (!rows || (!p->nmetrics && !p->threads))
		return rows;
	/* the rows are the model's: a copy of them to carry the figures */
	if (*n > p->arows) {
		struct top_row *r = reallocarray(p->rows, *n, sizeof(*r));

		if (!r)
			goto nomem;
		p->rows = r;
		p->arows = *n;
	}
	if (est_reserve(p, *n) != 0)
		goto nomem;
	for (i = 0; i < *n; i++) {
		struct rates_est *e = p->nmetrics ? &p->est[i * p->nmetrics]
						  : NULL;

		p->rows[i] = rows[i];
		for (k = 0; k < p->nmetrics; k++)
			if (rates_get(p->rates, rows[i].sym, rows[i].dso,
				      &p->metrics[k], &e[k]) != 0)
				e[k] = (struct rates_est){ .valid = false };
		p->rows[i].rates = e;
		p->rows[i].nrates = p->nmetrics;
		if (p->threads && rows[i].sym)
			p->rows[i].threads = fnthreads_count(p->threads,
							     rows[i].sym,
							     rows[i].dso);
	}
	return p->rows ? p->rows : rows;
nomem:
	*n = 0;
	errno = ENOMEM;
	return NULL;
}

struct top *profile_top(const struct profile *p)
{
	return p->top;
}

struct stacks *profile_chains(const struct profile *p)
{
	return p->chains;
}

struct stacks *profile_chains_all(const struct profile *p)
{
	return p->chains_all;
}

unsigned profile_nmetrics(const struct profile *p)
{
	return p->nmetrics;
}

const struct rates_metric *profile_metric(const struct profile *p,
					  unsigned i)
{
	return i < p->nmetrics ? &p->metrics[i] : NULL;
}
