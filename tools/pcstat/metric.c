/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metric.c - perf's derived metrics (stat-shadow.c), as one table. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "metric.h"

#define HW_CACHE(id, op, res) \
	((id) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

/* Which events feed which input. */
static const struct input_rule {
	uint32_t type;
	uint64_t config;
	enum metric_input in;
} inputs[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, MI_NSECS },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, MI_NSECS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, MI_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, MI_BRANCHES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, MI_CACHE_REFS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_L1D, READ, ACCESS), MI_L1D_LOADS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_L1I, READ, ACCESS), MI_L1I_LOADS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_LL, READ, ACCESS), MI_LLC_LOADS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, ACCESS), MI_DTLB_LOADS },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_ITLB, READ, ACCESS), MI_ITLB_LOADS },
};

enum metric_kind {
	MK_CPUS,		/* value / wall time: "CPUs utilized" */
	MK_RATIO,		/* value / input */
	MK_PCT,			/* 100 * value / input */
	MK_PER_NS,		/* value / ns: GHz */
};

/* The metric of each event with one; every other event gets a rate. */
static const struct metric_rule {
	uint32_t type;
	uint64_t config;
	enum metric_kind kind;
	enum metric_input in;
	const char *fmt;
	const char *unit;
} rules[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, MK_CPUS, MI_MAX, "%8.3f", "CPUs utilized" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, MK_CPUS, MI_MAX, "%8.3f", "CPUs utilized" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, MK_PER_NS, MI_NSECS, "%8.3f", "GHz" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, MK_RATIO, MI_CYCLES, "%7.2f ", "insn per cycle" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, MK_PCT, MI_BRANCHES, "%7.2f%%", "of all branches" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, MK_PCT, MI_CACHE_REFS, "%7.2f%%", "of all cache refs" },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_L1D, READ, MISS), MK_PCT, MI_L1D_LOADS, "%7.2f%%", "of all L1-dcache accesses" },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_L1I, READ, MISS), MK_PCT, MI_L1I_LOADS, "%7.2f%%", "of all L1-icache accesses" },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_LL, READ, MISS), MK_PCT, MI_LLC_LOADS, "%7.2f%%", "of all LL-cache accesses" },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, READ, MISS), MK_PCT, MI_DTLB_LOADS, "%7.2f%%", "of all dTLB cache accesses" },
	{ PERF_TYPE_HW_CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_ITLB, READ, MISS), MK_PCT, MI_ITLB_LOADS, "%7.2f%%", "of all iTLB cache accesses" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Modifiers (:u, :k) do not change which metric an event has. */
static bool match(const struct perf_event_attr *attr, uint32_t type,
		  uint64_t config)
{
	return attr->type == type && attr->config == config;
}

bool metric_is_clock(const struct perf_event_attr *attr)
{
	return match(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       match(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

enum metric_input metric_input_of(const struct perf_event_attr *attr)
{
	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++)
		if (match(attr, inputs[i].type, inputs[i].config))
			return inputs[i].in;
	return MI_MAX;
}

void metric_ctx_add(struct metric_ctx *ctx, const struct perf_event_attr *attr,
		    double val)
{
	enum metric_input in = metric_input_of(attr);

	if (in != MI_MAX && !ctx->have[in]) {
		ctx->v[in] = val;
		ctx->have[in] = true;
	}
}

static const struct metric_rule *rule_of(const struct perf_event_attr *attr)
{
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (match(attr, rules[i].type, rules[i].config))
			return &rules[i];
	return NULL;
}

enum metric_input metric_divisor(const struct perf_event_attr *attr)
{
	const struct metric_rule *r = rule_of(attr);

	/* no rule: a rate per second of MI_NSECS; MK_CPUS: per wall time */
	return r == NULL ? MI_NSECS : r->in;
}

/* perf's convert_unit_double(): 1234567/sec -> 1.235 M/sec. */
static void rate(struct metric *m, double val, const struct metric_ctx *ctx)
{
	static const char prefix[] = " KMG";
	double r = ctx->v[MI_NSECS] ? 1e9 * val / ctx->v[MI_NSECS] : 0;
	int i = 0;

	while (i < 3 && r > 1000.0) {
		r /= 1000.0;
		i++;
	}
	if (i)
		snprintf(m->unit_buf, sizeof(m->unit_buf), "%c/sec", prefix[i]);
	else
		snprintf(m->unit_buf, sizeof(m->unit_buf), "/sec");
	m->fmt = "%8.3f";
	m->unit = m->unit_buf;
	m->val = r;
}

int metric_decimals(const struct metric *m)
{
	const char *dot = m->fmt ? strchr(m->fmt, '.') : NULL;

	return dot && dot[1] >= '0' && dot[1] <= '9' ? dot[1] - '0' : 2;
}

void metric_compute(struct metric *m, const struct perf_event_attr *attr,
		    double val, const struct metric_ctx *ctx)
{
	const struct metric_rule *r = rule_of(attr);

	memset(m, 0, sizeof(*m));
	if (r == NULL) {
		if (ctx->have[MI_NSECS])
			rate(m, val, ctx);
		return;
	}
	m->unit = r->unit;
	switch (r->kind) {
	case MK_CPUS:
		if (ctx->wall_ns > 0) {
			m->fmt = r->fmt;
			m->val = val / ctx->wall_ns;
		}
		break;
	case MK_RATIO:
	case MK_PCT:
	case MK_PER_NS:
		if (ctx->have[r->in] && ctx->v[r->in] != 0) {
			m->fmt = r->fmt;
			m->val = val / ctx->v[r->in];
			if (r->kind == MK_PCT)
				m->val *= 100.0;
		}
		break;
	}
}
