/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample-args.c - the samplers' -c and -F arguments. */
#include "config.h"

#include <string.h>

#include <sysapi/probe.h>

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
