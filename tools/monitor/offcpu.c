/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * offcpu.c - monitor --off-cpu: each span a target thread spent off the
 * CPU (lib/profile/offcpu.h) printed as a sample of "off-cpu" whose
 * period is its nanoseconds, counted into the summary's off-CPU table,
 * and into the exports, which then hold wall-clock time: the on-CPU
 * samples of a time event, each worth its period, beside the off-CPU
 * time (pprof: an off-cpu type beside the event's).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "monitor.h"
#include "util/die.h"
#include "util/output.h"
#include "util/xmalloc.h"

void offcpu_events(struct monitor *m)
{
	const struct perf_event_attr *a0 = &m->attrs[0];

	m->oc.event = -1;
	m->nattrs = m->nevents;
	if (!m->off_cpu)
		return;
	m->oc_wall = feed_time_event(a0);
	if (!m->oc_wall && !m->quiet && exports_any(&m->exports))
		warn_msg("wall-clock needs a time event (-e cpu-clock or "
			 "task-clock): the exports hold off-CPU time only");
	m->oc_stacks = offcpu_stacks_allowed();
	if (!m->oc_stacks) {
		if (!m->quiet)
			warn_msg("%s", OFFCPU_NO_STACKS_NOTICE);
		return;
	}
	offcpu_attr(&m->attrs[m->nevents], a0);
	snprintf(m->event_names[m->nevents], sizeof(m->event_names[0]),
		 "context-switches");
	m->oc.event = (int)m->nevents;
	m->nattrs = m->nevents + 1;
}

/* A span: printed as a sample, counted in the summary and the exports. */
static int on_span(void *arg, const struct offcpu_span *sp)
{
	struct monitor *m = arg;
	const char *name = sp->state == OFFCPU_PREEMPTED ? "[preempted]" :
			   sp->where ? sp->where : OFFCPU_LEAF;
	struct sym_result r = {
		.sym = name, .dso = sp->where ? "[kernel.kallsyms]"
					      : OFFCPU_LEAF,
		.kernel = true, .cause = SYM_OK,
	};
	struct monitor_sample s = {
		.time = sp->start, .pid = (uint32_t)sp->pid,
		.tid = (uint32_t)sp->tid, .period = sp->ns,
		.comm = sp->comm ? sp->comm : "[unknown]", .event = "off-cpu",
		.event_field = true, .event_width = m->event_width,
		.script_fields = m->script_fields, .sym = &r,
		.frames = m->callgraph != FEED_CG_NONE ? sp->frames : NULL,
		.nframes = sp->nframes,
	};
	struct profile_sample ps = {
		.top = { .sym = name, .dso = r.dso, .mode = 'k',
			 .weight = sp->ns, .period = sp->ns, .cause = SYM_OK },
		.frames = sp->frames, .nframes = sp->nframes,
		.time = sp->start,
	};

	if (!sp->ns)
		return 0;
	if (m->format != FORMAT_RAW) {
		output_for(m->format)->sample(stdout, &s);
		output_note(stdout);
	}
	if (profile_add(m->oc_prof, &ps) < 0 ||
	    (m->wall_prof && profile_add(m->wall_prof, &ps) < 0))
		die_nomem();
	exports_every_add_weight(&m->exports, sp->frames, sp->nframes,
				 sp->ns, sp->start);
	m->oc_spans++;
	return 0;
}

void offcpu_start(struct monitor *m)
{
	if (!m->off_cpu)
		return;
	/* nanoseconds; the exports' chains: wall-clock where event 0 is
	   time, else off-CPU alone */
	struct profile_config c = { .nevents = 1, .weighted = true };
	bool exports = exports_any(&m->exports);

	m->oc.m = offcpu_new(on_span, m);
	c.chains_all = exports && !m->oc_wall;
	m->oc_prof = profile_new(&c);
	c.chains_all = exports && m->oc_wall;
	if (!m->oc.m || !m->oc_prof ||
	    (c.chains_all && !(m->wall_prof = profile_new(&c))))
		die_nomem();
	feed_on_switch(m->feed, offcpu_feed_on_switch, &m->oc);
	/* the context-switches event is opened disabled: a command's
	   enable_on_exec starts it, a task attached to needs it now */
	if ((!m->command || m->system) && feed_enable(m->feed) != 0)
		die_errno("cannot start the context-switches event");
}

bool offcpu_sample(struct monitor *m, const struct feed_sample *fs)
{
	int rc;

	if (!m->oc.m)
		return false;
	rc = offcpu_feed_sample(&m->oc, fs);	/* 1: a switch's stack */
	if (rc < 0)
		die_nomem();
	return rc == 1;
}

void offcpu_wall_sample(struct monitor *m, const struct profile_sample *ps)
{
	struct profile_sample w = *ps;
	int chain;

	/* wall-clock: a time event's period is its nanoseconds; another
	   event's samples would not add up with time (the profile's rule
	   of the chains) */
	if (!m->wall_prof || ps->top.event != 0)
		return;
	w.top.weight = ps->top.period;
	w.deltas = NULL;
	chain = profile_add(m->wall_prof, &w);
	if (chain < 0)
		die_nomem();
	if (chain)
		exports_every_add_weight(&m->exports, w.frames, w.nframes,
					 w.top.weight, w.time);
}

struct profile *offcpu_export_profile(const struct monitor *m)
{
	if (!m->oc.m)
		return NULL;
	return m->wall_prof ? m->wall_prof : m->oc_prof;
}

void offcpu_end(struct monitor *m)
{
	/* the threads still off the CPU, up to the last record seen */
	if (m->oc.m && offcpu_feed_flush(&m->oc, 0) != 0)
		die_nomem();
}

void offcpu_summary(FILE *out, const struct monitor *m)
{
	struct offcpu_stats st;

	if (!m->oc.m)
		return;
	offcpu_stats(m->oc.m, &st);
	fprintf(out, "%s: off-CPU: %.3f s in %" PRIu64 " spans (%s), %"
		PRIu64 " switch records lost", progname,
		(double)st.ns / 1e9, st.spans,
		m->oc_stacks ? "stacks of the switches" : "no stacks",
		m->oc.lost);
	/* spans whose switch-in was lost end at the thread's next record */
	if (st.estimated_ns)
		fprintf(out, ", %.1f%% of it estimated (%" PRIu64 " spans "
			"ended at their thread's next record)",
			100.0 * (double)st.estimated_ns / (double)st.ns,
			st.estimated);
	fputc('\n', out);
	summary_table(out, m->oc_prof, NULL, 0, m->top, "ns");
}

void offcpu_release(struct monitor *m)
{
	offcpu_free(m->oc.m);
	profile_free(m->oc_prof);
	profile_free(m->wall_prof);
}
