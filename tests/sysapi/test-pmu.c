/*
 * test-pmu: "pmu/terms/" to attrs through a fake sysfs devices tree, by
 * table: format bits, aliases, built-in terms, modifiers, errors.
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

static const struct { const char *path, *text; } tree[] = {
	{ "cpu/type", "4\n" },
	{ "cpu/format/event", "config:0-7\n" },
	{ "cpu/format/umask", "config:8-15\n" },
	{ "cpu/format/edge", "config:18\n" },
	{ "cpu/format/cmask", "config:24-31\n" },
	{ "cpu/format/split", "config:0-3,32-35\n" },
	{ "cpu/format/ldlat", "config1:0-15\n" },
	{ "cpu/events/cycles-ct", "event=0x3c,umask=0x0\n" },
	{ "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
	{ "msr/type", "9\n" },
	{ "msr/format/event", "config:0-63\n" },
	{ "msr/events/tsc", "event=0x00\n" },
	{ "msr/events/aperf", "event=0x01\n" },
	{ "msr/events/tsc.unit", "cycles\n" },
	{ "software/type", "1\n" },
};

static void build_tree(void)
{
	char p[512];

	snprintf(root, sizeof(root), "/tmp/test-pmu.XXXXXX");
	if (mkdtemp(root) == NULL)
		exit(99);
	for (size_t i = 0; i < sizeof(tree) / sizeof(*tree); i++) {
		FILE *f;

		snprintf(p, sizeof(p), "%s/%s", root, tree[i].path);
		for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
		f = fopen(p, "w");
		if (f == NULL || fputs(tree[i].text, f) < 0 || fclose(f) != 0)
			exit(99);
	}
}

static const struct {
	const char *in;
	int ret;
	size_t errpos;
	const char *name;
	uint32_t type;
	uint64_t config, config1, period;
	int excl_kernel;
} cases[] = {
	{ "cpu/event=0x3c,umask=0x0/", 0, 0, "cpu/event=0x3c,umask=0x0/", 4, 0x3c, 0, 0, 0 },
	{ "cpu/event=0xc0,umask=0x1,edge,cmask=2/", 0, 0, "cpu/event=0xc0,umask=0x1,edge,cmask=2/", 4, 0x020401c0, 0, 0, 0 },
	{ "cpu/split=0x5a/", 0, 0, "cpu/split=0x5a/", 4, 0x50000000aull, 0, 0, 0 },
	{ "cpu/cycles-ct/", 0, 0, "cpu/cycles-ct/", 4, 0x3c, 0, 0, 0 },
	{ "cpu/mem-loads/", 0, 0, "cpu/mem-loads/", 4, 0x1cd, 3, 0, 0 },
	{ "cpu/mem-loads,ldlat=30/", 0, 0, "cpu/mem-loads,ldlat=30/", 4, 0x1cd, 30, 0, 0 },
	{ "cpu/config=0x1234,config1=7/", 0, 0, "cpu/config=0x1234,config1=7/", 4, 0x1234, 7, 0, 0 },
	{ "cpu/config=010/", 0, 0, "cpu/config=010/", 4, 10, 0, 0, 0 },	/* decimal, as perf reads it */
	{ "cpu/event=0x3c,name=mine/", 0, 0, "mine", 4, 0x3c, 0, 0, 0 },
	{ "cpu/event=0x3c/u", 0, 0, "cpu/event=0x3c/u", 4, 0x3c, 0, 0, 1 },
	{ "cpu/event=0x3c/:u", 0, 0, "cpu/event=0x3c/:u", 4, 0x3c, 0, 0, 1 },
	{ "msr/tsc/", 0, 0, "msr/tsc/", 9, 0, 0, 0, 0 },
	{ "msr/aperf/", 0, 0, "msr/aperf/", 9, 1, 0, 0, 0 },
	{ "software/cpu-clock/", 0, 0, "software/cpu-clock/", 1, PERF_COUNT_SW_CPU_CLOCK, 0, 0, 0 },
	{ "software/config=2/", 0, 0, "software/config=2/", 1, 2, 0, 0, 0 },
	{ "cpu-clock/period=1000/", 0, 0, "cpu-clock/period=1000/", 1, PERF_COUNT_SW_CPU_CLOCK, 0, 1000, 0 },
	{ "task-clock,{cpu/event=0x3c,umask=0x0/,msr/tsc/}", 0, 0, NULL, 0, 0, 0, 0, 0 },
	{ "cpu/event=0x100/", -1, 0, NULL, 0, 0, 0, 0, 0 },	/* wider than 0-7 */
	{ "cpu/nosuch=1/", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "cpu/cycles-ct=1/", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "cpu/event=zz/", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "nopmu/event=1/", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "cpu/event=1", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "cpu/event=1/q", -1, 12, NULL, 0, 0, 0, 0, 0 },
	{ "../cpu/event=1/", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "msr/tsc.unit/", -1, 0, NULL, 0, 0, 0, 0, 0 },
	{ "cpu-clock/event=1/", -1, 0, NULL, 0, 0, 0, 0, 0 },
};

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st; (void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int main(void)
{
	char **names;
	int n;

	build_tree();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct pc_event_list l = { 0 };
		size_t pos = 999;
		int r = pc_event_list_parse_with(&l, cases[i].in, &pos,
						 pc_pmu_resolve, root);
		const struct pc_event_spec *ev = l.ev;

		CHECK(r == cases[i].ret, "'%s' returned %d (errno %d)",
		      cases[i].in, r, errno);
		if (r != 0) {
			CHECK(pos == cases[i].errpos && l.nr == 0,
			      "'%s': errpos %zu, %zu events", cases[i].in, pos,
			      l.nr);
			pc_event_list_release(&l);	/* storage it grew */
			continue;
		}
		if (cases[i].name == NULL) {	/* the list case */
			CHECK(l.nr == 3 && l.ev[1].leader &&
			      l.ev[2].group == l.ev[1].group &&
			      l.ev[2].attr.type == 9 &&
			      !strcmp(l.ev[1].name, "cpu/event=0x3c,umask=0x0/"),
			      "'%s': %zu events", cases[i].in, l.nr);
			pc_event_list_release(&l);
			continue;
		}
		CHECK(l.nr == 1, "'%s': %zu events", cases[i].in, l.nr);
		CHECK(!strcmp(ev->name, cases[i].name), "'%s' named '%s'",
		      cases[i].in, ev->name);
		CHECK(ev->attr.type == cases[i].type && ev->attr.config ==
		      cases[i].config && ev->attr.config1 == cases[i].config1 &&
		      ev->attr.sample_period == cases[i].period &&
		      ev->attr.exclude_kernel == cases[i].excl_kernel,
		      "'%s': type %u config %#llx config1 %#llx period %llu "
		      "exclude_kernel %d", cases[i].in, ev->attr.type,
		      (unsigned long long)ev->attr.config,
		      (unsigned long long)ev->attr.config1,
		      (unsigned long long)ev->attr.sample_period,
		      ev->attr.exclude_kernel);
		pc_event_list_release(&l);
	}

	n = pc_pmu_list(root, &names);
	CHECK(n == 4, "list gave %d", n);
	if (n == 4) {
		CHECK(!strcmp(names[0], "cpu/cycles-ct/") &&
		      !strcmp(names[1], "cpu/mem-loads/") &&
		      !strcmp(names[2], "msr/aperf/") &&
		      !strcmp(names[3], "msr/tsc/") && names[4] == NULL,
		      "list order %s %s %s %s", names[0], names[1], names[2],
		      names[3]);
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return check_done();
}
