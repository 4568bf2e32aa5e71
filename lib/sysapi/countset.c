/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * countset.c - a counting set: events (with their groups) on units,
 * opened, enabled, read a group at a time; pcstat's and the task
 * table's counters both.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysapi/countset.h>
#include <sysapi/error.h>
#include "base/optsz.h"

struct unit {
	pid_t pid;
	int cpu;
	bool opened;		/* pc_countset_open() went over it */
	struct pc_counter **c;	/* one per event, NULL where none */
	struct pc_count *base;	/* 2008 call: the counts at the enable */
};

struct pc_countset {
	struct pc_countset_opts opts;
	bool grouped;		/* not the 2008 call */
	bool legacy;
	bool user_only;
	size_t nev;
	struct pc_event_spec *ev;
	size_t *gend;		/* a leader's group ends before gend[e] */
	int *cgroup;		/* per event: a cgroup's fd, or -1 */
	bool *supported;	/* opened on some unit */
	bool *unsupported;	/* the machine refused it on a task */
	struct unit *unit;
	size_t nunits, aunits;
	struct pc_count *scratch;	/* a group's read */
	size_t *idx;
	int err;		/* the last failed open: */
	size_t err_ev, err_unit;
};

static bool grouped(const struct pc_countset *set, size_t e)
{
	return set->grouped && set->ev[e].group >= 0;
}

struct pc_countset *pc_countset_new(const struct pc_event_list *list,
				    const struct pc_countset_opts *opts)
{
	struct pc_countset_opts o = PC_COUNTSET_OPTS();
	struct pc_countset *set;
	enum pc_backend backend;
	size_t n;

	if (opts && optsz_copy(&o, sizeof(o), opts) != 0)
		return NULL;
	if (!list) {
		errno = EINVAL;
		return NULL;
	}
	n = list->nr ? list->nr : 1;	/* none: units that count nothing */
	set = calloc(1, sizeof(*set));
	if (!set)
		return NULL;
	set->ev = calloc(n, sizeof(*set->ev));
	set->gend = calloc(n, sizeof(*set->gend));
	set->cgroup = calloc(n, sizeof(*set->cgroup));
	set->supported = calloc(n, sizeof(*set->supported));
	set->unsupported = calloc(n, sizeof(*set->unsupported));
	set->scratch = calloc(n, sizeof(*set->scratch));
	set->idx = calloc(n, sizeof(*set->idx));
	if (!set->ev || !set->gend || !set->cgroup || !set->supported ||
	    !set->unsupported || !set->scratch || !set->idx) {
		pc_countset_free(set);
		errno = ENOMEM;
		return NULL;
	}
	n = list->nr;
	if (n)
		memcpy(set->ev, list->ev, n * sizeof(*set->ev));
	set->nev = n;
	set->opts = o;
	backend = o.backend == PC_BACKEND_AUTO ? pc_backend_default()
					       : o.backend;
	set->legacy = backend == PC_BACKEND_LEGACY;
	set->grouped = !set->legacy;
	set->user_only = o.user_only;
	for (size_t e = 0; e < n; e++) {
		size_t end = e + 1;

		while (end < n && set->ev[e].group >= 0 &&
		       set->ev[end].group == set->ev[e].group)
			end++;
		set->gend[e] = end;
		set->cgroup[e] = -1;
	}
	return set;
}

static void unit_close(struct pc_countset *set, struct unit *u)
{
	/* members before their leaders */
	for (size_t e = set->nev; e-- > 0;) {
		pc_counter_close(u->c[e]);
		u->c[e] = NULL;
	}
}

void pc_countset_free(struct pc_countset *set)
{
	if (!set)
		return;
	while (set->nunits)
		pc_countset_remove(set, set->nunits - 1);
	free(set->unit);
	free(set->ev);
	free(set->gend);
	free(set->cgroup);
	free(set->supported);
	free(set->unsupported);
	free(set->scratch);
	free(set->idx);
	free(set);
}

int pc_countset_cgroup(struct pc_countset *set, size_t ev, int fd)
{
	if (ev >= set->nev) {
		errno = EINVAL;
		return -1;
	}
	set->cgroup[ev] = fd;
	return 0;
}

int pc_countset_add(struct pc_countset *set, pid_t pid, int cpu)
{
	struct unit *u;

	if (set->nunits == set->aunits) {
		size_t a = set->aunits ? 2 * set->aunits : 8;
		struct unit *p = realloc(set->unit, a * sizeof(*p));

		if (!p)
			return -1;
		set->unit = p;
		set->aunits = a;
	}
	u = &set->unit[set->nunits];
	memset(u, 0, sizeof(*u));
	u->pid = pid;
	u->cpu = cpu;
	u->c = calloc(set->nev, sizeof(*u->c));
	if (!u->c)
		return -1;
	return (int)set->nunits++;
}

void pc_countset_remove(struct pc_countset *set, size_t unit)
{
	struct unit *u;

	if (unit >= set->nunits)
		return;
	u = &set->unit[unit];
	unit_close(set, u);
	free(u->c);
	free(u->base);
	memmove(u, u + 1, (set->nunits - unit - 1) * sizeof(*u));
	set->nunits--;
}

/* One event on u, under leader (NULL: it leads or is alone). */
static struct pc_counter *open_one(struct pc_countset *set, size_t e,
				   const struct unit *u,
				   struct pc_counter *leader)
{
	const struct pc_event_spec *ev = &set->ev[e];
	struct perf_event_attr attr = ev->attr;
	bool member = leader != NULL, enabled = set->opts.enabled;
	int cg = set->cgroup[e];
	struct pc_open_opts how = PC_OPEN_TASK_CPU(cg >= 0 ? cg : u->pid,
		u->cpu, .cgroup = cg >= 0, .leader = leader,
		.backend = set->opts.backend,
		.group = grouped(set, e) && ev->leader);
	struct pc_counter *c;

	/* Counting, never sampling: a period term (cpu-clock/period=1000/)
	   would only cost.  The 2008 call cannot inherit and counts from
	   its open (see pc_countset_enable()); a member follows its
	   leader. */
	attr.sample_period = 0;
	attr.freq = 0;
	attr.disabled = !member && !set->legacy && !enabled;
	attr.enable_on_exec = set->opts.enable_on_exec && !member &&
			      !set->legacy && !enabled;
	attr.inherit = set->opts.inherit && u->pid >= 0 && !set->legacy;
	if (set->user_only)
		attr.exclude_kernel = attr.exclude_hv = 1;
	c = pc_counter_open(&attr, &how);
	/* perf's fallback: what paranoid 2 allows, opened as the counter
	   refused was (a cgroup's too), and so every later one */
	if (!c && pc_attr_user_only(&attr, errno)) {
		c = pc_counter_open(&attr, &how);
		set->user_only |= c != NULL;
	}
	return c;
}

/*
 * strict_groups: a group with a member the machine cannot count is never
 * scheduled, so perf shows its other members "not counted": close them
 * on u (supported[] stays set).
 */
static void drop_broken_groups(struct pc_countset *set, struct unit *u)
{
	for (size_t e = 0; e < set->nev; e++) {
		bool broken = false;

		if (!grouped(set, e) || !set->ev[e].leader || !u->c[e])
			continue;
		for (size_t m = e + 1; m < set->gend[e]; m++)
			broken |= !u->c[m] &&
				  set->ev[m].attr.type != PC_TYPE_TOOL;
		for (size_t m = set->gend[e]; broken && m-- > e;) {
			pc_counter_close(u->c[m]);
			u->c[m] = NULL;
		}
	}
}

/* 0 opened, 1 the task is gone, -1 failed (set->err and errno). */
static int unit_open(struct pc_countset *set, size_t ui)
{
	struct unit *u = &set->unit[ui];
	struct pc_counter *leader = NULL;

	for (size_t e = 0; e < set->nev; e++) {
		const struct pc_event_spec *ev = &set->ev[e];
		bool member = grouped(set, e) && !ev->leader;
		bool leads = grouped(set, e) && ev->leader;
		struct pc_counter *c;
		int err;

		if (!member)
			leader = NULL;
		if ((member && !leader) || ev->attr.type == PC_TYPE_TOOL)
			continue;	/* its leader did not open */
		if (set->unsupported[e] && u->cpu < 0 &&
		    !(leads && set->opts.strict_groups))
			continue;	/* refused on another task */
		c = open_one(set, e, u, member ? leader : NULL);
		if (c) {
			u->c[e] = c;
			set->supported[e] = true;
			if (leads)
				leader = c;
			continue;
		}
		err = errno;
		set->err = err;
		set->err_ev = e;
		set->err_unit = ui;
		if (err == ESRCH && u->pid >= 0 && set->cgroup[e] < 0) {
			unit_close(set, u);
			u->opened = true;
			return 1;
		}
		if (pc_errno_unsupported(err) &&
		    !(leads && set->opts.strict_groups)) {
			if (u->cpu < 0 && !set->supported[e])
				set->unsupported[e] = true;
			continue;
		}
		unit_close(set, u);
		errno = err;
		return -1;
	}
	if (set->opts.strict_groups)
		drop_broken_groups(set, u);
	u->opened = true;
	return 0;
}

int pc_countset_open(struct pc_countset *set)
{
	size_t tried = 0, gone = 0;

	for (size_t ui = 0; ui < set->nunits; ui++) {
		int ret;

		if (set->unit[ui].opened)
			continue;
		ret = unit_open(set, ui);
		if (ret < 0)
			return -1;
		tried++;
		gone += ret;
	}
	if (tried && gone == tried) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

/* Apply fn to every counter that leads (a group or itself). */
static int for_each_leader(struct pc_countset *set,
			   int (*fn)(struct pc_counter *))
{
	int ret = 0, err = 0;

	for (size_t ui = 0; ui < set->nunits; ui++)
		for (size_t e = 0; e < set->nev; e++) {
			struct pc_counter *c = set->unit[ui].c[e];

			if (!c || (grouped(set, e) && !set->ev[e].leader))
				continue;
			if (fn(c) != 0 && ret == 0) {
				ret = -1;
				err = errno;
			}
		}
	if (ret)
		errno = err;
	return ret;
}

static int unit_read(struct pc_countset *set, struct unit *u,
		     struct pc_count *out);

int pc_countset_enable(struct pc_countset *set)
{
	int ret = 0, err = 0;

	if (!set->legacy)
		return for_each_leader(set, pc_counter_enable);
	/* No enable on the 2008 call: what it counted until now is taken
	   off every later read. */
	for (size_t ui = 0; ui < set->nunits; ui++) {
		struct unit *u = &set->unit[ui];

		free(u->base);
		u->base = NULL;
		if (!u->opened)
			continue;
		u->base = calloc(set->nev, sizeof(*u->base));
		if (!u->base || unit_read(set, u, u->base) != 0) {
			if (!ret)
				err = u->base ? errno : ENOMEM;
			ret = -1;
		}
	}
	if (ret)
		errno = err;
	return ret;
}

int pc_countset_disable(struct pc_countset *set)
{
	if (set->legacy) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return for_each_leader(set, pc_counter_disable);
}

/* A group in one read(): its leader and the members that opened, in
   the order they opened. */
static int read_group(struct pc_countset *set, struct unit *u, size_t e,
		      struct pc_count *out)
{
	size_t m = 0;
	int got;

	for (size_t f = e; f < set->gend[e]; f++)
		if (u->c[f])
			set->idx[m++] = f;
	got = pc_group_read(u->c[e], set->scratch, m);
	if (got < 0)
		return -1;
	for (int k = 0; k < got; k++)
		out[set->idx[k]] = set->scratch[k];
	return 0;
}

static int unit_read(struct pc_countset *set, struct unit *u,
		     struct pc_count *out)
{
	int ret = 0, err = 0;

	memset(out, 0, set->nev * sizeof(*out));
	for (size_t e = 0; e < set->nev; e++) {
		struct pc_counter *c = u->c[e];
		int r;

		if (!c || (grouped(set, e) && !set->ev[e].leader))
			continue;
		if (grouped(set, e))
			r = read_group(set, u, e, out);
		else
			r = pc_counter_read(c, &out[e]);
		if (r != 0 && ret == 0) {
			ret = -1;
			err = errno;
		}
	}
	if (ret)
		errno = err;
	return ret;
}

int pc_countset_read(struct pc_countset *set, size_t unit,
		     struct pc_count *out)
{
	struct unit *u;
	int ret;

	if (unit >= set->nunits) {
		errno = EINVAL;
		return -1;
	}
	u = &set->unit[unit];
	ret = unit_read(set, u, out);
	for (size_t e = 0; u->base && e < set->nev; e++) {
		struct pc_count *c = &out[e];
		const struct pc_count *b = &u->base[e];

		if (c->enabled < b->enabled)	/* this read failed */
			memset(c, 0, sizeof(*c));
		else
			*c = (struct pc_count){ c->value - b->value,
				c->enabled - b->enabled,
				c->running - b->running, c->id };
	}
	return ret;
}

size_t pc_countset_units(const struct pc_countset *set)
{
	return set->nunits;
}

size_t pc_countset_events(const struct pc_countset *set)
{
	return set->nev;
}

struct pc_counter *pc_countset_counter(const struct pc_countset *set,
				       size_t ev, size_t unit)
{
	if (ev >= set->nev || unit >= set->nunits)
		return NULL;
	return set->unit[unit].c[ev];
}

bool pc_countset_supported(const struct pc_countset *set, size_t ev)
{
	return ev < set->nev && set->supported[ev];
}

bool pc_countset_user_only(const struct pc_countset *set)
{
	return set->user_only;
}

int pc_countset_failed(const struct pc_countset *set, size_t *ev,
		       size_t *unit)
{
	if (ev)
		*ev = set->err_ev;
	if (unit)
		*unit = set->err_unit;
	return set->err;
}

const char *pc_countset_strerror(const struct pc_countset *set, char *buf,
				 size_t sz)
{
	const struct pc_event_spec *ev = &set->ev[set->err_ev];
	char why[PC_STRERROR_SIZE], name[80], where[48] = "";
	pid_t pid = 0;
	int cpu = -1;

	if (sz == 0)
		return buf;
	buf[0] = '\0';
	if (!set->err)
		return buf;
	if (set->err_unit < set->nunits) {
		pid = set->unit[set->err_unit].pid;
		cpu = set->unit[set->err_unit].cpu;
	}
	snprintf(name, sizeof(name), "%s", ev->name[0] ? ev->name :
		 pc_event_name(&ev->attr, why, sizeof(why)));
	if (grouped(set, set->err_ev) && ev->leader &&
	    pc_errno_unsupported(set->err)) {
		snprintf(buf, sz, "the group led by '%s' cannot be counted: "
			 "'%s' is not supported here (lead the group with "
			 "another event)", name, name);
		return buf;
	}
	pc_strerror_scope(set->err, &ev->attr, cpu >= 0 && pid < 0 ?
			  PC_SCOPE_CPU : PC_SCOPE_TASK, why, sizeof(why));
	if (set->cgroup[set->err_ev] < 0 && pid > 0)
		snprintf(where, sizeof(where), " on thread %d", (int)pid);
	else if (cpu >= 0)
		snprintf(where, sizeof(where), " on CPU %d", cpu);
	snprintf(buf, sz, "cannot count '%s'%s: %s", name, where, why);
	return buf;
}
