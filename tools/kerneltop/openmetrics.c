/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openmetrics.c - kerneltop --openmetrics FILE: the header's figures, and
 * what else says that a profile degrades (lost, unresolved, behind),
 * rewritten each refresh as OpenMetrics (base/openmetrics.h) for a
 * fleet's Prometheus.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "base/openmetrics.h"
#include "kerneltop.h"

/* A family: its row, and its value now into buf (false: none now). */
struct kt_metric {
	const char *name;
	const char *type;	/* "counter" or "gauge" */
	const char *unit;	/* NULL for none */
	const char *help;
	bool (*value)(const struct kt *kt, char *buf, size_t size);
};

static bool count(char *buf, size_t size, uint64_t v)
{
	snprintf(buf, size, "%" PRIu64, v);
	return true;
}

static bool ratio(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	snprintf(buf, size, "%.6f", whole ? (double)part / (double)whole : 0);
	return true;
}

static bool v_samples(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.samples);
}

static bool v_rate(const struct kt *kt, char *buf, size_t size)
{
	snprintf(buf, size, "%.3f", kt->rate);
	return true;
}

static bool v_lost(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.lost);
}

static bool v_throttled(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.throttled);
}

static bool v_unresolved(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.unresolved);
}

static bool v_unresolved_ratio(const struct kt *kt, char *buf, size_t size)
{
	return ratio(buf, size, kt->info.unresolved, kt->info.samples);
}

static bool v_kernel_ratio(const struct kt *kt, char *buf, size_t size)
{
	snprintf(buf, size, "%.6f", kt->kernel_pct / 100);
	return true;
}

static bool v_behind(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.cut_short);
}

static bool v_held(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.held);
}

static bool v_malformed(const struct kt *kt, char *buf, size_t size)
{
	return count(buf, size, kt->info.malformed);
}

static bool v_frames(const struct kt *kt, char *buf, size_t size)
{
	return kt->opt.callgraph != FEED_CG_NONE &&
	       count(buf, size, kt->info.frames);
}

static bool v_frames_unresolved(const struct kt *kt, char *buf, size_t size)
{
	return kt->opt.callgraph != FEED_CG_NONE &&
	       count(buf, size, kt->info.frames_unresolved);
}

static bool v_refresh(const struct kt *kt, char *buf, size_t size)
{
	snprintf(buf, size, "%.6f", kt->interval_s);
	return true;
}

static const struct kt_metric metrics[] = {
	{ "kerneltop_samples_total", "counter", NULL,
	  "Samples read since kerneltop began, of every event", v_samples },
	{ "kerneltop_samples_per_second", "gauge", NULL,
	  "Samples read per second over the last refresh (the header's "
	  "samples/s)", v_rate },
	{ "kerneltop_lost_samples_total", "counter", NULL,
	  "Samples the kernel dropped since kerneltop began: they came "
	  "faster than read (the header's lost)", v_lost },
	{ "kerneltop_throttled_total", "counter", NULL,
	  "Times the kernel throttled a counter for sampling too often "
	  "(the header's throttled)", v_throttled },
	{ "kerneltop_unresolved_samples_total", "counter", NULL,
	  "Samples whose address is in no known function", v_unresolved },
	{ "kerneltop_unresolved_ratio", "gauge", NULL,
	  "Share of the samples since kerneltop began in no known "
	  "function, 0 to 1 (the header's unresolved)", v_unresolved_ratio },
	{ "kerneltop_kernel_ratio", "gauge", NULL,
	  "Share of the last refresh's samples taken in the kernel, 0 to 1 "
	  "(the header's kernel)", v_kernel_ratio },
	{ "kerneltop_behind_total", "counter", NULL,
	  "Reads of the rings that left records unread: samples come "
	  "faster than kerneltop reads them", v_behind },
	{ "kerneltop_held_samples", "gauge", NULL,
	  "Samples waiting now for their process's maps", v_held },
	{ "kerneltop_malformed_records_total", "counter", NULL,
	  "Records of the rings skipped as malformed", v_malformed },
	{ "kerneltop_chain_frames_total", "counter", NULL,
	  "Frames of the call chains read (-g)", v_frames },
	{ "kerneltop_chain_frames_unresolved_total", "counter", NULL,
	  "Frames of the call chains in no known function (-g)",
	  v_frames_unresolved },
	{ "kerneltop_refresh_seconds", "gauge", "seconds",
	  "Length of the last refresh", v_refresh },
};

static int fill(FILE *f, void *arg)
{
	const struct kt *kt = arg;
	char val[64];
	size_t i;

	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		const struct kt_metric *m = &metrics[i];

		if (!m->value(kt, val, sizeof(val)))
			continue;
		openmetrics_family(f, m->name, m->type, m->unit, m->help);
		if (openmetrics_sample(f, m->name, NULL, 0, val) != 0)
			return -1;
	}
	return 0;
}

int kt_openmetrics_write(struct kt *kt)
{
	return openmetrics_write(kt->opt.openmetrics, fill, kt);
}
