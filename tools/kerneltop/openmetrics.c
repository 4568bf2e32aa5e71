/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openmetrics.c - kerneltop --openmetrics FILE: the header's figures, and
 * what else says that a profile degrades (lost, unresolved, behind),
 * rewritten each refresh as OpenMetrics (base/openmetrics.h) for a
 * fleet's Prometheus.
 */
#include "config.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/openmetrics.h"
#include "kt.h"
#include "openmetrics.h"

/* How a family's value is read from the session. */
enum kt_metric_kind {
	KM_COUNT,	/* the uint64_t at off */
	KM_CHAIN,	/* the same, with a call graph (-g) only */
	KM_RATIO,	/* uint64_t at off over the one at off2, 0 to 1 */
	KM_REAL,	/* the double at off, times scale */
};

/* A family: its row, and where its value is. */
struct kt_metric {
	const char *name;
	const char *type;	/* "counter" or "gauge" */
	const char *unit;	/* NULL for none */
	const char *help;
	enum kt_metric_kind kind;
	size_t off, off2;	/* in struct kt */
	double scale;		/* KM_REAL: */
	int digits;		/* after the point */
};

#define INFO(f) offsetof(struct kt, info.f)

static const struct kt_metric metrics[] = {
	{ "kerneltop_samples_total", "counter", NULL,
	  "Samples read since kerneltop began, of every event",
	  KM_COUNT, INFO(samples), 0, 0 },
	{ "kerneltop_samples_per_second", "gauge", NULL,
	  "Samples read per second over the last refresh (the header's "
	  "samples/s)", KM_REAL, offsetof(struct kt, rate), 0, 1, 3 },
	{ "kerneltop_lost_samples_total", "counter", NULL,
	  "Samples the kernel dropped since kerneltop began: they came "
	  "faster than read (the header's lost)", KM_COUNT, INFO(lost), 0, 0 },
	{ "kerneltop_throttled_total", "counter", NULL,
	  "Times the kernel throttled a counter for sampling too often "
	  "(the header's throttled)", KM_COUNT, INFO(throttled), 0, 0 },
	{ "kerneltop_unresolved_samples_total", "counter", NULL,
	  "Samples whose address is in no known function",
	  KM_COUNT, INFO(unresolved), 0, 0 },
	{ "kerneltop_unresolved_ratio", "gauge", NULL,
	  "Share of the samples since kerneltop began in no known "
	  "function, 0 to 1 (the header's unresolved)",
	  KM_RATIO, INFO(unresolved), INFO(samples), 0 },
	{ "kerneltop_kernel_ratio", "gauge", NULL,
	  "Share of the last refresh's samples taken in the kernel, 0 to 1 "
	  "(the header's kernel)", KM_REAL, offsetof(struct kt, kernel_pct),
	  0, 0.01, 6 },
	{ "kerneltop_behind_total", "counter", NULL,
	  "Reads of the rings that left records unread: samples come "
	  "faster than kerneltop reads them", KM_COUNT, INFO(cut_short), 0, 0 },
	{ "kerneltop_held_samples", "gauge", NULL,
	  "Samples waiting now for their process's maps",
	  KM_COUNT, INFO(held), 0, 0 },
	{ "kerneltop_malformed_records_total", "counter", NULL,
	  "Records of the rings skipped as malformed",
	  KM_COUNT, INFO(malformed), 0, 0 },
	{ "kerneltop_chain_frames_total", "counter", NULL,
	  "Frames of the call chains read (-g)", KM_CHAIN, INFO(frames), 0, 0 },
	{ "kerneltop_chain_frames_unresolved_total", "counter", NULL,
	  "Frames of the call chains in no known function (-g)",
	  KM_CHAIN, INFO(frames_unresolved), 0, 0 },
	{ "kerneltop_refresh_seconds", "gauge", "seconds",
	  "Length of the last refresh", KM_REAL,
	  offsetof(struct kt, interval_s), 0, 1, 6 },
};

static uint64_t u64_at(const struct kt *kt, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)kt + off, sizeof(v));
	return v;
}

/* m's value now into buf; false when it has none now. */
static bool value(const struct kt *kt, const struct kt_metric *m,
		  char *buf, size_t size)
{
	uint64_t whole;
	double d;

	switch (m->kind) {
	case KM_CHAIN:
		if (kt->opt.callgraph == FEED_CG_NONE)
			return false;
		/* fall through */
	case KM_COUNT:
		snprintf(buf, size, "%" PRIu64, u64_at(kt, m->off));
		return true;
	case KM_RATIO:
		whole = u64_at(kt, m->off2);
		snprintf(buf, size, "%.6f", whole ?
			 (double)u64_at(kt, m->off) / (double)whole : 0);
		return true;
	case KM_REAL:
		memcpy(&d, (const char *)kt + m->off, sizeof(d));
		snprintf(buf, size, "%.*f", m->digits, d * m->scale);
		return true;
	}
	return false;
}

static int fill(FILE *f, void *arg)
{
	const struct kt *kt = arg;
	char val[64];
	size_t i;

	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		const struct kt_metric *m = &metrics[i];

		if (!value(kt, m, val, sizeof(val)))
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
