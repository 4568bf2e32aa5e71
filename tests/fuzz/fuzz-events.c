/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-events: event strings, as -e takes them ("a,b:u,{c,d}:k",
 * "pmu/term=v,.../", "sys:event", globs), through
 * pc_event_list_parse_with() with the PMU and tracepoint resolvers on a
 * fake sysfs devices tree and a fake tracefs; and pc_event_parse(),
 * pc_event_name(), pc_event_suggest() on the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <sysapi/sysapi.h>
#include "fuzz.h"

static char devices[128], tracefs[128];

/* The fake trees: PMUs with formats and aliases, tracepoints with ids
   (one without), as the tests of each resolver build them. */
static const struct { const char *path, *text; } tree[] = {
	{ "devices/cpu/type", "4\n" },
	{ "devices/cpu/format/event", "config:0-7\n" },
	{ "devices/cpu/format/umask", "config:8-15\n" },
	{ "devices/cpu/format/edge", "config:18\n" },
	{ "devices/cpu/format/cmask", "config:24-31\n" },
	{ "devices/cpu/format/split", "config:0-3,32-35\n" },
	{ "devices/cpu/format/ldlat", "config1:0-15\n" },
	{ "devices/cpu/format/wide", "config2:0-63\n" },
	{ "devices/cpu/format/bad", "config:70-2\n" },
	{ "devices/cpu/events/cycles-ct", "event=0x3c,umask=0x0\n" },
	{ "devices/cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
	{ "devices/cpu/events/loop", "loop\n" },
	{ "devices/msr/type", "9\n" },
	{ "devices/msr/format/event", "config:0-63\n" },
	{ "devices/msr/events/tsc", "event=0x00\n" },
	{ "devices/msr/events/aperf", "event=0x01\n" },
	{ "devices/msr/events/tsc.unit", "cycles\n" },
	{ "devices/software/type", "1\n" },
	{ "devices/notype/format/event", "config:0-7\n" },
	{ "tracing/events/sched/sched_switch/id", "316\n" },
	{ "tracing/events/sched/sched_wakeup/id", "318\n" },
	{ "tracing/events/sched/sched_process_exec/id", "312\n" },
	{ "tracing/events/syscalls/sys_enter_openat/id", "614\n" },
	{ "tracing/events/syscalls/sys_exit_openat/id", "613\n" },
	{ "tracing/events/syscalls/enable", "0\n" },
	{ "tracing/events/noid/event/format", "name: event\n" },
	{ "tracing/events/bad/event/id", "zz\n" },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *d = fuzz_dir("events");

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < sizeof(tree) / sizeof(*tree); i++)
		fuzz_file(tree[i].path, tree[i].text, strlen(tree[i].text));
	snprintf(devices, sizeof(devices), "%s/devices", d);
	snprintf(tracefs, sizeof(tracefs), "%s/tracing", d);
	return 0;
}

/* As the tools resolve: PMU syntax has a slash, the rest is tracefs's. */
static int resolve(void *arg, const char *name, size_t len,
		   struct pc_event_list *list)
{
	(void)arg;
	if (memchr(name, '/', len))
		return pc_pmu_resolve(devices, name, len, list);
	return pc_tracepoint_resolve(tracefs, name, len, list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_event_list list = { 0 };
	struct perf_event_attr attr;
	char *s = fuzz_string(data, size), buf[128];
	size_t len = strlen(s), pos = (size_t)-1;
	int r;

	/* one event already there: a failed parse must leave it alone */
	FUZZ_CHECK(pc_event_list_parse(&list, "cycles", NULL) == 0);
	r = pc_event_list_parse_with(&list, s, &pos, resolve, NULL);
	if (r == 0) {
		FUZZ_CHECK(list.nr > 1);
		for (size_t i = 0; i < list.nr; i++) {
			const struct pc_event_spec *e = &list.ev[i];

			FUZZ_CHECK(memchr(e->name, '\0', sizeof(e->name)));
			FUZZ_CHECK(e->group >= -1 && e->group < list.ngroups);
			FUZZ_CHECK(!e->leader || e->group >= 0);
			FUZZ_CHECK(e->attr.size == sizeof(e->attr));
			pc_event_name(&e->attr, buf, sizeof(buf));
			FUZZ_CHECK(memchr(buf, '\0', sizeof(buf)));
		}
	} else {
		FUZZ_CHECK(list.nr == 1 && list.ngroups == 0);
		FUZZ_CHECK(errno != 0);
		FUZZ_CHECK(errno != EINVAL || pos <= len);
	}
	pc_event_list_release(&list);

	pos = (size_t)-1;
	if (pc_event_parse(s, &attr, &pos) == 0) {
		pc_event_name(&attr, buf, sizeof(buf));
		FUZZ_CHECK(attr.size == sizeof(attr));
	} else {
		FUZZ_CHECK(pos <= len);
	}
	pc_event_suggest(s);
	free(s);
	return 0;
}
