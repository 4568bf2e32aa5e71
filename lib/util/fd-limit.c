/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-limit.c - the descriptor limit the tools need, not the command's. */
#include "config.h"

#include <stdbool.h>
#include <sys/resource.h>

#include "util/fd-limit.h"

static struct rlimit user_limit;	/* as we found it */
static bool raised;

void fd_limit_raise(void)
{
	struct rlimit r;

	if (raised || getrlimit(RLIMIT_NOFILE, &r) != 0 ||
	    r.rlim_cur >= r.rlim_max)
		return;
	user_limit = r;
	r.rlim_cur = r.rlim_max;
	/* an infinite hard limit is more than fs.nr_open allows: EPERM */
	raised = setrlimit(RLIMIT_NOFILE, &r) == 0;
}

void fd_limit_restore(void)
{
	if (raised)
		setrlimit(RLIMIT_NOFILE, &user_limit);
}
