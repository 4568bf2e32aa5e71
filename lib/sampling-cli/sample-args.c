/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample-args.c - the samplers' -c, -F, -m and -r arguments. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sysapi/probe.h>
#include <sysapi/sysapi.h>

#include "sampling-cli/sample-args.h"
#include "util/die.h"
#include "util/events.h"
#include "util/parse.h"

uint64_t sample_arg_period(const char *arg)
{
	uint64_t v;

	/* 0 is perf's "no -c": the tool's default rate */
	if (!parse_u64(arg, 0, UINT64_MAX >> 1, &v))
		usage_error("-c wants a count of events (0 for the default), "
			    "not '%s'", arg);
	return v;
}

uint64_t sample_arg_freq(const char *arg)
{
	uint64_t v;

	if (!parse_u64(arg, 1, 1000000000, &v))
		usage_error("-F wants a rate in Hz >= 1, not '%s'", arg);
	return v;
}

uint64_t sample_arg_freq_max(const char *arg)
{
	int max;

	if (strcmp(arg, "max") != 0)
		return sample_arg_freq(arg);
	max = pc_probe()->max_sample_rate;
	if (max < 1)
		usage_error("-F max: cannot read kernel."
			    "perf_event_max_sample_rate (give a rate in Hz)");
	return (uint64_t)max;
}

/* len bytes of p, PAGES or a size (512K), into *pages: false when it
   is neither, or out of bounds. */
static bool ring_part(const char *p, size_t len, uint64_t *pages)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), unit = 0, v;
	char num[32];

	if (!len || len >= sizeof(num))
		return false;
	switch (p[len - 1]) {
	case 'B': case 'b': unit = 1; break;
	case 'K': case 'k': unit = 1 << 10; break;
	case 'M': case 'm': unit = 1 << 20; break;
	case 'G': case 'g': unit = 1 << 30; break;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(unit ? len - 1 : len), p);
	if (!parse_u64(num, 1, unit ? SAMPLE_MAX_RING_PAGES * page / unit
				    : SAMPLE_MAX_RING_PAGES, &v))
		return false;
	*pages = unit ? (v * unit + page - 1) / page : v;
	return true;
}

unsigned sample_arg_ring_pages(const char *arg)
{
	size_t len = strcspn(arg, ",");
	uint64_t v, aux;

	/* PAGES, then perf record's AUX area pages in the same form */
	if (!ring_part(arg, len, &v) ||
	    (arg[len] && !ring_part(arg + len + 1, strlen(arg + len + 1),
				    &aux)))
		usage_error("-m wants data pages per ring from 1 to %u, or a "
			    "size (512K, 2M), not '%s'", SAMPLE_MAX_RING_PAGES,
			    arg);
	while (v & (v - 1))
		v += v & -v;	/* up to a power of two */
	return (unsigned)v;
}

unsigned sample_ring_pages(unsigned asked, enum feed_callgraph cg,
			   unsigned dflt)
{
	return asked ? asked : cg == FEED_CG_DWARF ? 512 : dflt;
}

int sample_arg_realtime(const char *arg)
{
	int lo = sched_get_priority_min(SCHED_FIFO),
	    hi = sched_get_priority_max(SCHED_FIFO), v;

	if (!parse_int(arg, lo, hi, &v))
		usage_error("-r wants a SCHED_FIFO priority from %d to %d, "
			    "not '%s'", lo, hi, arg);
	return v;
}

void sample_realtime_enter(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	/* unprivileged, the kernel allows up to RLIMIT_RTPRIO */
	if (prio && sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		die("-r %d: cannot run at SCHED_FIFO priority %d: %s (needs "
		    "root or CAP_SYS_NICE, or 'ulimit -r' of %d or more)",
		    prio, prio, strerror(errno), prio);
}

void sample_opt_event(void *args, const char *arg)
{
	/* the one parser (and its messages) every tool's -e goes through */
	events_add(&((struct sample_args *)args)->events, arg);
}

void sample_opt_period(void *args, const char *arg)
{
	struct sample_args *a = args;

	a->period = sample_arg_period(arg);
	a->period_set = a->period != 0;
}

void sample_opt_freq(void *args, const char *arg)
{
	struct sample_args *a = args;

	a->freq = sample_arg_freq_max(arg);
	a->freq_set = true;
}

void sample_opt_ring_pages(void *args, const char *arg)
{
	((struct sample_args *)args)->ring_pages = sample_arg_ring_pages(arg);
}

void sample_opt_realtime(void *args, const char *arg)
{
	((struct sample_args *)args)->realtime = sample_arg_realtime(arg);
}

void sample_opt_metric(void *args, const char *arg)
{
	struct sample_args *a = args;

	if (a->nmetric_args == METRICS_MAX)
		usage_error("at most %d --metric", METRICS_MAX);
	a->metric_args[a->nmetric_args++] = (char *)arg;
}
