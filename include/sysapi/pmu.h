/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pmu.h - perf's PMU syntax, "pmu/term=value,.../", from sysfs.
 *
 * Never prints or exits: functions return -1 with errno set.  A devices
 * directory argument lets tests point at a fake tree; NULL means
 * /sys/bus/event_source/devices.  Strings returned are the caller's to
 * free(3).
 */
#ifndef SYSAPI_PMU_H
#define SYSAPI_PMU_H

#include <stddef.h>

#include <sysapi/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A pc_event_resolve_fn for "PMU/TERMS/" (len bytes; arg: the devices
 * directory or NULL).  The PMU's type comes from DEVICES/PMU/type; each
 * term is "config=", "config1=", "config2=", "period=" or "name=" (the
 * event's name), a field of DEVICES/PMU/format ("event=0x3c" sets the
 * bits "config:0-7" names; a field alone sets 1), an alias of
 * DEVICES/PMU/events ("tsc" stands for the terms in events/tsc), or, on
 * the software and hardware PMUs, a name of the event table
 * ("software/cpu-clock/").  Appends one event named as written (or by
 * name=).  Returns 1, 0 when NAME is not of that form or names no PMU
 * here, -1 with errno EINVAL for a term the PMU does not have or a value
 * too wide for its field, ENOMEM.
 */
int pc_pmu_resolve(void *arg, const char *name, size_t len,
		   struct pc_event_list *list);

/*
 * Every event alias of every PMU as "pmu/alias/", sorted as perf list
 * sorts them, into *names (NULL-terminated; free each string and the
 * array).  devices NULL: the system's.  Returns the count, or -1 with
 * errno.
 */
int pc_pmu_list(const char *devices, char ***names);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_PMU_H */
