/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu-topo.c - a CPU's socket, die and core ids from sysfs (cpu-topo.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "util/cpu-topo.h"

int cpu_topo_id(const char *root, int cpu, const char *file, int *id)
{
	char path[PATH_MAX];
	FILE *f;
	int n;

	if (cpu < 0) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cpu%d/topology/%s",
		 root ? root : CPU_TOPO_SYSFS, cpu, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fscanf(f, "%d", id);
	fclose(f);
	if (n != 1) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
