/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.c - grouped sampling's -e check, --metric and rates for tools. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profile/feed.h"
#include "sampling-cli/metrics.h"
#include "util/die.h"

bool metrics_group_read(const struct pc_event_list *list)
{
	bool any = false;

	for (size_t i = 0; i < list->nr; i++)
		any |= list->ev[i].sample_read;
	if (!any)
		return false;
	if (list->ngroups != 1 || list->ev[0].group != 0 ||
	    list->ev[list->nr - 1].group != 0)
		usage_error("a group read at each sample (:S) is sampled "
			    "alone: give -e one group, e.g. -e "
			    "'{cpu-clock,page-faults}:S'");
	if (list->nr < 2 || list->nr - 1 > RATES_MAX_MEMBERS)
		usage_error("a group read at each sample (:S) needs 1 to %d "
			    "members after its leader, not %zu",
			    RATES_MAX_MEMBERS, list->nr - 1);
	return true;
}

void metrics_setup(struct metrics *ms, char *const *args, unsigned n,
		   const struct pc_event_list *list, const char (*names)[64],
		   const struct perf_event_attr *leader)
{
	const char *nm[1 + RATES_MAX_MEMBERS], *alias[1 + RATES_MAX_MEMBERS];
	unsigned nev = (unsigned)list->nr, i;
	char err[256], def[160];

	memset(ms, 0, sizeof(*ms));
	for (i = 0; i < nev; i++) {
		nm[i] = names[i];
		alias[i] = list->ev[i].name;
	}
	if (n > METRICS_MAX)
		usage_error("at most %d --metric, not %u", METRICS_MAX, n);
	for (i = 0; i < n || (!n && i + 1 < nev); i++) {
		const char *s = args ? args[i] : NULL;

		if (!n) {	/* the default: each member per leader */
			snprintf(def, sizeof(def), "%s/%s", names[i + 1],
				 feed_time_event(leader) ? "ms" : names[0]);
			s = def;
		}
		if (rates_metric_parse(s, nm, alias, nev, feed_time_event(leader),
				       &ms->m[ms->n], err, sizeof(err)) != 0)
			usage_error("%s", err);
		ms->n++;
	}
}

const char *metrics_cell(const struct metrics *ms, unsigned i,
			 const struct rates_est *e, char *buf, size_t size)
{
	char text[64];
	size_t cols;

	if (!e)
		snprintf(text, sizeof(text), "%.*s", METRICS_COLS,
			 i < ms->n ? ms->m[i].name : "");
	else
		rates_est_str(e, text, sizeof(text));
	/* the one character of two bytes there is: U+00B1 */
	cols = strlen(text) - (strstr(text, "\u00b1") != NULL);
	snprintf(buf, size, "%*s%s", cols < METRICS_COLS ?
		 (int)(METRICS_COLS - cols) : 0, "", text);
	return buf;
}
