/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu-topo.h - a CPU's place in the machine, as sysfs says it. */
#ifndef UTIL_CPU_TOPO_H
#define UTIL_CPU_TOPO_H

/* The CPUs' sysfs directories, where a caller gives no other (a test
   points at a tree of its own). */
#define CPU_TOPO_SYSFS "/sys/devices/system/cpu"

/*
 * The number in root/cpuCPU/topology/FILE (root NULL: CPU_TOPO_SYSFS):
 * "physical_package_id" (the socket), "die_id", "core_id".  0 with *id
 * set, or -1 with errno when the file is missing or holds no number.
 */
int cpu_topo_id(const char *root, int cpu, const char *file, int *id);

#endif
