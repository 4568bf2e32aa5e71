/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - a command forked and held before its exec, so that a tool can
 * open counters on it first (pcstat, monitor).
 */
#ifndef UTIL_SPAWN_H
#define UTIL_SPAWN_H

#include <pthread.h>
#include <signal.h>
#include <sys/types.h>

struct spawn {
	pid_t pid;
	int go_fd;		/* a byte written here lets the child exec */
	int err_fd;		/* the child's errno if exec failed; EOF if not */
	pthread_t helper;	/* the thread the child was vfork()ed from */
	void *start;		/* what it reads, freed by spawn_release() */
};

/*
 * Start a child (vfork()ed from a helper thread: see spawn.c) that, with
 * child_mask as its signal mask (NULL: the caller's), waits for
 * spawn_release() and then execvp()s argv.  If the parent goes away first
 * the child exits 127 without running anything.  Caught signals are reset
 * to their default in the child.  Returns 0, or -1 with errno (nothing is
 * left behind).  Every successful spawn_hold() needs its spawn_release().
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
