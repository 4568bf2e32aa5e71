/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rates.c - per-function rates of grouped sampling and their 95% intervals. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "base/hashtab.h"
#include "profile/rates.h"

#define UNKNOWN "[unknown]"

/* One function's samples: n, each value's mean and the co-moments. */
struct rates_fn {
	uint64_t n;
	double *mean;		/* nv of them */
	double *com;		/* nv x nv */
	const char *dso;	/* in key, after sym's NUL */
	char sym[];		/* the key: sym, NUL, dso, NUL */
};

struct rates {
	unsigned nv;		/* 1, period, members */
	struct hashtab fns;	/* of struct rates_fn */
	struct rates_fn *all;	/* every sample */
};

static struct rates_fn *fn_new(const struct rates *r, const char *sym,
			       const char *dso)
{
	size_t len = strlen(sym) + 1, dlen = strlen(dso) + 1,
	       nd = r->nv + (size_t)r->nv * r->nv;
	struct rates_fn *fn = calloc(1, sizeof(*fn) + len + dlen);
	double *d;

	if (!fn)
		return NULL;
	d = calloc(nd, sizeof(double));
	if (!d) {
		free(fn);
		return NULL;
	}
	fn->mean = d;
	fn->com = d + r->nv;
	memcpy(fn->sym, sym, len);
	memcpy(fn->sym + len, dso, dlen);
	fn->dso = fn->sym + len;
	return fn;
}

/* A table item, or NULL. */
static void fn_free(void *item)
{
	struct rates_fn *fn = item;

	if (fn)
		free(fn->mean);
	free(fn);
}

struct rates *rates_new(unsigned nmembers)
{
	struct rates *r;

	if (nmembers > RATES_MAX_MEMBERS) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->nv = RATES_MEMBER + nmembers;
	r->all = fn_new(r, "", "");
	if (!r->all) {
		free(r);
		return NULL;
	}
	return r;
}

void rates_free(struct rates *r)
{
	if (!r)
		return;
	hashtab_release_items(&r->fns, fn_free);
	fn_free(r->all);
	free(r);
}

struct fn_key {
	const char *sym, *dso;
};

static bool fn_eq(const void *item, const void *key)
{
	const struct rates_fn *fn = item;
	const struct fn_key *k = key;

	return !strcmp(fn->sym, k->sym) && !strcmp(fn->dso, k->dso);
}

static size_t fn_hash(const struct fn_key *k)
{
	return hash_str(k->sym) * 31 + hash_str(k->dso);
}

/* (sym, dso)'s samples; sym NULL: every sample. */
static struct rates_fn *fn_find(const struct rates *r, const char *sym,
				const char *dso)
{
	struct fn_key k = { sym, dso ? dso : UNKNOWN };

	if (!sym)
		return r->all;
	return hashtab_find(&r->fns, fn_hash(&k), fn_eq, &k);
}

uint64_t rates_fn_key(const char *sym, uint64_t start, const char *dso,
		      unsigned cause)
{
	if (!dso)
		dso = UNKNOWN;
	if (sym)
		return start;
	/* the row's name, dso and cause; a start address equal to it
	   would take 2^64 tries */
	return hash_bytes(dso, strlen(dso), hash_u64(0x756e6b6e6f776eull +
						     cause));
}

/* Welford's update of the means and co-moments with one sample v. */
static void fn_add(struct rates_fn *fn, unsigned nv, const double *v)
{
	double d[2 + RATES_MAX_MEMBERS];
	unsigned i, j;

	fn->n++;
	for (i = 0; i < nv; i++) {
		d[i] = v[i] - fn->mean[i];	/* before the mean moves */
		fn->mean[i] += d[i] / (double)fn->n;
	}
	for (i = 0; i < nv; i++)
		for (j = 0; j < nv; j++)
			fn->com[i * nv + j] += d[i] * (v[j] - fn->mean[j]);
}

int rates_add(struct rates *r, const struct rates_sample *s)
{
	struct fn_key k = { s->sym ? s->sym : UNKNOWN,
			    s->dso ? s->dso : UNKNOWN };
	double v[2 + RATES_MAX_MEMBERS];
	struct rates_fn *fn = fn_find(r, k.sym, k.dso);
	unsigned i;

	if (!fn) {
		fn = fn_new(r, k.sym, k.dso);
		if (!fn || hashtab_add(&r->fns, fn_hash(&k), fn) != 0) {
			fn_free(fn);
			errno = ENOMEM;
			return -1;
		}
	}
	v[RATES_ONE] = 1;
	v[RATES_PERIOD] = (double)s->period;
	for (i = RATES_MEMBER; i < r->nv; i++)
		v[i] = (double)s->deltas[i - RATES_MEMBER];
	fn_add(fn, r->nv, v);
	fn_add(r->all, r->nv, v);
	return 0;
}

double rates_t975(uint64_t df)
{
	static const double t[] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
		2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
		2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	const double z = 1.959964;
	double n = (double)df;

	if (df > 0 && df < sizeof(t) / sizeof(t[0]))
		return t[df];
	if (df == 0)
		return z;
	/* Cornish-Fisher beyond the table: within 0.001 from df 30 on */
	return z + (z * z * z + z) / (4 * n) +
	       (5 * z * z * z * z * z + 16 * z * z * z + 3 * z) / (96 * n * n);
}

/* Newton's square root from above: the samplers link no libm (a
   sampler's resident memory is kept small). */
static double root(double x)
{
	double r = x > 1 ? x : 1, next;

	if (!(x > 0))
		return 0;
	for (int i = 0; i < 2100; i++) {
		next = 0.5 * (r + x / r);
		if (next >= r)
			break;
		r = next;
	}
	return r;
}

int rates_get(const struct rates *r, const char *sym, const char *dso,
	      const struct rates_metric *m, struct rates_est *out)
{
	const struct rates_fn *fn;
	unsigned x = m->num, y = m->den, nv = r->nv;
	double my, mx, q, s2, R;

	if (x >= nv || y >= nv) {
		errno = EINVAL;
		return -1;
	}
	fn = fn_find(r, sym, dso);
	if (!fn || !fn->n) {
		errno = ENOENT;
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->n = fn->n;
	mx = fn->mean[x];
	my = fn->mean[y];
	if (my <= 0)
		return 0;
	R = mx / my;
	out->rate = R * m->scale;
	if (fn->n < RATES_MIN_SAMPLES)
		return 0;
	/* sum (x - R y)^2 = Cxx - 2R Cxy + R^2 Cyy: mean(x) - R mean(y)
	   is 0 by R's definition */
	q = fn->com[x * nv + x] - 2 * R * fn->com[x * nv + y] +
	    R * R * fn->com[y * nv + y];
	s2 = q > 0 ? q / (double)(fn->n - 1) : 0;
	out->half = rates_t975(fn->n - 1) * root(s2 / (double)fn->n) / my *
		    m->scale;
	out->valid = true;
	return 0;
}

double rates_sum(const struct rates *r, const char *sym, const char *dso,
		 unsigned v)
{
	const struct rates_fn *fn = fn_find(r, sym, dso);

	return fn && v < r->nv ? fn->mean[v] * (double)fn->n : 0;
}

const char *rates_est_str(const struct rates_est *e, char *buf, size_t size)
{
	int dec = 3;
	double h = e->half;

	if (!e->valid) {
		snprintf(buf, size, "-");
		return buf;
	}
	/* two significant digits of the half width, at most 6 decimals */
	if (h > 0) {
		for (dec = 1; h < 1 && dec < 6; dec++)
			h *= 10;
		for (; h >= 10 && dec > 0; dec--)
			h /= 10;
	}
	snprintf(buf, size, "%.*f \u00b1%.*f", dec, e->rate, dec, e->half);
	return buf;
}

/* Whether ev is name[0..len), or name with perf's modifiers after a
   colon ("instructions" names "instructions:u"). */
static bool name_is(const char *ev, const char *name, size_t len, bool mods)
{
	if (!ev || strncmp(ev, name, len) != 0)
		return false;
	if (!ev[len])
		return true;
	return mods && ev[len] == ':' && ev[len + 1] &&
	       strspn(ev + len + 1, "ukhGHIpPSDeW") == strlen(ev + len + 1);
}

/* The index of the event named name[0..len) among names/alias (as
   given, else with its modifiers left out), or -1. */
static int event_index(const char *name, size_t len, const char *const *names,
		       const char *const *alias, unsigned n)
{
	for (int mods = 0; mods < 2; mods++)
		for (unsigned i = 0; i < n; i++)
			if (name_is(names[i], name, len, mods) ||
			    (alias && name_is(alias[i], name, len, mods)))
				return (int)i;
	return -1;
}

/* Units of the leader's nanoseconds a rate may be per. */
static const struct {
	const char *unit;
	double scale;
} time_units[] = {
	{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
};

int rates_metric_parse(const char *str, const char *const *names,
		       const char *const *alias, unsigned n, bool leader_ns,
		       struct rates_metric *m, char *err, size_t errsize)
{
	const char *slash, *den;
	size_t nlen;
	int a, b;

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", str);
	if (!strcmp(str, "ipc") || !strcmp(str, "cpi")) {
		a = event_index("instructions", 12, names, alias, n);
		b = event_index("cycles", 6, names, alias, n);
		if (a < 0 || b < 0) {
			snprintf(err, errsize, "--metric %s needs cycles and "
				 "instructions in the group (-e "
				 "'{cycles,instructions}:S')", str);
			errno = EINVAL;
			return -1;
		}
		m->num = RATES_PERIOD + (unsigned)(str[0] == 'i' ? a : b);
		m->den = RATES_PERIOD + (unsigned)(str[0] == 'i' ? b : a);
		m->scale = 1;
		return 0;
	}
	slash = strchr(str, '/');
	nlen = slash ? (size_t)(slash - str) : strlen(str);
	a = event_index(str, nlen, names, alias, n);
	if (a < 0) {
		snprintf(err, errsize, "--metric %s: '%.*s' is not an event of "
			 "the group (name one of -e's, e.g. %s/%s)", str,
			 (int)nlen, str, n > 1 ? names[1] : names[0],
			 n > 1 ? names[0] : "ms");
		errno = EINVAL;
		return -1;
	}
	m->num = RATES_PERIOD + (unsigned)a;
	m->scale = 1;
	if (!slash) {
		m->den = RATES_ONE;
		return 0;
	}
	den = slash + 1;
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]);
	     i++) {
		if (strcmp(den, time_units[i].unit))
			continue;
		if (!leader_ns) {
			snprintf(err, errsize, "--metric %s: per %s needs a "
				 "leader that counts time (cpu-clock or "
				 "task-clock), not %s", str, den, names[0]);
			errno = EINVAL;
			return -1;
		}
		m->den = RATES_PERIOD;
		m->scale = time_units[i].scale;
		return 0;
	}
	b = event_index(den, strlen(den), names, alias, n);
	if (b < 0 && den[0] == 'k') {
		b = event_index(den + 1, strlen(den + 1), names, alias, n);
		m->scale = 1000;
	}
	if (b < 0) {
		snprintf(err, errsize, "--metric %s: '%s' is neither an event "
			 "of the group nor a unit (s, ms, us; kEVENT: per "
			 "thousand)", str, den);
		errno = EINVAL;
		return -1;
	}
	m->den = RATES_PERIOD + (unsigned)b;
	return 0;
}
