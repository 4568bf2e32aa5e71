/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-topology: --per-cache's grouping on a sysfs tree of the test's own
 * (the machine's may have no cache directories at all, as in a VM): four
 * CPUs of one die, private L1d/L1i, an L2 per pair, one L3.  Expected ids
 * are later perf's: socket, die, level, and the first CPU sharing the
 * cache; -1s where sysfs says nothing.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topology.h"
#include "../check.h"

static char root[64];

static int rm_one(const char *path, const struct stat *sb, int type,
		  struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

static void put(const char *rel, const char *text)
{
	char path[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = strchr(path + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			SKIP("cannot make %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	if (f == NULL)
		SKIP("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void make_tree(void)
{
	static const char *const l2[] = { "0-1", "0-1", "2-3", "2-3" };
	char rel[128], cpu[8];

	for (int c = 0; c < 4; c++) {
		snprintf(cpu, sizeof(cpu), "%d", c);
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
		put(rel, "0");
		snprintf(rel, sizeof(rel), "cpu%d/topology/die_id", c);
		put(rel, "0");
		snprintf(rel, sizeof(rel), "cpu%d/topology/core_id", c);
		put(rel, cpu);
		for (int i = 0; i < 4; i++) {
			static const char *const lvl[] = { "1", "1", "2", "3" };
			const char *share = i < 2 ? cpu : i == 2 ? l2[c] : "0-3";

			snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/level", c, i);
			put(rel, lvl[i]);
			snprintf(rel, sizeof(rel),
				 "cpu%d/cache/index%d/shared_cpu_list", c, i);
			put(rel, share);
		}
	}
	/* cpu4: no cache directory, as in a VM */
	put("cpu4/topology/physical_package_id", "0");
	put("cpu4/topology/die_id", "0");
}

/* The labels of topo_group(AGGR_CACHE, level, cpus), "label/nr ..." */
static void groups(int level, const int *cpus, size_t n, char *out, size_t sz)
{
	struct aggr_id *ids;
	size_t slot[8], ng = topo_group(AGGR_CACHE, level, cpus, n, &ids, slot);

	out[0] = '\0';
	for (size_t g = 0; g < ng; g++) {
		char label[64];

		topo_label(AGGR_CACHE, &ids[g], label, sizeof(label));
		snprintf(out + strlen(out), sz - strlen(out), "%s%s/%d",
			 g ? " " : "", label, ids[g].nr);
	}
	free(ids);
}

int main(void)
{
	static const int all[] = { 0, 1, 2, 3 }, odd[] = { 3, 1 }, vm[] = { 4 };
	static const struct {
		int level;
		const int *cpus;
		size_t n;
		const char *want;
	} cases[] = {
		{ 0, all, 4, "S0-D0-L3-ID0/4" },	/* the last level */
		{ 3, all, 4, "S0-D0-L3-ID0/4" },
		{ 2, all, 4, "S0-D0-L2-ID0/2 S0-D0-L2-ID2/2" },
		{ 1, all, 4, "S0-D0-L1-ID0/1 S0-D0-L1-ID1/1 S0-D0-L1-ID2/1 S0-D0-L1-ID3/1" },
		{ 2, odd, 2, "S0-D0-L2-ID0/1 S0-D0-L2-ID2/1" },	/* sorted */
		{ 4, all, 4, "S0-D0-L4-ID-1/4" },	/* no such level */
		{ 0, vm, 1, "S0-D0-L-1-ID-1/1" },	/* no cache in sysfs */
	};
	char got[256];

	snprintf(root, sizeof(root), "/tmp/test-topology.XXXXXX");
	if (mkdtemp(root) == NULL)
		SKIP("no temporary directory");
	make_tree();
	topo_sysfs = root;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		groups(cases[i].level, cases[i].cpus, cases[i].n, got,
		       sizeof(got));
		CHECK(strcmp(got, cases[i].want) == 0,
		      "--per-cache=L%d: '%s', want '%s'", cases[i].level, got,
		      cases[i].want);
	}
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return check_done();
}
