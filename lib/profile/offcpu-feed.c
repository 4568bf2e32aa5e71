/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* offcpu-feed.c - off-CPU time from the feed (offcpu-feed.h). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <sysapi/sysapi.h>

#include "profile/offcpu-feed.h"

bool offcpu_stacks_allowed(void)
{
	const struct pc_probe *probe = pc_probe();

	return geteuid() == 0 || probe->cap_perfmon || probe->paranoid <= 1;
}

void offcpu_attr(struct perf_event_attr *a, const struct perf_event_attr *like)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	pc_attr_sampling(a, 1, false, 0);
	/* at period 1 every switch is a sample, with PERIOD asked or not;
	   no exclusion copied: the switch happens in the kernel, and a
	   user-only like (-u) would leave it nothing to count */
	a->sample_type = like->sample_type;
	a->disabled = 1;
}

int offcpu_feed_switch(struct offcpu *m, const struct feed_switch *sw)
{
	switch (sw->kind) {
	case FEED_SWITCH_OUT:
		return offcpu_out(m, sw->pid, sw->tid, sw->comm, sw->time,
				  sw->preempted);
	case FEED_SWITCH_IN:
		return offcpu_in(m, sw->pid, sw->tid, sw->time);
	case FEED_SWITCH_EXIT:
		return offcpu_exit(m, sw->tid, sw->time);
	case FEED_SWITCH_LOST:
		offcpu_lost(m);
		return 0;
	}
	return 0;
}
