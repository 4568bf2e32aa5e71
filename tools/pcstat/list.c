/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.c - `pcstat list`: the events pcstat knows, and which work here. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "list.h"

static const char *const type_names[] = {
	[PERF_TYPE_HARDWARE] = "Hardware event",
	[PERF_TYPE_SOFTWARE] = "Software event",
	[PERF_TYPE_HW_CACHE] = "Hardware cache event",
};

static void list_one(FILE *f, const char *name, const char *alias,
		     const struct perf_event_attr *attr)
{
	char buf[128];

	if (alias)
		snprintf(buf, sizeof(buf), "%s OR %s", name, alias);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	fprintf(f, "  %-48s [%s%s]\n", buf,
		attr->type < 4 && type_names[attr->type] ? type_names[attr->type]
							  : "event",
		pc_event_available(attr, NULL) ? "" : ", not supported here");
}

void list_events(FILE *f)
{
	const struct pc_event_desc *d;
	const char *const *cache;
	struct perf_event_attr attr;

	fprintf(f, "\nList of pre-defined events (to be used in -e):\n\n");
	for (d = pc_event_table(); d->name; d++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = d->type;
		attr.config = d->config;
		list_one(f, d->name, d->alias, &attr);
	}
	fputc('\n', f);
	for (cache = pc_event_cache_names(); *cache; cache++)
		if (pc_event_parse(*cache, &attr, NULL) == 0)
			list_one(f, *cache, NULL, &attr);
	fprintf(f, "\n  %-48s [Raw hardware event descriptor]\n\n", "rNNN");
}
