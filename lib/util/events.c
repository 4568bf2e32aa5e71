/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.c - an -e argument parsed into an event list, or the parser's
 * own word on what is wrong with it (struct pc_event_error) and exit 2.
 * Every tool that takes perf's event syntax goes through here.
 */
#include "config.h"

#include <string.h>

#include "util/die.h"
#include "util/events.h"

/* Names beyond the static tables: pmu/terms/ from sysfs, tracepoints
   from tracefs. */
static int resolve_sysfs(void *arg, const char *name, size_t len,
			 struct pc_event_list *list)
{
	(void)arg;
	if (memchr(name, '/', len))
		return pc_pmu_resolve(NULL, name, len, list);
	return pc_tracepoint_resolve(NULL, name, len, list);
}

/* The listing of the names of a kind libsysapi did not find (its hints
   name no program); every tool's user has pcstat. */
static const char *const list_hint[] = {
	[PC_EVENT_UNKNOWN_EVENT] = "see 'pcstat list'",
	[PC_EVENT_UNKNOWN_PMU] = "see 'pcstat list pmu'",
	[PC_EVENT_UNKNOWN_TRACEPOINT] = "see 'pcstat list tracepoint'",
};

void events_add(struct pc_event_list *list, const char *str)
{
	struct pc_event_error e;
	const char *list_see = NULL;

	if (*str == '\0')
		die_status(2, "empty event list for -e (see 'pcstat list')");
	if (pc_event_list_parse_err(list, str, resolve_sysfs, NULL, &e) == 0)
		return;
	if (e.unknown > 0 &&
	    (size_t)e.unknown < sizeof(list_hint) / sizeof(list_hint[0]))
		list_see = list_hint[e.unknown];
	/* "did you mean 'x'? see ...", "no /sys/...: ...; see ..." */
	if (e.help[0] && list_see)
		die_status(2, "%s (%s%s %s)", e.str, e.help,
			   e.help[strlen(e.help) - 1] == '?' ? "" : ";",
			   list_see);
	if (e.help[0] || list_see)
		die_status(2, "%s (%s)", e.str, e.help[0] ? e.help : list_see);
	die_status(2, "%s", e.str);
}
