/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.h - pcstat's event sets: -e parsing with diagnostics, defaults. */
#ifndef PCSTAT_EVENTS_H
#define PCSTAT_EVENTS_H

#include <stdbool.h>

#include <sysapi/sysapi.h>

#include "util/events.h"


/* Append perf's default set (cpu-clock for system_wide), and -d's. */
void events_add_default(struct pc_event_list *list, bool system_wide);
void events_add_detailed(struct pc_event_list *list);

#endif
