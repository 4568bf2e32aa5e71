/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ticks.c - counter deltas between internal reads, into muxci models. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"
#include "stat.h"
#include "ticks.h"

void ticks_init(struct ticks *tk, size_t nev, size_t nslots,
		enum aggr_mode aggr, const size_t *unit_slot)
{
	memset(tk, 0, sizeof(*tk));
	tk->nev = nev;
	tk->nslots = nslots;
	tk->aggr = aggr;
	tk->unit_slot = unit_slot;
	tk->all = xcalloc(nslots, sizeof(*tk->all));
	tk->ival = xcalloc(nslots, sizeof(*tk->ival));
	for (size_t s = 0; s < nslots; s++) {
		muxci_init(&tk->all[s], nev);
		muxci_init(&tk->ival[s], nev);
	}
	tk->c = xcalloc(nev + 1, sizeof(*tk->c));
	tk->r = xcalloc(nev + 1, sizeof(*tk->r));
	tk->e = xcalloc(nev + 1, sizeof(*tk->e));
}

void ticks_release(struct ticks *tk)
{
	for (size_t s = 0; s < tk->nslots; s++) {
		muxci_release(&tk->all[s]);
		muxci_release(&tk->ival[s]);
	}
	free(tk->all);
	free(tk->ival);
	free(tk->prev);
	free(tk->c);
	free(tk->r);
	free(tk->e);
	memset(tk, 0, sizeof(*tk));
}

bool ticks_wanted(const struct cset *cs, const struct config *cfg)
{
	for (size_t e = 0; e < cs->nev; e++) {
		uint32_t type = cfg->events.ev[e].attr.type;

		if (type == PERF_TYPE_SOFTWARE ||
		    type == PERF_TYPE_TRACEPOINT || type == PC_TYPE_TOOL)
			continue;
		for (size_t u = 0; u < cs->nunits; u++)
			if (pc_countset_counter(cs->set, e, u))
				return true;
	}
	return false;
}

void ticks_run_start(struct ticks *tk, const struct cset *cs, bool active)
{
	size_t n = cs->nev * cs->nunits;

	tk->active = active;
	if (!tk->prev || tk->nprev != n) {
		free(tk->prev);
		tk->prev = xcalloc(n + 1, sizeof(*tk->prev));
		tk->nprev = n;
	}
	memset(tk->prev, 0, n * sizeof(*tk->prev));
}

static bool any_enabled(const struct ticks *tk)
{
	for (size_t ev = 0; ev < tk->nev; ev++)
		if (tk->e[ev] > 0)
			return true;
	return false;
}

void ticks_add(struct ticks *tk, const struct cset *cs)
{
	for (size_t s = 0; s < tk->nslots; s++) {
		memset(tk->c, 0, tk->nev * sizeof(*tk->c));
		memset(tk->r, 0, tk->nev * sizeof(*tk->r));
		memset(tk->e, 0, tk->nev * sizeof(*tk->e));
		for (size_t ev = 0; ev < tk->nev && ev < cs->nev; ev++) {
			for (size_t u = 0; u < cs->nunits; u++) {
				size_t i = ev * cs->nunits + u;
				const struct pc_count *c = &cs->cur[i];
				const struct pc_count *p = &tk->prev[i];

				if (stats_slot(tk->aggr, tk->unit_slot, u) != s)
					continue;
				/* a failed read (zeros): no tick for it */
				if (c->enabled < p->enabled ||
				    c->running < p->running ||
				    c->value < p->value)
					continue;
				tk->c[ev] += (double)(c->value - p->value);
				tk->r[ev] += (double)(c->running - p->running);
				tk->e[ev] += (double)(c->enabled - p->enabled);
			}
		}
		if (!any_enabled(tk))	/* disabled (-D, --control) */
			continue;
		muxci_add(&tk->all[s], tk->c, tk->r, tk->e);
		muxci_add(&tk->ival[s], tk->c, tk->r, tk->e);
	}
	/* a failed read keeps the last good counts as the base */
	for (size_t i = 0; i < tk->nprev; i++)
		if (cs->cur[i].enabled >= tk->prev[i].enabled &&
		    cs->cur[i].running >= tk->prev[i].running &&
		    cs->cur[i].value >= tk->prev[i].value)
			tk->prev[i] = cs->cur[i];
}

const struct muxci *ticks_models(const struct ticks *tk, bool interval)
{
	return interval ? tk->ival : tk->all;
}

void ticks_interval_done(struct ticks *tk)
{
	for (size_t s = 0; s < tk->nslots; s++)
		muxci_reset(&tk->ival[s]);
}
