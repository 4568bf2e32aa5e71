/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * event.h - event names, as perf spells them, to struct perf_event_attr.
 *
 * Parsing and encoding are pure functions (no system call) so they can be
 * tested by table on any machine; only pc_event_available() asks the kernel.
 */
#ifndef SYSAPI_EVENT_H
#define SYSAPI_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * perf's tool events (duration_time, user_time, system_time): no kernel
 * counter, the tool measures them and reports nanoseconds.  attr.type is
 * PC_TYPE_TOOL, outside the kernel's types; pc_counter_open() refuses it
 * (ENOENT), pc_event_available() says yes.
 */
#define PC_TYPE_TOOL 0x7ffff001u
enum pc_tool_event {
	PC_TOOL_DURATION_TIME = 1,	/* wall-clock time counted */
	PC_TOOL_USER_TIME,		/* the command's user CPU time */
	PC_TOOL_SYSTEM_TIME,		/* the command's system CPU time */
};

/* One row of the table of named events (hardware, software, tool). */
struct pc_event_desc {
	const char *name;	/* perf's canonical name: "cycles" */
	const char *alias;	/* second accepted name, or NULL: "cpu-cycles" */
	uint32_t type;		/* PERF_TYPE_HARDWARE, _SOFTWARE or PC_TYPE_TOOL */
	uint64_t config;
	const char *help;	/* one line of description, for a listing */
};

/*
 * The table of named events, terminated by a row whose name is NULL.
 * Hardware cache events (L1-dcache-load-misses, ...) are not rows: they
 * are composed from pc_event_cache_names(); raw events are "rNNNN".
 */
const struct pc_event_desc *pc_event_table(void);

/*
 * Every hardware cache event name perf accepts in its canonical form
 * ("L1-dcache-loads", "dTLB-load-misses", ...), NULL-terminated.
 */
const char *const *pc_event_cache_names(void);

/*
 * Parse one event "NAME[:MODS]" into *attr: the attr is zeroed, then size,
 * type, config and the exclude_* bits are set; nothing else (no sampling,
 * no read_format).  NAME is a table name or alias, a hardware cache name,
 * or rHEX; MODS is any of u (user), k (kernel), h (hypervisor), p (precise,
 * up to 3), and perf's G (guest only: exclude_host), H (host only:
 * exclude_guest), I (exclude_idle), D (pinned), e (exclusive), and P,
 * S, W (accepted; nothing they mean changes a count).  As in perf, naming any of u/k/h excludes the others.
 *
 * Returns 0, or -1 with errno EINVAL and *errpos (when not NULL) set to the
 * offset in str of the first character that could not be understood.
 */
int pc_event_parse(const char *str, struct perf_event_attr *attr,
		   size_t *errpos);

/* One event of a parsed list. */
struct pc_event_spec {
	struct perf_event_attr attr;
	char name[64];		/* as the user wrote it, modifiers included
				   (not a group's "{...}:mods", which perf
				   stat does not show either); the canonical
				   name when that would not fit */
	int group;		/* which {group} it is in, -1 when alone */
	bool leader;		/* first member of its group */
	bool sample_read;	/* the group's modifiers have perf's S: the
				   leader samples and reads the members
				   ("{cpu-clock,page-faults}:S"); the
				   attr says nothing of it */
};

/* A growable list of parsed events; zero-initialise before first use. */
struct pc_event_list {
	struct pc_event_spec *ev;
	size_t nr;
	size_t alloc;
	int ngroups;
};

/*
 * Parse a comma list with optional groups, "a,b:u,{c,d}:k,rc0" and append
 * to *list (so repeated -e options accumulate).  On error returns -1, errno
 * EINVAL (or ENOMEM), *errpos the offset of the problem in str, and *list
 * is left as it was before the call (a list that held no storage holds
 * none, so a failed first parse needs no release).  A group's modifiers apply to each
 * member as perf applies them: to a member with its own u/k/h they add
 * privilege levels ("{a:u}:k" counts a in user and kernel).
 */
int pc_event_list_parse(struct pc_event_list *list, const char *str,
			size_t *errpos);

/*
 * What kind of name an event list named that nothing knows
 * (pc_event_error.unknown): the library says where the machine keeps such
 * names (sysfs, tracefs), and a program that can list them for its user
 * adds its own pointer to that listing.
 */
enum pc_event_unknown {
	PC_EVENT_UNKNOWN_NONE,		/* the error is not an unknown name */
	PC_EVENT_UNKNOWN_EVENT,		/* no table or resolver knows it */
	PC_EVENT_UNKNOWN_PMU,		/* "pmu/terms/": no such PMU */
	PC_EVENT_UNKNOWN_TRACEPOINT,	/* "sys:name" tracefs does not have,
					   or a tracepoint system alone */
};

/*
 * Where and why an event list could not be parsed, as perf's struct
 * parse_events_error: the parser fills it at the point it stops, so that
 * a tool only prints it -- "str" alone, or "str (help)" when help is not
 * empty:
 *
 *	unknown event 'cylces' (did you mean 'cycles'?)
 *
 * The help names no program: a tool that lists events adds its own
 * pointer where unknown says a name was not found ("see 'pcstat list'").
 */
#define PC_EVENT_ERROR_SIZE 512
struct pc_event_error {
	size_t idx;		/* offset in the string of the problem */
	int err;		/* EINVAL: the string is wrong; else the errno
				   that stopped the parse (ENOMEM; EACCES or
				   ENOENT from a resolver's tracefs...) */
	char str[PC_EVENT_ERROR_SIZE];	/* what is wrong, with the token */
	char help[PC_EVENT_ERROR_SIZE];	/* the fix, or "" */
	int unknown;		/* enum pc_event_unknown; last, so that the
				   fields before it keep their offsets */
};

/*
 * A resolver for names the static tables do not know: append to *list
 * (pc_event_list_add()) each event NAME (len bytes, not terminated, no
 * modifiers) stands for -- a glob may stand for many.  Returns how many
 * it appended, 0 when it knows no such name, or -1 with errno (EACCES,
 * ENOMEM, ...).  arg is the resolver's own; pc_tracepoint_resolve()
 * is one.
 */
typedef int (*pc_event_resolve_fn)(void *arg, const char *name, size_t len,
				   struct pc_event_list *list);

/*
 * pc_event_list_parse(), asking resolve (when not NULL) about a name the
 * tables do not know: "sched:sched_switch", "sched:*", "msr/tsc/", each
 * optionally followed by ":MODS" that apply to every event it stands for.
 * A resolver's error is returned as -1 with its errno (not EINVAL) and
 * *errpos at the name.  One resolved event keeps the user's spelling as
 * its name; a glob's events get the resolver's names.
 */
int pc_event_list_parse_with(struct pc_event_list *list, const char *str,
			     size_t *errpos, pc_event_resolve_fn resolve,
			     void *arg);

/*
 * pc_event_list_parse_with(), saying what is wrong in *err (when not
 * NULL) on failure: -1 with errno err->err.  *list is left as
 * pc_event_list_parse() leaves it.
 */
int pc_event_list_parse_err(struct pc_event_list *list, const char *str,
			    pc_event_resolve_fn resolve, void *arg,
			    struct pc_event_error *err);

/*
 * Append one event, outside any group, named name (cut to fit); for
 * resolvers.  Returns 0, or -1 with errno ENOMEM.
 */
int pc_event_list_add(struct pc_event_list *list, const char *name,
		      const struct perf_event_attr *attr);

/* Free the list's storage; the list is then empty and reusable. */
void pc_event_list_release(struct pc_event_list *list);

/*
 * Write perf's canonical name of attr ("cycles", "LLC-load-misses",
 * "r1c2", modifiers such as ":u" appended) into buf; returns buf.
 */
const char *pc_event_name(const struct perf_event_attr *attr, char *buf,
			  size_t sz);

/*
 * The known event name closest to a misspelled one ("cylces" -> "cycles"),
 * or NULL when nothing is close.  The returned string is static.
 */
const char *pc_event_suggest(const char *bad);

/*
 * Can attr be counted on this machine?  Opens it (disabled) on the
 * calling thread once and caches the answer by type, config and the
 * exclude_user/exclude_kernel/exclude_hv bits: "cycles:u" and "cycles"
 * are asked separately.  Where the kernel refuses it, counting in user
 * space alone is tried, as an unprivileged user would count.  Returns 1,
 * or 0 with *err (when not NULL) set to the errno the kernel gave.
 */
int pc_event_available(const struct perf_event_attr *attr, int *err);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_EVENT_H */
