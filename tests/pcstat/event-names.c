/*
 * event-names: print the names `pcstat list` must show, from libsysapi's
 * own tables: "NAME ALIAS-or-- hw|sw|tool" per pc_event_table() entry, then
 * "NAME - cache" per pc_event_cache_names() entry.
 */
#include <stdio.h>

#include <sysapi/sysapi.h>

int main(void)
{
	for (const struct pc_event_desc *d = pc_event_table(); d->name; d++)
		printf("%s %s %s\n", d->name, d->alias ? d->alias : "-",
		       d->type == PERF_TYPE_SOFTWARE ? "sw" :
		       d->type == PC_TYPE_TOOL ? "tool" : "hw");
	for (const char *const *c = pc_event_cache_names(); *c; c++)
		printf("%s - cache\n", *c);
	return 0;
}
