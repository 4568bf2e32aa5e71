/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counters.c - pcstat's counters: libsysapi's counting set on its units
   (threads or CPUs), and the tool's own messages and tool events. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	cs->cur = xcalloc(cs->nev * cs->nunits, sizeof(*cs->cur));
	cs->row = xcalloc(cs->nev, sizeof(*cs->row));
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
	/* perf refuses a group it cannot lead (strict_groups) */
	if (ev->group >= 0 && ev->leader && pc_errno_unsupported(err))
		die("the group led by '%s' cannot be counted: '%s' is not "
		    "supported here (%s, or lead the group with another "
		    "event)", ev->name, ev->name, cfg->group_all ? "drop -g" :
		    "count it outside {...}");
	die("cannot count '%s': %s", ev->name, buf);
}

/* Once one counter fell back, every later one opens so at once (and
   the notice is said once), the next runs' too. */
static bool user_only;

void cset_open(struct cset *cs, const struct config *cfg, bool on_exec)
{
	size_t ev, unit;
	int ret, err;

	/* perf stat's groups: all their events counted, or none */
	cs->set = pc_countset_new(&cfg->events, &PC_COUNTSET_OPTS(
		.backend = cfg->backend, .enable_on_exec = on_exec,
		.inherit = !cfg->no_inherit, .user_only = user_only,
		.strict_groups = true));
	if (!cs->set)
		die_nomem();
	for (size_t e = 0; e < cs->nev; e++) {
		int cg = cgroup_of(cfg, e);

		/* -G: the cgroup's tasks on each CPU */
		if (cg >= 0)
			pc_countset_cgroup(cs->set, e, cfg->cgroups[cg].fd);
	}
	for (size_t u = 0; u < cs->nunits; u++)
		if (pc_countset_add(cs->set, cs->units[u].tid,
				    cs->units[u].cpu) < 0)
			die_nomem();
	ret = pc_countset_open(cs->set);
	err = errno;
	if (pc_countset_user_only(cs->set) && !user_only && !cfg->quiet)
		warn_msg("kernel.perf_event_paranoid is %d: counting user "
			 "space only, as with :u (run as root or lower it to "
			 "count the kernel)", pc_probe()->paranoid);
	user_only |= pc_countset_user_only(cs->set);
	if (ret < 0) {
		/* every thread of -p ended since we listed them */
		if (err == ESRCH && cfg->tids && cs->nunits > 1)
			usage_error("no thread of '%s' is still alive",
				    cfg->pid_str ? cfg->pid_str : cfg->tid_str);
		if (pc_countset_failed(cs->set, &ev, &unit) == 0)
			die("cannot count: %s", strerror(err));
		open_failed(cfg, &cs->units[unit], &cfg->events.ev[ev], err);
	}
	for (size_t e = 0; e < cs->nev; e++)
		cs->supported[e] = cfg->events.ev[e].attr.type == PC_TYPE_TOOL ||
				   pc_countset_supported(cs->set, e);
}

void cset_enable(struct cset *cs, const struct config *cfg)
{
	(void)cfg;
	/* the 2008 call: the library takes the counts so far off */
	(void)pc_countset_enable(cs->set);
}

void cset_disable(struct cset *cs, const struct config *cfg)
{
	(void)cfg;
	(void)pc_countset_disable(cs->set);
}

void cset_read(struct cset *cs, const struct config *cfg)
{
	(void)cfg;
	/* a counter that could not be read reads 0, not counted */
	for (size_t u = 0; u < cs->nunits; u++) {
		(void)pc_countset_read(cs->set, u, cs->row);
		for (size_t e = 0; e < cs->nev; e++)
			cs->cur[e * cs->nunits + u] = cs->row[e];
	}
}

void cset_release(struct cset *cs)
{
	pc_countset_free(cs->set);
	free(cs->cur);
	free(cs->row);
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
