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

int offcpu_feed_on_switch(void *arg, const struct feed_switch *sw)
{
	struct offcpu_feed *of = arg;
	struct offcpu *m = of->m;

	if (sw->time > of->newest)
		of->newest = sw->time;
	of->lost += sw->lost;
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

int offcpu_feed_sample(struct offcpu_feed *of, const struct feed_sample *s)
{
	const struct pc_sample *r = s->raw;

	if (r->time > of->newest)
		of->newest = r->time;
	if ((int)s->event != of->event)
		return offcpu_seen(of->m, (pid_t)r->tid, r->time);
	if (offcpu_stack(of->m, (pid_t)r->pid, (pid_t)r->tid, r->time,
			 s->frames, s->nframes) != 0)
		return -1;
	return 1;
}

int offcpu_feed_flush(struct offcpu_feed *of, uint64_t now)
{
	if (now < of->newest)
		now = of->newest;
	return now ? offcpu_flush(of->m, now) : 0;
}
