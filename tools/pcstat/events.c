/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.c - event sets for pcstat and what to say about a bad one. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "util/die.h"
#include "events.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses", NULL,
};

static const char *const detailed_events[] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
	"LLC-load-misses", NULL,
};

/* Say what is wrong at str[pos]: braces, modifier or name. */
static void __attribute__((noreturn))
bad_event(const char *str, size_t pos)
{
	size_t len = strlen(str), b = pos > len ? len : pos, e;
	int depth = 0;
	struct perf_event_attr attr;
	const char *colon, *hint;
	char tok[128];

	for (size_t i = 0; i < len; i++)
		depth += str[i] == '{' ? 1 : str[i] == '}' ? -1 : 0;
	if (depth != 0 || strstr(str, "{{"))
		die_status(2, "unbalanced '{' or '}' in event list '%s' "
			   "(write groups as {a,b},c)", str);
	while (b > 0 && !strchr(",{}", str[b - 1]))
		b--;
	e = b + strcspn(str + b, ",{}");
	if (e == b)
		die_status(2, "empty event name in '%s' (remove the extra "
			   "',' or braces)", str);
	snprintf(tok, sizeof(tok), "%.*s", (int)(e - b), str + b);
	colon = strchr(tok, ':');
	if (colon) {
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)(colon - tok), tok);
		if (pc_event_parse(name, &attr, NULL) == 0)
			die_status(2, "bad modifier '%s' in event '%s' (use "
				   "u, k, h or p, e.g. '%s:u')", colon, tok,
				   name);
		snprintf(tok, sizeof(tok), "%s", name);
	}
	hint = pc_event_suggest(tok);
	if (hint)
		die_status(2, "unknown event '%s' (did you mean '%s'? see "
			   "'pcstat list')", tok, hint);
	die_status(2, "unknown event '%s' (see 'pcstat list')", tok);
}

void events_add(struct pc_event_list *list, const char *str)
{
	size_t pos = 0;

	if (*str == '\0')
		die_status(2, "empty event list for -e (see 'pcstat list')");
	if (pc_event_list_parse(list, str, &pos) < 0)
		bad_event(str, pos);
}

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
