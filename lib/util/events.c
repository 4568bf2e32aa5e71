/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.c - an -e argument parsed into an event list, or one line that
 * says what is wrong with it (braces, modifier or name) and exit 2.
 * Every tool that takes perf's event syntax goes through here.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/die.h"
#include "util/events.h"
#include "util/xmalloc.h"

/* The modifiers there are, and perf's rule that each comes once. */
#define MODS_HINT "u, k, h, G, H, I, D, e, S, P or W, each once, and up " \
		  "to three p"

/* Say what is wrong at str[pos]: braces, modifier or name. */
static void __attribute__((noreturn))
bad_event(const char *str, size_t pos)
{
	size_t len = strlen(str), b = pos > len ? len : pos, e, slashes;
	int depth = 0;
	struct perf_event_attr attr;
	const char *colon, *hint;
	char *tok, *name;

	for (size_t i = 0; i < len; i++)
		depth += str[i] == '{' ? 1 : str[i] == '}' ? -1 : 0;
	if (depth != 0 || strstr(str, "{{"))
		die_status(2, "unbalanced '{' or '}' in event list '%s' "
			   "(write groups as {a,b},c)", str);
	while (b > 0 && !strchr(",{}", str[b - 1]))
		b--;
	/* to the token's end; a comma between a PMU's slashes is inside */
	for (e = b, slashes = 0; str[e] && (slashes % 2 || !strchr(",{}", str[e]));
	     e++)
		slashes += str[e] == '/';
	if (e == b)
		die_status(2, "empty event name in '%s' (remove the extra "
			   "',' or braces)", str);
	/* whole, however long: a message never stops mid-word (we exit) */
	tok = xasprintf("%.*s", (int)(e - b), str + b);
	/* The library points past the name when the name was understood. */
	if (pos > b && pos <= e) {
		size_t n = pos - b;

		while (n > 0 && tok[n - 1] != ':')
			n--;
		if (n == 0 && strchr(tok, '/')) {	/* "pmu/terms/MODS" */
			n = pos - b;
			while (n > 0 && tok[n - 1] != '/')
				n--;
			die_status(2, "bad modifier '%s' in event '%s' (use "
				   MODS_HINT ", e.g. '%.*su')", tok + n, tok,
				   (int)n, tok);
		}
		if (n > 0) {
			name = xasprintf("%.*s", (int)(n - 1), tok);
			die_status(2, "bad modifier '%s' in event '%s' (use "
				   MODS_HINT ", e.g. '%s:u')", tok + n - 1,
				   tok, name[0] ? name : "{a,b}");
		}
	}
	if (strchr(tok, '/')) {
		char pmu[64], path[128];

		snprintf(pmu, sizeof(pmu), "%.*s", (int)strcspn(tok, "/"), tok);
		/* "sys:name/term/": perf's tracepoint terms are record's
		   (call-graph, stack-size); a count takes none. */
		if (strchr(pmu, ':'))
			die_status(2, "bad event '%s': a tracepoint takes no "
				   "terms between slashes (count it as '%.*s')",
				   tok, (int)strcspn(tok, "/"), tok);
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s",
			 pmu);
		if (access(path, F_OK) < 0 && pc_event_parse(pmu, &attr, NULL) == 0)
			die_status(2, "bad event '%s': '%s' takes only the terms "
				   "period=, name= and config=", tok, pmu);
		if (access(path, F_OK) < 0)
			die_status(2, "unknown PMU '%s' in '%s' (no %s: this "
				   "kernel has no such PMU; see 'pcstat list "
				   "pmu')", pmu, tok, path);
		die_status(2, "bad event '%s': a term PMU '%s' does not have, "
			   "or a value too wide (see %s/format and %s/events)",
			   tok, pmu, path, path);
	}
	colon = strchr(tok, ':');
	/* "sys:event" (a tracepoint) unless what follows is modifiers. */
	if (colon && (strchr(colon + 1, ':') ||
		      colon[1 + strspn(colon + 1, "ukhpGHIDeSPW")] != '\0')) {
		if (strchr(colon + 1, ':'))
			*strchr(colon + 1, ':') = '\0';
		die_status(2, "unknown tracepoint '%s' (see 'pcstat list "
			   "tracepoint')", tok);
	}
	if (colon) {
		*(char *)colon = '\0';
		if (pc_event_parse(tok, &attr, NULL) == 0)
			die_status(2, "bad modifier '%s' in event '%s'",
				   str + b + (colon - tok), tok);
	}
	/* "sched": a tracepoint system, not an event of it */
	if (!colon && pc_tracefs_dir() && strlen(tok) < 64) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/events/%s", pc_tracefs_dir(),
			 tok);
		if (tok[0] != '.' && !strchr(tok, '/') &&
		    stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			die_status(2, "'%s' is a tracepoint system, not an "
				   "event: name one of its tracepoints as "
				   "'%s:NAME' (see 'pcstat list tracepoint')",
				   tok, tok);
	}
	hint = pc_event_suggest(tok);
	if (hint)
		die_status(2, "unknown event '%s' (did you mean '%s'? see "
			   "'pcstat list')", tok, hint);
	die_status(2, "unknown event '%s' (see 'pcstat list')", tok);
}

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
	size_t pos = 0;
	int e;

	if (*str == '\0')
		die_status(2, "empty event list for -e (see 'pcstat list')");
	if (pc_event_list_parse_with(list, str, &pos, resolve_sysfs, NULL) == 0)
		return;
	e = errno;
	if (e == EACCES || e == EPERM)
		die_status(2, "cannot read tracepoint '%.*s' from tracefs: %s "
			   "(tracefs is root's: run as root, or mount it with "
			   "a group that may read it)",
			   (int)strcspn(str + pos, ",{}"), str + pos,
			   strerror(e));
	if (e == ENOENT && strchr(str + pos, ':') && pc_tracefs_dir() == NULL)
		die_status(2, "no tracefs to find tracepoint '%.*s' in "
			   "(mount -t tracefs nodev /sys/kernel/tracing)",
			   (int)strcspn(str + pos, ",{}"), str + pos);
	if (e != EINVAL)
		die_status(2, "cannot parse events '%s': %s", str, strerror(e));
	bad_event(str, pos);
}

