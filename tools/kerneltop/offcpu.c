/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * offcpu.c - kerneltop --off-cpu: the context-switches event and the
 * switch records set up, off-CPU spans (lib/profile/offcpu.h) counted
 * into models of their own, and the three measures a table can show:
 * on-CPU samples, off-CPU nanoseconds, and wall-clock nanoseconds (the
 * on-CPU samples of a time event, each worth its period, with the
 * off-CPU time, on one scale).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "kt.h"
#include "offcpu.h"
#include "options.h"
#include "util/die.h"
#include "util/xmalloc.h"

const char *const kt_measure_names[KT_MEASURES] = {
	"on-CPU", "off-CPU", "wall-clock",
};

static void notice_add(struct kt *kt, const char *msg)
{
	str_join(kt->notice, sizeof(kt->notice), "; ", msg);
}

void offcpu_setup(struct kt *kt)
{
	kt->oc.event = -1;
	kt->nattrs = kt->nevents;
	if (!kt->opt.off_cpu)
		return;
	kt->measure = kt->opt.measure;
	kt->wall_ok = feed_time_event(&kt->attrs[0]);
	if (!kt->wall_ok) {
		notice_add(kt, "wall-clock needs a time event (-e cpu-clock "
			   "or task-clock): on-CPU and off-CPU views only");
		if (kt->measure == KT_WALL)
			kt->measure = KT_OFF_CPU;
	}
	kt->oc_stacks = offcpu_stacks_allowed();
	if (!kt->oc_stacks) {
		notice_add(kt, OFFCPU_NO_STACKS_NOTICE);
		return;
	}
	offcpu_attr(&kt->attrs[kt->nevents], &kt->attrs[0]);
	kt->oc.event = (int)kt->nevents;
	kt->nattrs = kt->nevents + 1;
	snprintf(kt->names[kt->nevents], sizeof(kt->names[0]),
		 "context-switches");
}

static int on_span(void *arg, const struct offcpu_span *sp);

void offcpu_profiles(struct kt *kt, const struct profile_config *config)
{
	/* nanoseconds, on the chains too; the rates are on-CPU's */
	struct profile_config c = *config;

	c.weighted = true;
	c.nmembers = 0;
	c.nmetrics = 0;
	if (!kt->opt.off_cpu)
		return;
	kt->prof[KT_OFF_CPU] = profile_new(&c);
	if (!kt->prof[KT_OFF_CPU] ||
	    (kt->wall_ok && !(kt->prof[KT_WALL] = profile_new(&c))))
		die_nomem();
	kt->oc.m = offcpu_new(on_span, kt);
	if (!kt->oc.m)
		die_nomem();
}

enum kt_measure measure_next(const struct kt *kt, enum kt_measure m)
{
	do
		m = (m + 1) % KT_MEASURES;
	while (!kt->prof[m]);
	return m;
}

/* ns of a span (or of an on-CPU sample) into the profile of measure m. */
static void count_in(struct kt *kt, enum kt_measure m,
		     const struct profile_sample *ps)
{
	int chain;

	if (!kt->prof[m])
		return;
	chain = profile_add(kt->prof[m], ps);
	if (chain < 0)
		die_nomem();
	/* the snapshots hold what the whole-run export does: its measure's */
	if (chain && m == kt->measure)
		exports_every_add_weight(&kt->opt.exports, ps->frames,
					 ps->nframes, ps->top.weight,
					 ps->time);
}

/* A span of off-CPU time: a row named by where it waited. */
static int on_span(void *arg, const struct offcpu_span *sp)
{
	struct kt *kt = arg;
	struct profile_sample ps = {
		.top = {
			.sym = sp->state == OFFCPU_PREEMPTED ? "[preempted]" :
			       sp->where ? sp->where : OFFCPU_LEAF,
			.dso = sp->where ? "[kernel.kallsyms]" : OFFCPU_LEAF,
			.comm = sp->comm,
			.pid = sp->pid, .tid = sp->tid, .mode = 'k',
			.weight = sp->ns, .period = sp->ns, .cause = SYM_OK,
		},
		.frames = sp->frames, .nframes = sp->nframes,
		.time = sp->start,
	};

	if (!sp->ns)
		return 0;
	count_in(kt, KT_OFF_CPU, &ps);
	count_in(kt, KT_WALL, &ps);
	return 0;
}

void offcpu_sample(struct kt *kt, const struct feed_sample *s,
		   const struct profile_sample *ps)
{
	struct profile_sample w = *ps;

	int rc;

	if (!kt->oc.m)
		return;
	rc = offcpu_feed_sample(&kt->oc, s);	/* 1: a switch's stack */
	if (rc < 0)
		die_nomem();
	if (rc || s->event != 0 || !kt->wall_ok)
		return;
	/* a time event's period is the ns it stands for */
	w.top.weight = s->raw->period;
	w.deltas = NULL;
	count_in(kt, KT_WALL, &w);
}

void offcpu_tick(struct kt *kt)
{
	/* a thread blocked through the whole refresh is seen now */
	if (kt->oc.m && offcpu_feed_flush(&kt->oc, kt->newest_ns) != 0)
		die_nomem();
}

void offcpu_header(const struct kt *kt, enum kt_measure m, char *buf,
		   size_t size, size_t *len)
{
	struct offcpu_stats st;

	if (!kt->oc.m)
		return;
	offcpu_stats(kt->oc.m, &st);
	str_append(buf, size, len, "[%s: %s%s, %" PRIu64 " switches lost",
		   kt_measure_names[m], m == KT_ON_CPU ? "samples" : "ns",
		   kt->oc_stacks ? " (switch stacks)" : " (no stacks)",
		   kt->oc.lost);
	/* spans whose switch-in was lost end at the thread's next record */
	if (st.estimated_ns)
		str_append(buf, size, len, ", %.1f%% of off-CPU estimated",
			   100.0 * (double)st.estimated_ns / (double)st.ns);
	str_append(buf, size, len, "]  ");
}

void offcpu_release(struct kt *kt)
{
	offcpu_free(kt->oc.m);
	kt->oc.m = NULL;
}
