/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup.h - -G and --for-each-cgroup: which event counts in which cgroup. */
#ifndef PCSTAT_CGROUP_H
#define PCSTAT_CGROUP_H

#include "pcstat.h"

/*
 * -G LIST, as perf pairs it: the Nth name of all -G options so far goes
 * with the Nth event given so far (an empty name skips that event); a
 * first -G of one name goes with every event given before it.  Opens each
 * cgroup; exits 2 on a cgroup that cannot be opened or a name with no
 * event in its place.
 */
void cgroup_parse(struct config *cfg, const char *list);

/*
 * --for-each-cgroup LIST: the events (all given, defaults included) again
 * for each cgroup of LIST, cgroup by cgroup.  Names with a regular
 * expression character ({}[]()|*+?^$) are patterns matched, as perf
 * matches them, against every cgroup of the hierarchy.  Exits 2 when a
 * cgroup cannot be opened or no cgroup matches.
 */
void cgroup_expand(struct config *cfg, const char *list);

/* The cgroup index of event e, or -1 when it counts everywhere. */
int cgroup_of(const struct config *cfg, size_t e);

/* Close the cgroups and free the pairing. */
void cgroup_release(struct config *cfg);

#endif
