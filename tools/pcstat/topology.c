/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.c - CPUs grouped by socket, die, core or NUMA node, from sysfs. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "util/xmalloc.h"
#include "topology.h"

static const struct topo_mode modes[] = {
	{ AGGR_SOCKET, "--per-socket", "socket", "socket" },
	{ AGGR_DIE, "--per-die", "die", "die         " },
	{ AGGR_CORE, "--per-core", "core", "core           " },
	{ AGGR_NODE, "--per-node", "node", "node  " },
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
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s",
		 cpu, file);
	f = fopen(path, "re");
	if (f == NULL || fscanf(f, "%d", &v) != 1)
		die("cannot read %s (a kernel without CPU topology in sysfs?)",
		    path);
	fclose(f);
	return v;
}

/* The cpu's NUMA node: the nodeN entry in its sysfs directory (0 if none). */
static int node_of(int cpu)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int node = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	while (dir && (d = readdir(dir)) != NULL)
		if (!strncmp(d->d_name, "node", 4) &&
		    sscanf(d->d_name + 4, "%d", &node) == 1)
			break;
	if (dir)
		closedir(dir);
	return node;
}

static struct aggr_id cpu_id(enum aggr_mode mode, int cpu)
{
	struct aggr_id id = { -1, -1, -1, -1, 0 };

	if (mode == AGGR_NODE) {
		id.node = node_of(cpu);
		return id;
	}
	id.socket = read_int(cpu, "physical_package_id");
	if (mode == AGGR_DIE || mode == AGGR_CORE)
		id.die = read_int(cpu, "die_id");
	if (mode == AGGR_CORE)
		id.core = read_int(cpu, "core_id");
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
	return x->core - y->core;
}

size_t topo_group(enum aggr_mode mode, const int *cpus, size_t ncpus,
		  struct aggr_id **ids, size_t *unit_slot)
{
	struct aggr_id *v = xcalloc(ncpus ? ncpus : 1, sizeof(*v));
	struct aggr_id *of = xcalloc(ncpus ? ncpus : 1, sizeof(*of));
	size_t n = 0;

	for (size_t i = 0; i < ncpus; i++) {
		size_t j;

		of[i] = cpu_id(mode, cpus[i]);
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
	else
		snprintf(buf, sz, "S%d-D%d-C%d", id->socket, id->die, id->core);
}
