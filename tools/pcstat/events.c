/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.c - pcstat's event sets: perf's default set and -d's. */
#include "config.h"

#include "events.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses", NULL,
};

/* perf's -d, -dd, -ddd: each level adds its row to the ones before. */
static const char *const detailed_events[][7] = {
	{ "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
	  "LLC-load-misses", NULL },
	{ "L1-icache-loads", "L1-icache-load-misses", "dTLB-loads",
	  "dTLB-load-misses", "iTLB-loads", "iTLB-load-misses", NULL },
	{ "L1-dcache-prefetches", "L1-dcache-prefetch-misses", NULL },
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

void events_add_detailed(struct pc_event_list *list, int level)
{
	for (int l = 0; l < level && l < 3; l++)
		add_all(list, detailed_events[l]);
}
