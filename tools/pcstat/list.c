/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.c - `pcstat list [FILTER]`: the events pcstat knows, and which work here. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "list.h"

static const char *const type_names[] = {
	[PERF_TYPE_HARDWARE] = "Hardware event",
	[PERF_TYPE_SOFTWARE] = "Software event",
	[PERF_TYPE_HW_CACHE] = "Hardware cache event",
};

static void list_one(FILE *f, const char *name, const char *alias,
		     const struct perf_event_attr *attr)
{
	const char *type = attr->type == PC_TYPE_TOOL ? "Tool event" :
			   attr->type < 4 && type_names[attr->type] ?
			   type_names[attr->type] : "event";
	char buf[128];

	if (alias)
		snprintf(buf, sizeof(buf), "%s OR %s", name, alias);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	fprintf(f, "  %-50s [%s%s]\n", buf, type,
		pc_event_available(attr, NULL) ? "" : ", not supported here");
}

static int cmp_desc(const void *a, const void *b)
{
	return strcmp((*(const struct pc_event_desc *const *)a)->name,
		      (*(const struct pc_event_desc *const *)b)->name);
}

/* The table's events of one type, sorted by name as perf list sorts
   (or in the table's order, as perf lists its tool events). */
static void list_table(FILE *f, uint32_t type, bool sort)
{
	const struct pc_event_desc *d, *rows[64];
	size_t n = 0;

	for (d = pc_event_table(); d->name && n < 64; d++)
		if (d->type == type)
			rows[n++] = d;
	if (sort)
		qsort(rows, n, sizeof(*rows), cmp_desc);
	for (size_t i = 0; i < n; i++) {
		struct perf_event_attr attr = { .size = sizeof(attr),
			.type = rows[i]->type, .config = rows[i]->config };

		list_one(f, rows[i]->name, rows[i]->alias, &attr);
	}
}

static void list_hw(FILE *f) { list_table(f, PERF_TYPE_HARDWARE, true); }

static void list_sw(FILE *f)
{
	list_table(f, PERF_TYPE_SOFTWARE, true);
	list_table(f, PC_TYPE_TOOL, false);	/* perf lists them with sw */
}

static void list_cache(FILE *f)
{
	struct perf_event_attr attr;

	for (const char *const *c = pc_event_cache_names(); *c; c++)
		if (pc_event_parse(*c, &attr, NULL) == 0)
			list_one(f, *c, NULL, &attr);
}

static void list_raw(FILE *f)
{
	fprintf(f, "  %-50s [Raw hardware event descriptor]\n", "rNNN");
}

static void list_tracepoint(FILE *f)
{
	char **names;
	int n = pc_tracepoint_list(NULL, &names);

	if (n < 0) {
		/* A listing of what there is: say why tracepoints are not. */
		warn_msg("no tracepoints listed: %s (%s)", strerror(errno),
			 errno == EACCES ? "tracefs is root's" :
			 "mount -t tracefs nodev /sys/kernel/tracing");
		return;
	}
	for (int i = 0; i < n; i++) {
		fprintf(f, "  %-50s [Tracepoint event]\n", names[i]);
		free(names[i]);
	}
	free(names);
}

static void list_pmu(FILE *f)
{
	char **names;
	int n = pc_pmu_list(NULL, &names);

	for (int i = 0; i < n; i++) {
		fprintf(f, "  %-50s [Kernel PMU event]\n", names[i]);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* `pcstat list FILTER`, perf list's names for the sections. */
static const struct {
	const char *name, *alias;
	void (*fn)(FILE *);
} sections[] = {
	{ "hw", "hardware", list_hw },
	{ "sw", "software", list_sw },
	{ "cache", "hwcache", list_cache },
	{ "pmu", NULL, list_pmu },
	{ "raw", NULL, list_raw },
	{ "tracepoint", NULL, list_tracepoint },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

void list_events(FILE *f, const char *filter)
{
	bool any = false;

	if (filter == NULL)
		fprintf(f, "\nList of pre-defined events (to be used in -e):\n\n");
	for (size_t i = 0; i < NSECTIONS; i++) {
		if (filter && strcmp(filter, sections[i].name) != 0 &&
		    (!sections[i].alias || strcmp(filter, sections[i].alias)))
			continue;
		sections[i].fn(f);
		any = true;
		if (filter == NULL)
			fputc('\n', f);
	}
	if (!any)
		usage_error("pcstat list: unknown filter '%s' (hw, sw, cache, "
			    "pmu, raw or tracepoint)", filter);
}
