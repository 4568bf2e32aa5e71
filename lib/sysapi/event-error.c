/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event-error.c - what is wrong with an event list, said where the parser
 * meets it (struct pc_event_error): the position, the cause, the fix.
 * The parser knows what it was reading when it stopped -- a brace, a
 * token's name or its modifiers, a resolver's answer -- so nothing here
 * parses the string again; the only questions asked of the machine are
 * whether a PMU or a tracepoint system of that name exists, for advice.
 * A hint says where the machine keeps the names (sysfs, tracefs), never
 * which program lists them: the caller adds that from e->unknown.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sysapi/event.h>
#include <sysapi/tracepoint.h>
#include "sysapi-internal.h"

#define PMU_DIR "/sys/bus/event_source/devices"
/* The modifiers there are (pc_event_modifiers()), and perf's rule that
   each comes once. */
#define MODS_HINT "use u, k, h, G, H, I, D, e, S, P or W, each once, and " \
		  "up to three p"

void ev_error_set(struct pc_event_error *e, size_t idx, int err,
		  const char *help, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	e->idx = idx;
	e->err = err;
	va_start(ap, fmt);
	vsnprintf(e->str, sizeof(e->str), fmt, ap);
	va_end(ap);
	snprintf(e->help, sizeof(e->help), "%s", help ? help : "");
	e->unknown = PC_EVENT_UNKNOWN_NONE;
}

/* After ev_error_set(): the error is a name nothing knows, of kind what. */
static void unknown_name(struct pc_event_error *e, enum pc_event_unknown what)
{
	if (e)
		e->unknown = what;
}

void ev_error_braces(struct pc_event_error *e, const char *str, size_t idx)
{
	ev_error_set(e, idx, EINVAL, "write groups as {a,b},c",
		     "unbalanced '{' or '}' in event list '%s'", str);
}

void ev_error_modifier(struct pc_event_error *e, const char *tok,
		       size_t len, size_t name_len, size_t mods, size_t idx)
{
	char help[PC_EVENT_ERROR_SIZE];

	/* "name:mods" shows ":mods"; "pmu/terms/mods" shows "mods" */
	snprintf(help, sizeof(help), MODS_HINT ", e.g. '%.*s%su'",
		 (int)name_len, tok, tok[mods - 1] == ':' ? ":" : "");
	if (tok[mods - 1] == ':')
		mods--;
	ev_error_set(e, idx, EINVAL, help, "bad modifier '%.*s' in event "
		     "'%.*s'", (int)(len - mods), tok + mods, (int)len, tok);
}

/* "pmu/terms/": which part is unknown. */
static void unknown_pmu_event(struct pc_event_error *e, const char *tok,
			      size_t len, size_t idx)
{
	size_t plen = strcspn(tok, "/");
	char path[128], help[PC_EVENT_ERROR_SIZE];
	struct perf_event_attr attr;

	/* perf's tracepoint terms are record's (call-graph, stack-size);
	   a count takes none */
	if (memchr(tok, ':', plen)) {
		snprintf(help, sizeof(help), "count it as '%.*s'", (int)plen,
			 tok);
		ev_error_set(e, idx, EINVAL, help, "bad event '%.*s': a "
			     "tracepoint takes no terms between slashes",
			     (int)len, tok);
		return;
	}
	/* a PMU's name is short: a longer one is no PMU's */
	snprintf(path, sizeof(path), PMU_DIR "/%.*s", plen > 64 ? 64 : (int)plen,
		 tok);
	if (access(path, F_OK) == 0) {
		snprintf(help, sizeof(help), "see %s/format and %s/events",
			 path, path);
		ev_error_set(e, idx, EINVAL, help, "bad event '%.*s': a term "
			     "PMU '%.*s' does not have, or a value too wide",
			     (int)len, tok, (int)plen, tok);
	} else if (pc_event_parse_n(tok, plen, &attr, NULL) == 0) {
		ev_error_set(e, idx, EINVAL, NULL, "bad event '%.*s': '%.*s' "
			     "takes only the terms period=, name= and "
			     "config=", (int)len, tok, (int)plen, tok);
	} else {
		snprintf(help, sizeof(help), "no %s: this kernel has no such "
			 "PMU", path);
		ev_error_set(e, idx, EINVAL, help, "unknown PMU '%.*s' in "
			     "'%.*s'", (int)plen, tok, (int)len, tok);
		unknown_name(e, PC_EVENT_UNKNOWN_PMU);
	}
}

/* Whether name (len bytes) is a directory of tracefs' events/: a
   tracepoint system named without one of its events. */
static bool is_tracepoint_system(const char *name, size_t len)
{
	const char *dir = pc_tracefs_dir();
	char path[4096];
	struct stat st;

	if (!dir || len == 0 || len > 64 || name[0] == '.' ||
	    memchr(name, '/', len))
		return false;
	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)len, name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void ev_error_unknown(struct pc_event_error *e, const char *tok, size_t len,
		      size_t resolved_len, size_t idx)
{
	const char *colon = memchr(tok, ':', len);
	char name[PC_EVENT_ERROR_SIZE], help[PC_EVENT_ERROR_SIZE];
	const char *hint;
	struct perf_event_attr scratch = { 0 };

	if (memchr(tok, '/', len)) {
		unknown_pmu_event(e, tok, len, idx);
		return;
	}
	/*
	 * "sys:event" was what the resolver was asked, unless all that
	 * follows the colon are modifiers: then "name:mods" with a name
	 * neither table nor resolver knows.
	 */
	if (colon && (resolved_len < len ||
		      pc_event_modifiers(colon + 1,
					 len - (size_t)(colon + 1 - tok),
					 &scratch) != 0)) {
		const char *tracefs = pc_tracefs_dir();
		size_t sys = (size_t)(colon - tok);

		/* the directory the resolver did not find: SYS/NAME */
		if (tracefs)
			snprintf(help, sizeof(help), "no %s/events/%.*s/%.*s",
				 tracefs, (int)sys, tok,
				 (int)(resolved_len - sys - 1), colon + 1);
		else
			snprintf(help, sizeof(help), "a tracepoint is a "
				 "directory SYS/NAME of tracefs' events/");
		ev_error_set(e, idx, EINVAL, help, "unknown tracepoint '%.*s'",
			     (int)resolved_len, tok);
		unknown_name(e, PC_EVENT_UNKNOWN_TRACEPOINT);
		return;
	}
	snprintf(name, sizeof(name), "%.*s",
		 (int)(colon ? (size_t)(colon - tok) : len), tok);
	if (!colon && is_tracepoint_system(tok, len)) {
		/* is_tracepoint_system() found it under pc_tracefs_dir(),
		   a name of 64 bytes at most */
		snprintf(help, sizeof(help), "its tracepoints are the "
			 "directories of %s/events/%.*s", pc_tracefs_dir(),
			 (int)len, tok);
		ev_error_set(e, idx, EINVAL, help, "'%s' is a tracepoint "
			     "system, not an event: name one of its "
			     "tracepoints as '%s:NAME'", name, name);
		unknown_name(e, PC_EVENT_UNKNOWN_TRACEPOINT);
		return;
	}
	hint = pc_event_suggest(name);
	if (hint) {
		snprintf(help, sizeof(help), "did you mean '%s'?", hint);
		ev_error_set(e, idx, EINVAL, help, "unknown event '%s'", name);
	} else {
		ev_error_set(e, idx, EINVAL, NULL, "unknown event '%s'", name);
	}
	unknown_name(e, PC_EVENT_UNKNOWN_EVENT);
}

void ev_error_resolver(struct pc_event_error *e, const char *str,
		       const char *tok, size_t len, int err, size_t idx)
{
	int n = (int)len;

	if ((err == EACCES || err == EPERM) && memchr(tok, ':', len)) {
		ev_error_set(e, idx, err, "tracefs is root's: run as root, or "
			     "mount it with a group that may read it",
			     "cannot read tracepoint '%.*s' from tracefs: %s",
			     n, tok, strerror(err));
	} else if (err == ENOENT && memchr(tok, ':', len) &&
		   !pc_tracefs_dir()) {
		ev_error_set(e, idx, err, "mount -t tracefs nodev "
			     "/sys/kernel/tracing", "no tracefs to find "
			     "tracepoint '%.*s' in", n, tok);
	} else {
		ev_error_set(e, idx, err, NULL, "cannot parse events '%s': %s",
			     str, strerror(err));
	}
}
