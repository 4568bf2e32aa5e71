/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.c - pcstat's event sets: perf's default set and -d's. */
#include "config.h"

#include "events.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses", NULL,
};

static const char *const detailed_events[] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
	"LLC-load-misses", NULL,
};

static void add_all(struct pc_event_list *list, const char *const *names)
{
	for (; *names; names++)
		events_add(list, *names);
}

void events_add_default(struct pc_event_list *list, bool system_wide)
{
	events_add(list, system_wide ? "cpu-clock" : default_events[0]);
	add_all(list, default_events + 1);
}

void events_add_detailed(struct pc_event_list *list)
{
	add_all(list, detailed_events);
}
