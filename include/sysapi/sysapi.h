/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysapi.h - everything of libsysapi: performance counters in a few lines.
 *
 *	struct perf_event_attr attr;
 *	pc_event_parse("task-clock", &attr, NULL);
 *	struct pc_counter *c = pc_counter_open(&attr, &PC_OPEN_TASK(0));
 *	... work ...
 *	struct pc_count n;
 *	pc_counter_read(c, &n);
 *	pc_counter_close(c);
 *
 * See sysapi(3) and examples/count.c.
 */
#ifndef SYSAPI_SYSAPI_H
#define SYSAPI_SYSAPI_H

#include <sysapi/perf_counter.h>
#include <sysapi/event.h>
#include <sysapi/counter.h>
#include <sysapi/countset.h>
#include <sysapi/ring.h>
#include <sysapi/probe.h>
#include <sysapi/error.h>
#include <sysapi/tracepoint.h>
#include <sysapi/pmu.h>
#include <sysapi/cgroup.h>

#endif /* SYSAPI_SYSAPI_H */
