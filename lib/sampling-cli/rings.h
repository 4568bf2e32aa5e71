/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rings.h - why the feed could not open (a task gone, a counter refused,
 * the rings not mapped), in words, for the tools that sample (monitor,
 * kerneltop): one text for both.
 */
#ifndef SAMPLING_CLI_RINGS_H
#define SAMPLING_CLI_RINGS_H

#include <stddef.h>
#include <sys/types.h>

#include "profile/feed.h"

/*
 * Explain err, from mapping a ring (the feed's errno when it failed with
 * no counter to blame), into buf: strerror(err), then what is wrong and
 * the fix.  EPERM: over the locked-memory limit, what
 * kernel.perf_event_mlock_kb gives each user per CPU and 'ulimit -l'
 * beyond it (not perf_event_paranoid: the counters opened); ENOMEM: the
 * address space, 'ulimit -v'.  Returns buf.
 */
const char *rings_strerror(int err, char *buf, size_t size);

/* Said when the feed fell back to user space (feed_info's user_only). */
#define FEED_USER_ONLY_NOTICE \
	"kernel samples not allowed (perf_event_paranoid); sampling user " \
	"space only"

/* Said when the kernel refused inherit with a group read (feed_info's
   no_inherit_read). */
#define FEED_NO_INHERIT_READ_NOTICE \
	"this kernel (before 6.12) cannot read a group at each sample of " \
	"inherited counters: threads and children created later are not " \
	"sampled"

/* What a tool calls what it samples, for feed_failure_strerror(). */
struct feed_failure_words {
	const char *gone;	/* the kind of a task that is gone:
				   "no GONE ID (has it exited?)" */
	const char *on;		/* of a task a counter was refused on:
				   "cannot sample EVENT on ON ID: ..." */
	pid_t id;		/* the task to name when fail names none */
	const char *event;	/* the name of fail->event */
	const struct perf_event_attr *attr;	/* and its attr */
	const char *rings;	/* "buffer" or "buffers" */
};

/*
 * Why feed_open() failed, as one line into buf: from fail (its
 * opts.failure) and err (errno after it), a task gone (ESRCH), a counter
 * refused (pc_strerror()'s advice), or the rings not mapped
 * (rings_strerror()).  Returns buf.
 */
const char *feed_failure_strerror(const struct feed_failure *fail, int err,
				  const struct feed_failure_words *w,
				  char *buf, size_t size);

#endif
