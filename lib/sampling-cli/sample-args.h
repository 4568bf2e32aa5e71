/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample-args.h - the samplers' -c, -F, -m and -r arguments (monitor,
 * kerneltop): one rule and one message each.  For tools: these exit on
 * bad input.
 */
#ifndef SAMPLING_CLI_SAMPLE_ARGS_H
#define SAMPLING_CLI_SAMPLE_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sysapi/event.h>

#include "profile/feed.h"
#include "sampling-cli/metrics.h"

/*
 * What a sampler's command line asks of the sampling: one struct in
 * each sampler's options, filled by the handlers below (option rows
 * OPT_CALL_ON(T, member, sample_opt_...)) and read by sample_setup().
 */
struct sample_args {
	struct pc_event_list events;	/* -e, parsed; empty: the default */
	uint64_t period, freq;		/* -c, -F */
	bool period_set, freq_set;	/* -c other than 0; -F */
	unsigned ring_pages;		/* -m, 0: none */
	int realtime;			/* -r SCHED_FIFO priority, 0: none */
	char *metric_args[METRICS_MAX];	/* --metric, as given */
	unsigned nmetric_args;
};

/*
 * The option handlers, args a struct sample_args: -e (repeated -e add
 * up), -c, -F, -m, -r, --metric (at most METRICS_MAX).  They exit 2 on
 * bad input, through the functions below.
 */
void sample_opt_event(void *args, const char *arg);
void sample_opt_period(void *args, const char *arg);
void sample_opt_freq(void *args, const char *arg);
void sample_opt_ring_pages(void *args, const char *arg);
void sample_opt_realtime(void *args, const char *arg);
void sample_opt_metric(void *args, const char *arg);

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

/* The most data pages a ring takes (-m): 4 GiB of 4 KiB pages. */
#define SAMPLE_MAX_RING_PAGES (1u << 20)

/*
 * -m PAGES: data pages per ring, 1 to SAMPLE_MAX_RING_PAGES, or perf's
 * size form (512K, 2M, 1G: bytes, rounded up to pages); a count that is
 * not a power of two is rounded up to one, as perf rounds it.  perf
 * record's ",AUX" pages are checked the same way and have no use here.
 * Exit 2 otherwise.
 */
unsigned sample_arg_ring_pages(const char *arg);

/* The data pages per ring: -m's (asked, 0 for none), else 512 for DWARF
   call graphs (a sample carries a stack copy: room for some hundreds),
   else dflt (0: the feed's). */
unsigned sample_ring_pages(unsigned asked, enum feed_callgraph cg,
			   unsigned dflt);

/* -r PRIO: a SCHED_FIFO priority, sched_get_priority_min() to _max()
   (1 to 99); exit 2 otherwise. */
int sample_arg_realtime(const char *arg);

/* -r: the calling process at SCHED_FIFO priority prio (0: nothing to
   do), or exit 1 saying why and the fix. */
void sample_realtime_enter(int prio);

#endif
