/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample-args.c - the samplers' -c and -F arguments. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <sysapi/probe.h>
#include <sysapi/sysapi.h>

#include "sampling-cli/sample-args.h"
#include "util/die.h"
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

static bool every_event(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT ||
	       a->type == PERF_TYPE_BREAKPOINT;
}

void sample_every_event_set(struct perf_event_attr *attrs, unsigned n)
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

void sample_event_name(const struct pc_event_spec *spec,
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
