/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counters.c - the counter set: every event on every unit (task or CPU). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/task.h"
#include "util/xmalloc.h"
#include "cgroup.h"
#include "pcstat.h"

enum pc_backend cset_backend(bool want_legacy)
{
	/* When to take the 2008 call is the library's rule. */
	return want_legacy ? PC_BACKEND_LEGACY : pc_backend_default();
}

bool cset_grouped(const struct config *cfg, const struct pc_event_spec *ev)
{
	return ev->group >= 0 && cfg->backend != PC_BACKEND_LEGACY;
}

void cset_init(struct cset *cs, const struct config *cfg, pid_t child)
{
	memset(cs, 0, sizeof(*cs));
	cs->nev = cfg->events.nr;
	if (cfg->cpus) {
		cs->nunits = cfg->ncpus;
		cs->units = xcalloc(cs->nunits, sizeof(*cs->units));
		for (size_t u = 0; u < cs->nunits; u++) {
			cs->units[u].tid = -1;
			cs->units[u].cpu = cfg->cpus[u];
		}
	} else if (cfg->tids) {
		cs->nunits = cfg->ntids;
		cs->units = xcalloc(cs->nunits, sizeof(*cs->units));
		for (size_t u = 0; u < cs->nunits; u++) {
			cs->units[u].tid = cfg->tids[u];
			cs->units[u].cpu = -1;
			task_comm(cfg->tids[u], cs->units[u].comm,
				  sizeof(cs->units[u].comm));
		}
	} else {
		cs->nunits = 1;
		cs->units = xcalloc(1, sizeof(*cs->units));
		cs->units[0].tid = child;
		cs->units[0].cpu = -1;
	}
	cs->counter = xcalloc(cs->nev * cs->nunits, sizeof(*cs->counter));
	cs->cur = xcalloc(cs->nev * cs->nunits, sizeof(*cs->cur));
	cs->supported = xcalloc(cs->nev, sizeof(*cs->supported));
}

static void open_failed(const struct config *cfg, const struct unit *u,
			const struct pc_event_spec *ev, int err)
{
	char buf[PC_STRERROR_SIZE];
	bool task = cfg->tids != NULL;

	pc_strerror_scope(err, &ev->attr, u->cpu >= 0 ? PC_SCOPE_CPU :
			  PC_SCOPE_TASK, buf, sizeof(buf));
	if (task && err == ESRCH && task_is_zombie(u->tid))
		die_status(2, "task %d has exited (a zombie: its parent "
			   "has not reaped it; nothing is left to count)",
			   (int)u->tid);
	/* a target's fault, not a usage one: no --help to point to */
	if (task && (err == EACCES || err == EPERM || err == ESRCH))
		die_status(2, "cannot count '%s' on thread %d: %s", ev->name,
			   (int)u->tid, buf);
	die("cannot count '%s': %s", ev->name, buf);
}

/*
 * A group with a member the machine cannot count is never scheduled, so
 * perf shows its other members <not counted>: close them on unit u
 * (supported[] stays set, which makes the row <not counted>).
 */
static void drop_broken_groups(struct cset *cs, const struct config *cfg,
			       size_t u)
{
	for (size_t e = 0; e < cs->nev; e++) {
		const struct pc_event_spec *ev = &cfg->events.ev[e];
		size_t end = e + 1;
		bool broken = false;

		if (!cset_grouped(cfg, ev) || !ev->leader ||
		    cs->counter[e * cs->nunits + u] == NULL)
			continue;
		while (end < cs->nev && cfg->events.ev[end].group == ev->group)
			end++;
		for (size_t m = e + 1; m < end; m++)
			broken |= cs->counter[m * cs->nunits + u] == NULL &&
				  cfg->events.ev[m].attr.type != PC_TYPE_TOOL;
		for (size_t m = end; broken && m-- > e;) {
			pc_counter_close(cs->counter[m * cs->nunits + u]);
			cs->counter[m * cs->nunits + u] = NULL;
		}
	}
}

/* Once one counter fell back, every later one opens so at once (and
   the notice is said once). */
static bool user_only;

void cset_open(struct cset *cs, const struct config *cfg, bool on_exec)
{
	bool legacy = cfg->backend == PC_BACKEND_LEGACY;
	size_t alive = 0;

	for (size_t u = 0; u < cs->nunits; u++) {
		const struct unit *un = &cs->units[u];
		struct pc_counter *leader = NULL;
		bool unit_gone = false;

		for (size_t e = 0; e < cs->nev && !unit_gone; e++) {
			const struct pc_event_spec *ev = &cfg->events.ev[e];
			struct perf_event_attr attr = ev->attr;
			bool grouped = cset_grouped(cfg, ev);
			bool member = grouped && !ev->leader;
			struct pc_open_opts how;
			struct pc_counter *c;
			int cg;

			if (member && leader == NULL)
				continue;	/* its leader did not open */
			if (ev->attr.type == PC_TYPE_TOOL) {
				cs->supported[e] = true;	/* cset_tools() */
				continue;
			}
			/* The 2008 call cannot inherit and counts from open
			   (before the child's exec): see cset_enable(). */
			/* Counting, never sampling: a period term
			   (cpu-clock/period=1000/) would only cost. */
			attr.sample_period = 0;
			attr.freq = 0;
			attr.disabled = !member && !legacy;
			attr.enable_on_exec = on_exec && !member && !legacy;
			attr.inherit = !cfg->no_inherit && un->tid >= 0 &&
				       !legacy;
			cg = cgroup_of(cfg, e);
			if (user_only)
				attr.exclude_kernel = attr.exclude_hv = 1;
			/* -G: the cgroup's tasks on this CPU */
			how = PC_OPEN_TASK_CPU(
				cg >= 0 ? cfg->cgroups[cg].fd : un->tid,
				un->cpu, .cgroup = cg >= 0,
				.leader = member ? leader : NULL,
				.backend = cfg->backend,
				.group = grouped && ev->leader);
			c = pc_counter_open(&attr, &how);
			/* perf's fallback: what paranoid 2 allows, opened
			   as the counter refused was (a cgroup's too) */
			if (!c && pc_attr_user_only(&attr, errno)) {
				c = pc_counter_open(&attr, &how);
				if (c && !user_only && !cfg->quiet)
					warn_msg("kernel.perf_event_paranoid is "
						 "%d: counting user space only, "
						 "as with :u (run as root or "
						 "lower it to count the kernel)",
						 pc_probe()->paranoid);
				user_only |= c != NULL;
			}
			if (!grouped || ev->leader)
				leader = NULL;
			if (c == NULL) {
				int err = errno;

				/* A thread of -p that ended since we listed it. */
				if (err == ESRCH && cfg->tids && cs->nunits > 1) {
					unit_gone = true;
					break;
				}
				if (!pc_errno_unsupported(err))
					open_failed(cfg, un, ev, err);
				/* perf refuses a group it cannot lead */
				if (grouped && ev->leader)
					die("the group led by '%s' cannot be "
					    "counted: '%s' is not supported here "
					    "(%s, or lead the group with "
					    "another event)", ev->name, ev->name,
					    cfg->group_all ? "drop -g" :
					    "count it outside {...}");
				continue;
			}
			if (grouped && ev->leader)
				leader = c;
			cs->counter[e * cs->nunits + u] = c;
			cs->supported[e] = true;
		}
		if (!unit_gone)
			drop_broken_groups(cs, cfg, u);
		if (unit_gone) {
			for (size_t e = 0; e < cs->nev; e++) {
				pc_counter_close(cs->counter[e * cs->nunits + u]);
				cs->counter[e * cs->nunits + u] = NULL;
			}
		} else {
			alive++;
		}
	}
	if (alive == 0)
		usage_error("no thread of '%s' is still alive", cfg->pid_str ?
			    cfg->pid_str : cfg->tid_str);
}

/* Apply fn to every counter that leads (a group or itself). */
static void for_each_leader(struct cset *cs, const struct config *cfg,
			    int (*fn)(struct pc_counter *))
{
	for (size_t e = 0; e < cs->nev; e++) {
		const struct pc_event_spec *ev = &cfg->events.ev[e];

		if (cset_grouped(cfg, ev) && !ev->leader)
			continue;
		for (size_t u = 0; u < cs->nunits; u++)
			if (cs->counter[e * cs->nunits + u])
				fn(cs->counter[e * cs->nunits + u]);
	}
}

void cset_enable(struct cset *cs, const struct config *cfg)
{
	size_t n = cs->nev * cs->nunits;

	if (cfg->backend != PC_BACKEND_LEGACY) {
		for_each_leader(cs, cfg, pc_counter_enable);
		return;
	}
	/* No enable ioctl on the 2008 call: what it counted until now is
	   taken off every later read. */
	free(cs->base);
	cs->base = NULL;
	cset_read(cs, cfg);
	cs->base = xmalloc(n * sizeof(*cs->base));
	memcpy(cs->base, cs->cur, n * sizeof(*cs->base));
}

void cset_disable(struct cset *cs, const struct config *cfg)
{
	for_each_leader(cs, cfg, pc_counter_disable);
}

/* A group is read with one read(): its members' counts are consistent. */
static void read_group(struct cset *cs, const struct config *cfg, size_t e,
		       size_t u)
{
	struct pc_count buf[64];
	size_t n = 0, j = 1;
	int got;

	while (e + n < cs->nev && cfg->events.ev[e + n].group ==
				      cfg->events.ev[e].group)
		n++;
	if (n > 64)
		n = 64;
	got = pc_group_read(cs->counter[e * cs->nunits + u], buf, n);
	if (got <= 0)
		return;
	cs->cur[e * cs->nunits + u] = buf[0];
	for (size_t m = e + 1; m < e + n && j < (size_t)got; m++) {
		if (cs->counter[m * cs->nunits + u])
			cs->cur[m * cs->nunits + u] = buf[j++];
	}
}

void cset_read(struct cset *cs, const struct config *cfg)
{
	memset(cs->cur, 0, cs->nev * cs->nunits * sizeof(*cs->cur));
	for (size_t e = 0; e < cs->nev; e++) {
		const struct pc_event_spec *ev = &cfg->events.ev[e];

		for (size_t u = 0; u < cs->nunits; u++) {
			struct pc_counter *c = cs->counter[e * cs->nunits + u];

			if (c == NULL || (cset_grouped(cfg, ev) && !ev->leader))
				continue;
			if (cset_grouped(cfg, ev))
				read_group(cs, cfg, e, u);
			else
				pc_counter_read(c, &cs->cur[e * cs->nunits + u]);
		}
	}
	for (size_t i = 0; cs->base && i < cs->nev * cs->nunits; i++) {
		struct pc_count *c = &cs->cur[i];
		const struct pc_count *b = &cs->base[i];

		if (c->enabled < b->enabled)	/* this read failed */
			memset(c, 0, sizeof(*c));
		else
			*c = (struct pc_count){ c->value - b->value,
				c->enabled - b->enabled,
				c->running - b->running, c->id };
	}
}

void cset_release(struct cset *cs)
{
	/* Members before leaders: close in reverse order. */
	for (size_t i = cs->nev * cs->nunits; i-- > 0;)
		pc_counter_close(cs->counter[i]);
	free(cs->counter);
	free(cs->cur);
	free(cs->base);
	free(cs->supported);
	free(cs->units);
	memset(cs, 0, sizeof(*cs));
}

void cset_tools(struct cset *cs, const struct config *cfg, uint64_t elapsed_ns,
		const struct rusage *ru)
{
	for (size_t e = 0; e < cs->nev; e++) {
		const struct perf_event_attr *a = &cfg->events.ev[e].attr;
		struct pc_count *c = &cs->cur[e * cs->nunits];
		uint64_t v = 0;

		if (a->type != PC_TYPE_TOOL)
			continue;
		if (a->config == PC_TOOL_DURATION_TIME)
			v = elapsed_ns;
		else if (ru && a->config == PC_TOOL_USER_TIME)
			v = (uint64_t)ru->ru_utime.tv_sec * 1000000000u +
			    (uint64_t)ru->ru_utime.tv_usec * 1000u;
		else if (ru && a->config == PC_TOOL_SYSTEM_TIME)
			v = (uint64_t)ru->ru_stime.tv_sec * 1000000000u +
			    (uint64_t)ru->ru_stime.tv_usec * 1000u;
		/* As perf: enabled and running are the value itself, so a
		   zero prints <not counted>. */
		*c = (struct pc_count){ .value = v, .enabled = v, .running = v };
	}
}
