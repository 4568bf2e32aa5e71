/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample-setup.c - the samplers' events set up once. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <sysapi/probe.h>
#include <sysapi/sysapi.h>

#include "profile/feed.h"
#include "sampling-cli/sample-setup.h"
#include "util/die.h"
#include "util/events.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static void notice(const struct sample_setup *s, const char *msg)
{
	if (s->notice)
		s->notice(s->notice_arg, msg);
}

/*
 * An event counted in time or in the CPU's own events (the clocks, whose
 * period of 10000 would be 10 us; cycles, instructions, caches, raw and
 * PMU events), which a count of 10000 would sample 100,000 times a
 * second and more; not the software counts and tracepoints.
 */
static bool is_fast(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE)
		return feed_time_event(a);
	return a->type != PERF_TYPE_TRACEPOINT &&
	       a->type != PERF_TYPE_BREAKPOINT;
}

static bool every_event(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT ||
	       a->type == PERF_TYPE_BREAKPOINT;
}

/*
 * Without -c or -F: tracepoints and breakpoints sampled at each
 * occurrence (period 1), as perf record and perf top sample them, in the
 * sample layout of the others (one ring reads them all;
 * PERF_SAMPLE_PERIOD makes the kernel sample a software event at each
 * occurrence, which period 1 does anyway).
 */
static void every_event_set(struct perf_event_attr *attrs, unsigned n)
{
	uint64_t layout = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		if (!every_event(&attrs[i])) {
			layout = attrs[i].sample_type & PERF_SAMPLE_PERIOD;
			break;
		}
	for (i = 0; i < n; i++)
		if (every_event(&attrs[i])) {
			pc_attr_sampling(&attrs[i], 1, false, 0);
			attrs[i].sample_type |= layout;
		}
}

/*
 * The name shown for the event spec became a (after a fallback such as
 * cycles -> cpu-clock): perf's canonical name where the type has one,
 * else the user's spelling (tracepoints, PMU events, which have no name
 * of their own in the attr).
 */
static void event_name(const struct pc_event_spec *spec,
		       const struct perf_event_attr *a, char *buf, size_t sz)
{
	bool named = a->type == PERF_TYPE_HARDWARE ||
		     a->type == PERF_TYPE_SOFTWARE ||
		     a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW;

	if (named || spec->name[0] == '\0' || a->type != spec->attr.type ||
	    a->config != spec->attr.config)
		pc_event_name(a, buf, sz);
	else
		snprintf(buf, sz, "%s", spec->name);
}

/* -F above kernel.perf_event_max_sample_rate: refused, or lowered. */
static void freq_clamp(struct sample_setup *s)
{
	struct sample_args *args = s->args;
	int max = pc_probe()->max_sample_rate;
	char msg[128];

	if (!args->freq_set || max <= 0 || args->freq <= (uint64_t)max)
		return;
	if (s->strict_freq)
		usage_error("-F %" PRIu64 " is above "
			    "kernel.perf_event_max_sample_rate (%d Hz) and "
			    "--strict-freq refuses to lower it", args->freq, max);
	snprintf(msg, sizeof(msg), "-F %" PRIu64 " is above "
		 "kernel.perf_event_max_sample_rate; using %d Hz", args->freq,
		 max);
	notice(s, msg);
	args->freq = (uint64_t)max;
}

void sample_setup(struct sample_setup *s)
{
	const struct sample_args *args = s->args;
	struct pc_event_list *l = &s->args->events;
	bool freq = args->freq_set;
	char msg[128];
	unsigned i;

	if (!l->nr)
		events_add(l, SAMPLE_DEFAULT_EVENT);
	if (l->nr > s->max_events)
		usage_error("at most %u events, not %zu (give fewer to -e)",
			    s->max_events, l->nr);
	s->group_read = metrics_group_read(l);
	if (args->nmetric_args && !s->group_read)
		usage_error("--metric needs the group read at each sample "
			    "(-e '{cpu-clock,page-faults}:S')");
	freq_clamp(s);
	s->nevents = (unsigned)l->nr;
	for (i = 0; i < s->nevents; i++) {
		struct perf_event_attr *a = &s->attrs[i];

		*a = l->ev[i].attr;
		/* the rate said where it was not asked: the default's */
		if (!s->legacy && feed_event_fallback(a)) {
			snprintf(msg, sizeof(msg), "cycles not supported here "
				 "(no hardware PMU); sampling cpu-clock%s",
				 args->period_set || args->freq_set ? "" :
				 " at " STR(SAMPLE_DEFAULT_FREQ) " Hz");
			notice(s, msg);
		}
		if (s->exclude_kernel)
			a->exclude_kernel = a->exclude_hv = 1;
		if (s->exclude_user)
			a->exclude_user = 1;
		if (!args->period_set && !s->legacy &&
		    (!s->slow_period || is_fast(a)))
			freq = true;
	}
	for (i = 0; i < s->nevents; i++)
		pc_attr_sampling(&s->attrs[i],
				 freq ? (args->freq_set ? args->freq
							: SAMPLE_DEFAULT_FREQ)
				      : args->period_set ? args->period
							 : s->slow_period,
				 freq, 0);
	if (!args->period_set && !args->freq_set && !s->legacy)
		every_event_set(s->attrs, s->nevents);
	for (i = 0; i < s->nevents; i++)
		event_name(&l->ev[i], &s->attrs[i], s->names[i],
			   sizeof(s->names[i]));
	if (s->group_read)
		metrics_setup(s->metrics, args->metric_args,
			      args->nmetric_args, l,
			      (const char (*)[SAMPLE_NAME_SIZE])s->names,
			      &s->attrs[0]);
}
