/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * offcpu.h - kerneltop --off-cpu (offcpu.c): the switches, the spans'
 * profiles and the measures.
 */
#ifndef KERNELTOP_OFFCPU_H
#define KERNELTOP_OFFCPU_H

#include <stddef.h>

#include "options.h"
#include "profile/feed.h"
#include "profile/profile.h"

struct kt;

extern const char *const kt_measure_names[KT_MEASURES];

/*
 * offcpu.c: kt_measure_names[], the measures' names.  offcpu_setup():
 * after the events, add --off-cpu's (0 with no stacks).
 * offcpu_profiles(): the other measures' profiles (like config, but
 * weighted).  measure_next(): the measure after m that this session has
 * (`o').  offcpu_sample(): an on-CPU sample (ps: as the on-CPU profile
 * took it) for the wall-clock profile, or a switch's stack (the switch
 * records go straight to the pairing: offcpu_feed_on_switch()).
 * offcpu_tick(): at a refresh, the spans still open counted up to now.
 * offcpu_header(): measure m, for line 0.
 */
void offcpu_setup(struct kt *kt);
void offcpu_profiles(struct kt *kt, const struct profile_config *config);
enum kt_measure measure_next(const struct kt *kt, enum kt_measure m);
void offcpu_sample(struct kt *kt, const struct feed_sample *s,
		   const struct profile_sample *ps);
void offcpu_tick(struct kt *kt);
void offcpu_header(const struct kt *kt, enum kt_measure m, char *buf,
		   size_t size, size_t *len);
void offcpu_release(struct kt *kt);

#endif
