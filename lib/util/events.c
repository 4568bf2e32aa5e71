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

void events_add(struct pc_event_list *list, const char *str)
{
	struct pc_event_error e;

	if (*str == '\0')
		die_status(2, "empty event list for -e (see 'pcstat list')");
	if (pc_event_list_parse_err(list, str, resolve_sysfs, NULL, &e) == 0)
		return;
	if (e.help[0])
		die_status(2, "%s (%s)", e.str, e.help);
	die_status(2, "%s", e.str);
}
