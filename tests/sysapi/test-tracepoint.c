/*
 * test-tracepoint: tracepoint names and globs to attrs through a fake
 * tracefs tree, by table; and the sorted list.  No kernel needed.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sysapi/sysapi.h>
#include "../check.h"

static char root[64];

static const struct { const char *sys, *ev; int id; } tree[] = {
	{ "sched", "sched_switch", 311 },
	{ "sched", "sched_wakeup", 312 },
	{ "syscalls", "sys_enter_openat", 620 },
	{ "syscalls", "sys_exit_openat", 619 },
	{ "sched-x", "ev", 5 },		/* sorts before "sched:" as one string */
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

static void build_tree(void)
{
	char p[512], id[16];

	snprintf(root, sizeof(root), "/tmp/test-tracepoint.XXXXXX");
	if (mkdtemp(root) == NULL)
		exit(99);
	snprintf(p, sizeof(p), "%s/events", root);
	mkdir(p, 0755);
	for (size_t i = 0; i < sizeof(tree) / sizeof(*tree); i++) {
		snprintf(p, sizeof(p), "%s/events/%s", root, tree[i].sys);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/events/%s/enable", root, tree[i].sys);
		put(p, "0\n");	/* a file beside the event directories */
		snprintf(p, sizeof(p), "%s/events/%s/%s", root, tree[i].sys,
			 tree[i].ev);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/events/%s/%s/id", root, tree[i].sys,
			 tree[i].ev);
		snprintf(id, sizeof(id), "%d\n", tree[i].id);
		put(p, id);
	}
	/* a directory without an id is not an event */
	snprintf(p, sizeof(p), "%s/events/sched/noid", root);
	mkdir(p, 0755);
}

static const struct {
	const char *in;
	int ret;		/* 0, or -1 with errpos */
	size_t errpos;
	const char *names;	/* the events' names, sorted, space-separated */
	const char *configs;	/* their configs in the same order */
	int excl_kernel;	/* of every event */
} cases[] = {
	{ "sched:sched_switch", 0, 0, "sched:sched_switch", "311", 0 },
	/* named as perf names it, without the modifiers */
	{ "sched:sched_switch:u", 0, 0, "sched:sched_switch", "311", 1 },
	{ "sched:*", 0, 0, "sched:sched_switch sched:sched_wakeup", "311 312", 0 },
	{ "sched:*:u", 0, 0, "sched:sched_switch sched:sched_wakeup", "311 312", 1 },
	{ "sys*:sys_enter_open*", 0, 0, "syscalls:sys_enter_openat", "620", 0 },
	{ "syscalls:sys_e*_openat", 0, 0, "syscalls:sys_enter_openat syscalls:sys_exit_openat", "620 619", 0 },
	{ "task-clock,sched:sched_wakeup", 0, 0, "sched:sched_wakeup task-clock", "312 1", 0 },
	{ "{sched:sched_switch,task-clock}", 0, 0, "sched:sched_switch task-clock", "311 1", 0 },
	{ "sched:nosuch", -1, 0, NULL, NULL, 0 },
	{ "sched:noid", -1, 0, NULL, NULL, 0 },
	{ "nosys:*", -1, 0, NULL, NULL, 0 },
	{ "sched:nomatch*", -1, 0, NULL, NULL, 0 },
	{ "task-clock,sched:nosuch", -1, 11, NULL, NULL, 0 },
	{ "sched:sched_switch:q", -1, 19, NULL, NULL, 0 },
	{ "sched:sched_switch:", -1, 19, NULL, NULL, 0 },
	{ "..:sched", -1, 0, NULL, NULL, 0 },
	{ "sched:../sched/sched_switch", -1, 0, NULL, NULL, 0 },
	{ "sched:", -1, 0, NULL, NULL, 0 },
};

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st; (void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_case(size_t i)
{
	struct pc_event_list l = { 0 };
	size_t pos = 12345;
	char names[512] = "", configs[256] = "", *sorted[16];
	int r = pc_event_list_parse_with(&l, cases[i].in, &pos,
					 pc_tracepoint_resolve, root);

	CHECK(r == cases[i].ret, "'%s' returned %d", cases[i].in, r);
	if (r != 0) {
		CHECK(errno == EINVAL && pos == cases[i].errpos && l.nr == 0,
		      "'%s': errno %d, errpos %zu, %zu events", cases[i].in,
		      errno, pos, l.nr);
		pc_event_list_release(&l);	/* storage it grew */
		return;
	}
	for (size_t e = 0; e < l.nr && e < 16; e++)
		sorted[e] = l.ev[e].name;
	qsort(sorted, l.nr, sizeof(*sorted), cmp_str);
	for (size_t e = 0; e < l.nr && e < 16; e++) {
		const struct pc_event_spec *ev = NULL;

		for (size_t k = 0; k < l.nr; k++)
			if (l.ev[k].name == sorted[e])
				ev = &l.ev[k];
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", e ? " " : "", sorted[e]);
		snprintf(configs + strlen(configs),
			 sizeof(configs) - strlen(configs), "%s%llu", e ? " " : "",
			 (unsigned long long)ev->attr.config);
		if (ev->attr.type == PERF_TYPE_TRACEPOINT)
			CHECK(ev->attr.exclude_kernel == cases[i].excl_kernel,
			      "'%s': exclude_kernel %d", cases[i].in,
			      ev->attr.exclude_kernel);
	}
	CHECK(strcmp(names, cases[i].names) == 0, "'%s' gave '%s'",
	      cases[i].in, names);
	CHECK(strcmp(configs, cases[i].configs) == 0, "'%s' configs '%s'",
	      cases[i].in, configs);
	if (strchr(cases[i].in, '{'))
		CHECK(l.ev[0].leader && l.ev[1].group == l.ev[0].group &&
		      l.ev[0].group >= 0, "'%s': not one group", cases[i].in);
	pc_event_list_release(&l);
}

int main(void)
{
	char **names;
	int n;

	build_tree();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		run_case(i);

	/* Without a resolver, a tracepoint is an unknown name. */
	{
		struct pc_event_list l = { 0 };
		size_t pos = 1;

		CHECK(pc_event_list_parse(&l, "sched:sched_switch", &pos) < 0 &&
		      pos == 0, "parsed without a resolver");
	}

	/* The list: "sys:event" sorted as one string, as perf list does. */
	n = pc_tracepoint_list(root, &names);
	CHECK(n == 5, "list gave %d", n);
	if (n == 5) {
		CHECK(!strcmp(names[0], "sched-x:ev") &&
		      !strcmp(names[1], "sched:sched_switch") &&
		      !strcmp(names[4], "syscalls:sys_exit_openat") &&
		      names[5] == NULL, "list order %s %s ... %s", names[0],
		      names[1], names[4]);
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	CHECK(pc_tracepoint_list("/nonexistent", &names) < 0 &&
	      errno == ENOENT, "a missing tracefs: errno %d", errno);

	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return check_done();
}
