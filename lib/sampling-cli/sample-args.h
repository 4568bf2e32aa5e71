/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample-args.h - the samplers' -c and -F arguments (monitor, kerneltop):
 * one rule and one message each.  For tools: these exit on bad input.
 */
#ifndef SAMPLING_CLI_SAMPLE_ARGS_H
#define SAMPLING_CLI_SAMPLE_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include <sysapi/event.h>

/*
 * -c COUNT: events between samples, 1 to 2^63-1, or 0: no -c, the tool's
 * default rate (as perf record and perf top take -c 0); exit 2 otherwise.
 */
uint64_t sample_arg_period(const char *arg);

/* -F HZ: samples a second, 1 to 10^9; exit 2 otherwise. */
uint64_t sample_arg_freq(const char *arg);

/* -F HZ or perf's -F max: kernel.perf_event_max_sample_rate (exit 2
   when it cannot be read). */
uint64_t sample_arg_freq_max(const char *arg);

/*
 * Without -c or -F, after pc_attr_sampling() on each of the n attrs:
 * tracepoints and breakpoints sampled at each occurrence (period 1), as
 * perf record and perf top sample them, in the sample layout of the
 * others (one ring reads them all; PERF_SAMPLE_PERIOD makes the kernel
 * sample a software event at each occurrence, which period 1 does anyway).
 */
void sample_every_event_set(struct perf_event_attr *attrs, unsigned n);

/*
 * The name a sampler shows for the event spec became a (after a fallback
 * such as cycles -> cpu-clock): perf's canonical name where the type has
 * one, else the user's spelling (tracepoints, PMU events, which have no
 * name of their own in the attr).
 */
void sample_event_name(const struct pc_event_spec *spec,
		       const struct perf_event_attr *a, char *buf, size_t sz);

#endif
