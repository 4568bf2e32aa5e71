/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rings.c - a feed that would not open, a ring that would not map,
   explained. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <sysapi/error.h>
#include <sysapi/probe.h>

#include "sampling-cli/rings.h"
#include "util/die.h"

const char *rings_strerror(int err, char *buf, size_t size)
{
	char lim[32] = "unlimited", as[96];
	struct rlimit rl;

	switch (err) {
	case EPERM:
		/*
		 * perf_mmap(): a user's rings may lock perf_event_mlock_kb
		 * per online CPU, all of the user's processes together;
		 * beyond it they count against RLIMIT_MEMLOCK, unless
		 * CAP_IPC_LOCK or perf_event_paranoid is -1.
		 */
		if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "%llu KiB",
				 (unsigned long long)rl.rlim_cur / 1024);
		snprintf(buf, size, "%s (over the locked-memory limit: a "
			 "user's rings get kernel.perf_event_mlock_kb = %d KiB "
			 "per CPU, shared by all of the user's tools, and "
			 "'ulimit -l' (%s) beyond it; raise 'ulimit -l', or "
			 "end the user's other sampling tools)", strerror(err),
			 pc_probe()->mlock_kb, lim);
		break;
	case ENOMEM:
		if (as_limit_advice(as, sizeof(as)))
			snprintf(buf, size, "%s (%s)", strerror(err), as);
		else
			snprintf(buf, size, "%s (the address space is full)",
				 strerror(err));
		break;
	default:
		snprintf(buf, size, "%s", strerror(err));
		break;
	}
	return buf;
}

const char *feed_failure_strerror(const struct feed_failure *fail, int err,
				  const struct feed_failure_words *w,
				  char *buf, size_t size)
{
	char why[PC_STRERROR_SIZE];

	if (fail->err == ESRCH || (!fail->err && err == ESRCH))
		snprintf(buf, size, "no %s %d (has it exited?)", w->gone,
			 (int)(fail->err && fail->pid > 0 ? fail->pid : w->id));
	else if (fail->err && fail->pid > 0)
		snprintf(buf, size, "cannot sample %s on %s %d: %s", w->event,
			 w->on, (int)fail->pid,
			 pc_strerror(fail->err, w->attr, why, sizeof(why)));
	else if (fail->err)
		snprintf(buf, size, "cannot sample %s on CPU %d: %s", w->event,
			 fail->cpu,
			 pc_strerror(fail->err, w->attr, why, sizeof(why)));
	else
		snprintf(buf, size, "cannot map the sample %s: %s", w->rings,
			 rings_strerror(err, why, sizeof(why)));
	return buf;
}
