/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.c - CPUs grouped by socket, die, core or NUMA node, from sysfs. */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysapi/sysapi.h>

#include "util/cpu-topo.h"
#include "util/die.h"
#include "util/xmalloc.h"
#include "topology.h"

const char *topo_sysfs = CPU_TOPO_SYSFS;

static const struct topo_mode modes[] = {
	{ AGGR_SOCKET, "--per-socket", "socket", "socket" },
	{ AGGR_DIE, "--per-die", "die", "die         " },
	{ AGGR_CORE, "--per-core", "core", "core           " },
	{ AGGR_NODE, "--per-node", "node", "node  " },
	{ AGGR_CACHE, "--per-cache", "cache", "cache                 " },
};

const struct topo_mode *topo_mode(enum aggr_mode mode)
{
	for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++)
		if (modes[i].mode == mode)
			return &modes[i];
	return NULL;
}

static int read_int(int cpu, const char *file)
{
	int v;

	if (cpu_topo_id(topo_sysfs, cpu, file, &v) != 0)
		die("cannot read %s/cpu%d/topology/%s (a kernel without CPU "
		    "topology in sysfs?)", topo_sysfs, cpu, file);
	return v;
}

/* The cpu's NUMA node: the nodeN entry in its sysfs directory (0 if none). */
static int node_of(int cpu)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int node = 0;

	snprintf(path, sizeof(path), "%s/cpu%d", topo_sysfs, cpu);
	dir = opendir(path);
	while (dir && (d = readdir(dir)) != NULL)
		if (!strncmp(d->d_name, "node", 4) &&
		    sscanf(d->d_name + 4, "%d", &node) == 1)
			break;
	if (dir)
		closedir(dir);
	return node;
}

/* The first line of path into buf; -1 when it cannot be read. */
static int read_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "re");
	int ok = f && fgets(buf, (int)sz, f);

	if (f)
		fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The first CPU of a sysfs CPU list ("0-3,8"), or -1 when empty. */
static int first_cpu(const char *list)
{
	int *cpus, n = pc_cpulist_parse(list, &cpus, NULL), first = -1;

	for (int i = 0; i < n; i++)
		if (first < 0 || cpus[i] < first)
			first = cpus[i];
	if (n > 0)
		free(cpus);
	return first;
}

/*
 * Later perf's cpu__get_cache_details(): of cpuN/cache/index0..3, the
 * highest level (the first index with it) when level is 0, else the last
 * index of that level; the instance is the first CPU sharing it.  No such
 * cache: the level asked and instance -1, as perf prints them.
 */
static void cache_of(int cpu, int level, struct aggr_id *id)
{
	int best_lvl = -1;

	id->cache_lvl = level;
	id->cache = -1;
	for (int i = 0; i < 4; i++) {
		char path[PATH_MAX], buf[4096];
		int lvl;

		snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/level",
			 topo_sysfs, cpu, i);
		if (read_line(path, buf, sizeof(buf)) < 0) {
			if (i == 0)	/* no cache in sysfs (a VM): */
				id->cache_lvl = -1;	/* perf's empty id */
			return;
		}
		lvl = atoi(buf);
		if (level ? lvl != level : lvl <= best_lvl)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/"
			 "shared_cpu_list", topo_sysfs, cpu, i);
		if (read_line(path, buf, sizeof(buf)) < 0)
			die("cannot read %s", path);
		best_lvl = lvl;
		id->cache_lvl = lvl;
		id->cache = first_cpu(buf);
		if (id->cache < 0)
			id->cache = cpu;
	}
}

static struct aggr_id cpu_id(enum aggr_mode mode, int cache_level, int cpu)
{
	struct aggr_id id = { -1, -1, -1, -1, -1, -1, 0 };

	if (mode == AGGR_NODE) {
		id.node = node_of(cpu);
		return id;
	}
	id.socket = read_int(cpu, "physical_package_id");
	if (mode == AGGR_DIE || mode == AGGR_CORE || mode == AGGR_CACHE)
		id.die = read_int(cpu, "die_id");
	if (mode == AGGR_CORE)
		id.core = read_int(cpu, "core_id");
	if (mode == AGGR_CACHE)
		cache_of(cpu, cache_level, &id);
	return id;
}

static int cmp_id(const void *a, const void *b)
{
	const struct aggr_id *x = a, *y = b;

	if (x->node != y->node)
		return x->node - y->node;
	if (x->socket != y->socket)
		return x->socket - y->socket;
	if (x->die != y->die)
		return x->die - y->die;
	if (x->cache_lvl != y->cache_lvl)
		return x->cache_lvl - y->cache_lvl;
	if (x->cache != y->cache)
		return x->cache - y->cache;
	return x->core - y->core;
}

size_t topo_group(enum aggr_mode mode, int cache_level, const int *cpus,
		  size_t ncpus,
		  struct aggr_id **ids, size_t *unit_slot)
{
	struct aggr_id *v = xcalloc(ncpus ? ncpus : 1, sizeof(*v));
	struct aggr_id *of = xcalloc(ncpus ? ncpus : 1, sizeof(*of));
	size_t n = 0;

	for (size_t i = 0; i < ncpus; i++) {
		size_t j;

		of[i] = cpu_id(mode, cache_level, cpus[i]);
		for (j = 0; j < n && cmp_id(&v[j], &of[i]); j++)
			;
		if (j == n)
			v[n++] = of[i];
		v[j].nr++;
	}
	qsort(v, n, sizeof(*v), cmp_id);
	for (size_t i = 0; i < ncpus; i++)
		for (size_t j = 0; j < n; j++)
			if (cmp_id(&v[j], &of[i]) == 0)
				unit_slot[i] = j;
	free(of);
	*ids = v;
	return n;
}

void topo_label(enum aggr_mode mode, const struct aggr_id *id, char *buf,
		size_t sz)
{
	if (mode == AGGR_NODE)
		snprintf(buf, sz, "N%d", id->node);
	else if (mode == AGGR_SOCKET)
		snprintf(buf, sz, "S%d", id->socket);
	else if (mode == AGGR_DIE)
		snprintf(buf, sz, "S%d-D%d", id->socket, id->die);
	else if (mode == AGGR_CACHE)
		snprintf(buf, sz, "S%d-D%d-L%d-ID%d", id->socket, id->die,
			 id->cache_lvl, id->cache);
	else
		snprintf(buf, sz, "S%d-D%d-C%d", id->socket, id->die, id->core);
}
