/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample-setup.h - the samplers' one set-up of their events (monitor,
 * kerneltop): -e into attrs, the default event and its fallback, -c or
 * -F (lowered to the kernel's limit), tracepoints and breakpoints at
 * each occurrence, the names shown, and a group read with --metric.
 * For tools: it says its notices through the tool and exits 2 on a
 * command line that cannot be sampled.
 */
#ifndef SAMPLING_CLI_SAMPLE_SETUP_H
#define SAMPLING_CLI_SAMPLE_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include <sysapi/event.h>

#include "sampling-cli/metrics.h"
#include "sampling-cli/sample-args.h"

/* The event sampled without -e, and the rate without -c or -F: perf's. */
#define SAMPLE_DEFAULT_EVENT "cycles"
#define SAMPLE_DEFAULT_FREQ 4000
/* The room for an event's name as shown. */
#define SAMPLE_NAME_SIZE 64

struct sample_setup {
	/* what the command line asked */
	struct sample_args *args;	/* -e (empty: cycles), -c, -F,
					   --metric; -F lowered here */
	unsigned max_events;		/* room in attrs, names: more is
					   refused */
	bool strict_freq;		/* -F above the kernel's limit is
					   refused, not lowered */
	uint64_t slow_period;		/* without -c or -F, where no event
					   counts time or the CPU's events
					   (the clocks, cycles, raw, PMU):
					   this period, the 2008 demo's;
					   0: SAMPLE_DEFAULT_FREQ always */
	bool legacy;			/* the 2008 call: periods only (-F
					   aside), no fallback */
	bool exclude_kernel, exclude_user;	/* user or kernel only */
	/* a notice (a fallback, a rate lowered), said as the tool says
	   them; NULL: none */
	void (*notice)(void *arg, const char *msg);
	void *notice_arg;

	/* what sample_setup() makes */
	struct perf_event_attr *attrs;	/* room for max_events */
	char (*names)[SAMPLE_NAME_SIZE];	/* the events as shown */
	unsigned nevents;
	bool group_read;		/* -e '{a,b}:S' */
	struct metrics *metrics;	/* set up with group_read:
					   metrics_release() it */
};

/*
 * Fill s's attrs and names from what it asked, in one order for every
 * sampler: the default event where -e gave none; exit 2 on more than
 * max_events, on --metric without a group read, on -F above
 * kernel.perf_event_max_sample_rate with strict_freq (else lowered to
 * it with a notice, and s->args->freq with it); cycles falls back to
 * cpu-clock where there is no hardware PMU (with a notice); the rate;
 * tracepoints and breakpoints at each occurrence without -c or -F, as
 * perf record and perf top sample them; the names; the metrics.
 */
void sample_setup(struct sample_setup *s);

#endif
