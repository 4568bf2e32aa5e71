/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample-args.h - the samplers' -c and -F arguments (monitor, kerneltop):
 * one rule and one message each.  For tools: these exit on bad input.
 */
#ifndef SAMPLING_CLI_SAMPLE_ARGS_H
#define SAMPLING_CLI_SAMPLE_ARGS_H

#include <stdint.h>

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

#endif
