/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * offcpu-feed.h - off-CPU time from the feed, for the tools that show
 * it (kerneltop, monitor): the event that takes a switch's stack, and
 * the feed's switch records into the pairing model (offcpu.h).
 */
#ifndef PROFILE_OFFCPU_FEED_H
#define PROFILE_OFFCPU_FEED_H

#include <stdbool.h>
#include <linux/perf_event.h>

#include "profile/feed.h"
#include "profile/offcpu.h"

/*
 * Whether the context-switches event may be sampled with kernel call
 * chains here: root, CAP_PERFMON, or perf_event_paranoid <= 1.  Above,
 * an unprivileged user's context-switches:u counts nothing (the switch
 * happens in the kernel) while the switch records still come for the
 * user's own tasks: off-CPU time without stacks.
 */
bool offcpu_stacks_allowed(void);

/* A one-line advice for when it is not. */
#define OFFCPU_NO_STACKS_NOTICE "off-CPU time without stacks: they need " \
	"root, CAP_PERFMON or kernel.perf_event_paranoid <= 1"

/*
 * What avoids lost records under off-CPU sampling: every context switch
 * writes a switch record and a sample, so the sampling rate (-F) is not
 * what floods the ring; a bigger ring, or fewer switches watched, is.
 */
#define OFFCPU_LOST_FIX "every context switch is a record: a bigger " \
	"ring (-m), or fewer threads watched"

/*
 * Fill *a as the context-switches event sampled at every switch, its
 * records read as like's are (the feed's rings hold both: the same
 * sample_type); disabled, as the tools start the feed.
 */
void offcpu_attr(struct perf_event_attr *a, const struct perf_event_attr *like);

/*
 * The feed joined to the pairing model, the same in every tool: the
 * switch records handed over (feed_on_switch(offcpu_feed_on_switch, of)),
 * each sample told (offcpu_feed_sample()), and what a flush needs and a
 * header says.
 */
struct offcpu_feed {
	struct offcpu *m;	/* the pairing; NULL: no --off-cpu */
	int event;		/* the context-switches event's index (its
				   samples are the switches' stacks), -1 */
	uint64_t newest;	/* the latest record's time */
	uint64_t lost;		/* switch records lost (LOST) */
};

/* feed_on_switch()'s callback, arg a struct offcpu_feed: OUT, IN, EXIT
   and LOST into the model as offcpu.h says.  0, or -1 with errno (the
   model's failure, or its callback's). */
int offcpu_feed_on_switch(void *arg, const struct feed_switch *sw);

/* A sample of the feed: 1 when it is a switch's stack (taken: it is no
   sample), 0 when it is a sample (its thread ran: a span whose switch-in
   was lost ends here), -1 with errno. */
int offcpu_feed_sample(struct offcpu_feed *of, const struct feed_sample *s);

/* The spans still open counted up to the latest record, or to now when
   that is later (0: the latest record).  0, or -1 with errno. */
int offcpu_feed_flush(struct offcpu_feed *of, uint64_t now);

#endif
