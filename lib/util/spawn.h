/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - a command forked and held before its exec, so that a tool can
 * open counters on it first (pcstat, monitor).
 */
#ifndef UTIL_SPAWN_H
#define UTIL_SPAWN_H

#include <signal.h>
#include <sys/types.h>

struct spawn {
	pid_t pid;
	int go_fd;		/* a byte written here lets the child exec */
	int err_fd;		/* the child's errno if exec failed; EOF if not */
};

/*
 * Fork a child that, with child_mask as its signal mask (NULL: inherited),
 * waits for spawn_release() and then execvp()s argv.  If the parent goes
 * away first the child exits 127 without running anything.  Returns 0, or
 * -1 with errno (nothing is left behind).
 */
int spawn_hold(struct spawn *sp, char *const argv[], const sigset_t *child_mask);

/*
 * Wait, a second at most, until the held child sleeps in its wait: for
 * counters that count from the moment they open (the 2008 call), so that
 * what the child still does after fork is not counted as the command's.
 */
void spawn_park(const struct spawn *sp);

/*
 * Let the child exec.  Returns 0 once it has, or the errno of a failed
 * exec (ENOENT, EACCES...): the child then exits 127, reap it.
 */
int spawn_release(struct spawn *sp);

#endif
