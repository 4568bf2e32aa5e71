/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export-pprof.c - pprof's profile.proto, encoded by protobuf-c (code
 * generated from profile.proto) and gzipped, as go tool pprof,
 * Pyroscope, Parca and Grafana read it.
 *
 * Two sample types: "samples" (count; "wall-clock" or "off-cpu" in
 * nanoseconds where the stacks count time) and the event (nanoseconds for
 * cpu-clock and task-clock, else count), with the event's period; a
 * third, "off-cpu" in nanoseconds, when the stacks hold off-CPU time
 * (an OFFCPU_LEAF leaf), whose event value is then 0 (and the event's 0
 * in those).  One
 * Function per function, one Mapping per file (with its build-id), one
 * Location per address and inline chain: a frame and the inlined frames
 * before it are the Lines of one Location, innermost first, as pprof
 * keeps inlining.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/array.h"
#include "base/hashtab.h"
#include "lib/profile/profile.pb-c.h"
#include "profile/export-internal.h"
#include "symbols/symbols.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__ValueType ValueType;

struct pb {
	struct stacks *s;
	const struct export_meta *m;
	Profile prof;

	char **str;			/* the string table */
	size_t nstr, astr;
	struct hashtab str_idx;		/* index + 1, by content */
	char *owned[64];		/* strings made here, freed at the end */
	size_t nowned;

	Function *fn;			/* by function id */
	Function **fnp;
	Mapping *map;			/* by distinct DSO */
	Mapping **mapp;
	const char **map_dso;		/* each mapping's DSO (interned) */
	size_t nmap;
	bool oom;
	uint32_t *map_of;		/* function id -> mapping index */

	Location **loc;			/* by location id - 1 */
	size_t nloc, aloc;
	struct hashtab loc_idx;		/* (frame ids) -> id, as a pointer */

	Sample *smp;
	Sample **smpp;
	uint64_t *ids;			/* every sample's location ids */
	int64_t *vals;
	ValueType vt[4 + STK_MAX_VALUES], *vtp[3 + STK_MAX_VALUES];
	size_t off;			/* 1: an off-CPU sample type */
	size_t nvt;			/* sample types: samples, event,
					   (off-CPU,) a group's members */
};

struct str_key {
	const struct pb *b;
	const char *s;
};

static bool str_eq(const void *item, const void *key)
{
	const struct str_key *k = key;

	return strcmp(k->b->str[(uintptr_t)item - 1], k->s) == 0;
}

/* The string table index of s (which must outlive b); on ENOMEM, 0 and
   b->oom. */
static int64_t str(struct pb *b, const char *s)
{
	struct str_key k = { b, s ? s : "" };
	size_t h = hash_str(k.s);
	void *it = hashtab_find(&b->str_idx, h, str_eq, &k);

	if (it)
		return (int64_t)((uintptr_t)it - 1);
	if (ARRAY_GROW(b->str, b->nstr + 1, b->astr) != 0 ||
	    hashtab_add(&b->str_idx, h, (void *)(uintptr_t)(b->nstr + 1)) != 0) {
		b->oom = true;
		return 0;
	}
	b->str[b->nstr] = (char *)k.s;
	return (int64_t)b->nstr++;
}

/* The index of a string made here (kept until the profile is written). */
static int64_t str_owned(struct pb *b, char *s)
{
	if (!s || b->nowned == sizeof(b->owned) / sizeof(b->owned[0])) {
		free(s);
		return str(b, "");
	}
	b->owned[b->nowned++] = s;
	return str(b, s);
}

static char *hex(const uint8_t *id, int n)
{
	static const char digits[] = "0123456789abcdef";
	char *h = malloc(2 * (size_t)n + 1);
	int i;

	if (!h)
		return NULL;
	for (i = 0; i < n; i++) {
		h[2 * i] = digits[id[i] >> 4];
		h[2 * i + 1] = digits[id[i] & 15];
	}
	h[2 * n] = '\0';
	return h;
}

/* Whether a DSO is a program (not a library), once per DSO. */
static bool dso_program(struct pb *b, const char *dso, const char **seen,
			bool *is, size_t *nseen)
{
	size_t i;

	for (i = 0; i < *nseen; i++)
		if (seen[i] == dso)	/* interned: a pointer names a DSO */
			return is[i];
	seen[*nseen] = dso;
	is[*nseen] = symbols_is_program(b->m->sym, dso) == 1;
	return is[(*nseen)++];
}

/*
 * The program's own file, which pprof takes the first mapping for (its
 * "File:" line): the target's executable when the tool knows it (the
 * stacks may not hold it at all: chains through a library built without
 * frame pointers stop in the library).  Else a guess from the stacks:
 * in the most counted stack that has one, the outermost frame in a
 * program (an executable or PIE, not a library) -- a frame pointer
 * chain through a libc built without them ends in libc's
 * __libc_start_call_main, which is no one's program -- or the DSO of
 * the outermost user frame of the most counted stack; NULL when there
 * is no user frame.  A DSO the stacks hold is their interned string, so
 * that its functions share the mapping.
 */
static const char *main_dso(struct pb *b)
{
	const struct stk_stack *const *st;
	size_t n, i, nf = stacks_nfuncs(b->s), nseen = 0;
	const char **seen, *found = NULL;
	const char *outer = NULL;	/* st[0]'s outermost user frame's */
	bool *is;
	uint32_t d;

	if (b->m->program && *b->m->program) {
		for (i = 0; i < nf; i++)
			if (!strcmp(stacks_func(b->s, (uint32_t)i)->dso,
				    b->m->program))
				return stacks_func(b->s, (uint32_t)i)->dso;
		return b->m->program;
	}
	seen = calloc(nf + 1, sizeof(*seen));
	is = calloc(nf + 1, sizeof(*is));

	st = stacks_sorted(b->s, &n);
	for (i = 0; i < n && !found; i++)
		for (d = st[i]->depth; d-- > 0 && !found;) {
			const struct stk_func *f = stacks_func(b->s,
				stacks_frame(b->s, st[i]->frame[d])->func);

			if (f->mode != '.')
				continue;
			if (i == 0 && !outer)
				outer = f->dso;
			if (seen && is && f->dso[0] == '/' &&
			    dso_program(b, f->dso, seen, is, &nseen))
				found = f->dso;
		}
	free(seen);
	free(is);
	return found ? found : outer;
}

static void mapping_new(struct pb *b, const char *dso)
{
	Mapping *mp = &b->map[b->nmap];

	*mp = (Mapping)PERFTOOLS__PROFILES__MAPPING__INIT;
	mp->id = b->nmap + 1;
	mp->filename = str(b, dso);
	mp->memory_start = UINT64_MAX;
	b->map_dso[b->nmap] = dso;
	b->mapp[b->nmap] = mp;
	b->nmap++;
}

/* Functions, and a Mapping for each DSO they live in. */
static int functions(struct pb *b)
{
	size_t nf = stacks_nfuncs(b->s), i, j;
	const char *first;

	b->fn = calloc(nf + 1, sizeof(*b->fn));
	b->fnp = calloc(nf + 1, sizeof(*b->fnp));
	b->map = calloc(nf + 1, sizeof(*b->map));
	b->mapp = calloc(nf + 1, sizeof(*b->mapp));
	b->map_of = calloc(nf + 1, sizeof(*b->map_of));
	b->map_dso = calloc(nf + 1, sizeof(*b->map_dso));
	if (!b->fn || !b->fnp || !b->map || !b->mapp || !b->map_of ||
	    !b->map_dso)
		return -1;
	if ((first = main_dso(b)))
		mapping_new(b, first);
	for (i = 0; i < nf; i++) {
		const struct stk_func *f = stacks_func(b->s, (uint32_t)i);
		Function *fn = &b->fn[i];

		*fn = (Function)PERFTOOLS__PROFILES__FUNCTION__INIT;
		fn->id = i + 1;
		fn->name = fn->system_name = str(b, f->name);
		fn->filename = str(b, f->file);
		b->fnp[i] = fn;
		/* DSO names are interned: a pointer names a DSO */
		for (j = 0; j < b->nmap; j++)
			if (b->map_dso[j] == f->dso)
				break;
		if (j == b->nmap)
			mapping_new(b, f->dso);
		b->map_of[i] = (uint32_t)j;
		b->map[j].has_functions |= f->resolved;
		b->map[j].has_filenames |= f->file != NULL;
	}
	for (j = 0; j < b->nmap; j++) {
		const char *dso = b->map_dso[j];
		uint8_t id[64];
		int n = 0;

		if (dso[0] == '/')
			n = b->m->sym ? symbols_build_id(b->m->sym, dso, id,
							 sizeof(id))
				      : 0;
		if (n > 0)
			b->map[j].build_id = str_owned(b, hex(id, n));
	}
	return 0;
}

struct loc_key {
	const uint32_t *frames;
	uint32_t n;
	const struct pb *b;
};

static bool loc_eq(const void *item, const void *key)
{
	const struct loc_key *k = key;
	const Location *l = k->b->loc[(uintptr_t)item - 1];
	uint32_t i;

	if (l->n_line != k->n)
		return false;
	for (i = 0; i < k->n; i++)
		if (l->line[i]->function_id - 1 !=
			    stacks_frame(k->b->s, k->frames[i])->func ||
		    l->line[i]->line != stacks_frame(k->b->s, k->frames[i])->line)
			return false;
	return l->address == stacks_frame(k->b->s, k->frames[k->n - 1])->ip;
}

/* The Location of frames[0..n): inlined frames, then the one holding
   the code.  0 on ENOMEM. */
static uint64_t location(struct pb *b, const uint32_t *frames, uint32_t n)
{
	const struct stk_frame *outer = stacks_frame(b->s, frames[n - 1]);
	struct loc_key k = { frames, n, b };
	size_t h = hash_bytes(frames, n * sizeof(*frames), 0);
	void *it = hashtab_find(&b->loc_idx, h, loc_eq, &k);
	Mapping *mp = &b->map[b->map_of[outer->func]];
	Location *l;
	uint32_t i;

	if (it)
		return (uint64_t)(uintptr_t)it;
	if (ARRAY_GROW(b->loc, b->nloc + 1, b->aloc) != 0)
		return 0;
	l = calloc(1, sizeof(*l) + n * (sizeof(Line *) + sizeof(Line)));
	if (!l)
		return 0;
	*l = (Location)PERFTOOLS__PROFILES__LOCATION__INIT;
	l->id = b->nloc + 1;
	l->mapping_id = mp->id;
	l->address = outer->ip;
	l->n_line = n;
	l->line = (Line **)(l + 1);
	for (i = 0; i < n; i++) {
		const struct stk_frame *fr = stacks_frame(b->s, frames[i]);
		Line *ln = (Line *)(l->line + n) + i;

		*ln = (Line)PERFTOOLS__PROFILES__LINE__INIT;
		ln->function_id = fr->func + 1;
		ln->line = fr->line;
		l->line[i] = ln;
	}
	b->loc[b->nloc++] = l;
	if (hashtab_add(&b->loc_idx, h, (void *)(uintptr_t)l->id) != 0)
		return 0;
	if (outer->ip < mp->memory_start)
		mp->memory_start = outer->ip;
	if (outer->ip >= mp->memory_limit)
		mp->memory_limit = outer->ip + 1;
	mp->has_line_numbers |= outer->line > 0;
	mp->has_inline_frames |= n > 1;
	return l->id;
}

static int samples(struct pb *b)
{
	const struct stk_stack *const *st;
	size_t n, i, nids = 0, k = 0;
	uint32_t d, start;

	st = stacks_sorted(b->s, &n);
	if (!st && stacks_count(b->s))
		return -1;
	for (i = 0; i < n; i++)
		nids += st[i]->depth;
	b->smp = calloc(n + 1, sizeof(*b->smp));
	b->smpp = calloc(n + 1, sizeof(*b->smpp));
	b->ids = calloc(nids + 1, sizeof(*b->ids));
	b->vals = calloc(b->nvt * n + 1, sizeof(*b->vals));
	if (!b->smp || !b->smpp || !b->ids || !b->vals)
		return -1;
	for (i = 0; i < n; i++) {
		Sample *sp = &b->smp[i];

		*sp = (Sample)PERFTOOLS__PROFILES__SAMPLE__INIT;
		sp->location_id = &b->ids[k];
		for (d = start = 0; d < st[i]->depth; d++) {
			if (stacks_frame(b->s, st[i]->frame[d])->inlined &&
			    d + 1 < st[i]->depth)
				continue;	/* its Location ends further on */
			b->ids[k] = location(b, &st[i]->frame[start], d - start + 1);
			if (!b->ids[k])
				return -1;
			k++;
			sp->n_location_id++;
			start = d + 1;
		}
		sp->n_value = b->nvt;
		sp->value = &b->vals[b->nvt * i];
		sp->value[0] = (int64_t)st[i]->count;
		if (b->off && export_stack_offcpu(b->s, st[i]))
			sp->value[2] = (int64_t)st[i]->period;
		else
			sp->value[1] = (int64_t)st[i]->period;
		for (size_t v = 2 + b->off; v < b->nvt; v++) /* members */
			sp->value[v] = (int64_t)stacks_stack_values(b->s,
						st[i])[v - 2 - b->off];
		b->smpp[i] = sp;
	}
	b->prof.n_sample = n;
	b->prof.sample = b->smpp;
	return 0;
}

/* Whether some stack of s is off-CPU time. */
static bool has_offcpu(struct stacks *s)
{
	const struct stk_stack *const *st;
	size_t n, i;

	st = stacks_sorted(s, &n);
	for (i = 0; st && i < n; i++)
		if (export_stack_offcpu(s, st[i]))
			return true;
	return false;
}

/* The packed profile, gzipped onto f. */
static int gzip_to(FILE *f, const uint8_t *data, size_t len)
{
	uint8_t out[16384];
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		return -1;
	}
	z.next_in = (uint8_t *)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = deflate(&z, Z_FINISH);
		fwrite(out, 1, sizeof(out) - z.avail_out, f);
	} while (rc == Z_OK);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static void pb_release(struct pb *b)
{
	size_t i;

	for (i = 0; i < b->nloc; i++)
		free(b->loc[i]);
	for (i = 0; i < b->nowned; i++)
		free(b->owned[i]);
	hashtab_release(&b->str_idx);
	hashtab_release(&b->loc_idx);
	free(b->loc);
	free(b->str);
	free(b->fn);
	free(b->fnp);
	free(b->map);
	free(b->mapp);
	free(b->map_of);
	free(b->map_dso);
	free(b->smp);
	free(b->smpp);
	free(b->ids);
	free(b->vals);
}

int export_pprof(FILE *f, struct stacks *s, const struct export_meta *m)
{
	struct pb b = { .s = s, .m = m,
			.prof = PERFTOOLS__PROFILES__PROFILE__INIT };
	const char *unit = export_time_event(m) ? "nanoseconds" : "count";
	const char *event = m->event ? m->event : "samples", *measure;
	uint8_t *packed = NULL;
	size_t len, i;
	int rc = -1;

	str(&b, "");		/* index 0 is "" */
	for (i = 0; i < 4 + STK_MAX_VALUES; i++)
		b.vt[i] = (ValueType)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	/* counts of nanoseconds (off-CPU, wall-clock) are not samples */
	measure = export_ns_measure(s, m);
	if (measure && !strcmp(measure, "off-cpu"))
		measure = "off-cpu-time";	/* "off-cpu" is the third */
	b.vt[0].type = str(&b, measure ? measure : "samples");
	b.vt[0].unit = str(&b, measure ? "nanoseconds" : "count");
	b.vt[1].type = b.vt[2].type = str(&b, event);
	b.vt[1].unit = b.vt[2].unit = str(&b, unit);
	b.vtp[0] = &b.vt[0];
	b.vtp[1] = &b.vt[1];
	b.off = has_offcpu(s) ? 1 : 0;
	if (b.off) {
		b.vt[3].type = str(&b, "off-cpu");
		b.vt[3].unit = str(&b, "nanoseconds");
		b.vtp[2] = &b.vt[3];
	}
	/* a group's members: their counts in the samples' periods */
	for (i = 0; i < stacks_nvalues(s); i++) {
		char name[32];
		size_t t = 3 + b.off + i;

		snprintf(name, sizeof(name), "value%zu", i + 1);
		b.vt[t].type = m->values && m->values[i] ?
			       str(&b, m->values[i]) :
			       str_owned(&b, strdup(name));
		b.vt[t].unit = str(&b, "count");
		b.vtp[t - 1] = &b.vt[t];
	}
	b.nvt = 2 + b.off + stacks_nvalues(s);
	b.prof.n_sample_type = b.nvt;
	b.prof.sample_type = b.vtp;
	b.prof.period_type = &b.vt[2];
	if (m->attr && !m->attr->freq)
		b.prof.period = (int64_t)m->attr->sample_period;
	else if (stacks_total(s))
		b.prof.period = (int64_t)(stacks_period(s) / stacks_total(s));
	b.prof.time_nanos = (int64_t)m->time_ns;
	b.prof.duration_nanos = (int64_t)m->duration_ns;
	if (functions(&b) != 0 || samples(&b) != 0 || b.oom)
		goto out;
	for (i = 0; i < b.nmap; i++)
		if (b.map[i].memory_start == UINT64_MAX)
			b.map[i].memory_start = b.map[i].memory_limit = 0;
	b.prof.n_function = stacks_nfuncs(s);
	b.prof.function = b.fnp;
	b.prof.n_mapping = b.nmap;
	b.prof.mapping = b.mapp;
	b.prof.n_location = b.nloc;
	b.prof.location = b.loc;
	b.prof.n_string_table = b.nstr;
	b.prof.string_table = b.str;
	len = perftools__profiles__profile__get_packed_size(&b.prof);
	packed = malloc(len ? len : 1);
	if (!packed)
		goto out;
	perftools__profiles__profile__pack(&b.prof, packed);
	rc = gzip_to(f, packed, len);
out:
	if (rc && (b.oom || !errno))
		errno = ENOMEM;
	free(packed);
	pb_release(&b);
	return rc;
}
