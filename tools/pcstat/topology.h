/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.h - --per-socket/-die/-core/-node: CPUs grouped by sysfs topology. */
#ifndef PCSTAT_TOPOLOGY_H
#define PCSTAT_TOPOLOGY_H

#include <stddef.h>

#include "pcstat.h"

/*
 * One aggregate: "S0", "S0-D0", "S0-D0-C1", "N0" or "S0-D0-L3-ID0" (the
 * cache's level and its first CPU), and its CPU count.
 */
struct aggr_id {
	int socket, die, core, node;
	int cache_lvl, cache;
	int nr;			/* CPUs of the counted list in it */
};

/* What each topology mode prints (perf's aggr_printout and keys). */
struct topo_mode {
	enum aggr_mode mode;
	const char *option;	/* "--per-socket" */
	const char *json_key;	/* "socket" */
	const char *interval_col; /* the interval header's column */
};

/* Where the CPUs' sysfs directories are; tests point it at a fake tree. */
extern const char *topo_sysfs;

/* The row of mode, or NULL when mode is not a topology mode. */
const struct topo_mode *topo_mode(enum aggr_mode mode);

/*
 * Group cpus[0..ncpus) by mode: *ids gets one aggr_id per group, sorted
 * as perf sorts them; unit_slot[i] the group of cpus[i].  cache_level is
 * --per-cache's level (0: each CPU's last level).  Returns the number of
 * groups; exits 1 when sysfs cannot say.
 */
size_t topo_group(enum aggr_mode mode, int cache_level, const int *cpus,
		  size_t ncpus,
		  struct aggr_id **ids, size_t *unit_slot);

/* The aggregate's name as perf prints it ("S0-D0-C1"). */
void topo_label(enum aggr_mode mode, const struct aggr_id *id, char *buf,
		size_t sz);

#endif
