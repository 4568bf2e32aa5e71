/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - a command forked and held before its exec, so that a tool can
 * open counters on it first (pcstat, monitor).
 */
#ifndef UTIL_SPAWN_H
#define UTIL_SPAWN_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

struct spawn {
	pid_t pid;
	int go_fd;		/* a byte written here lets the child exec */
	int err_fd;		/* the child's errno if exec failed; EOF if not */
	pthread_t helper;	/* the thread the child was vfork()ed from */
	void *start;		/* what it reads, freed by spawn_release() */
	char path[PATH_MAX];	/* what the child execs (spawn_path_search());
				   "" for a name found nowhere in $PATH */
};

/*
 * The file that running name would execute: name itself when it holds a
 * '/', else the first executable regular file called name in $PATH
 * (default /usr/local/bin:/usr/bin:/bin; an empty entry is the current
 * directory), as execvp(3) searches.  Returns a malloc'd absolute path
 * (realpath), or NULL with errno (ENOENT: none found).
 */
char *spawn_path_search(const char *name);

/*
 * Start a child (vfork()ed from a helper thread: see spawn.c) that, with
 * child_mask as its signal mask (NULL: the caller's), waits for
 * spawn_release() and then execs argv, found in $PATH as execvp(3) finds
 * it (a name without '/' that is not in $PATH fails with ENOENT, as in
 * a shell: a file of that name in the current directory is never run);
 * but a file the kernel refuses (ENOEXEC: junk, an ELF for another
 * machine) is never handed to /bin/sh as execvp(3) does, and a script
 * whose interpreter is missing fails (ENOENT): spawn_strerror() says
 * which.  If the parent goes away first
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

/*
 * End the command that spawn_release() last let go, if it still runs: a
 * tool that fails (a write error mid-run) must not leave it behind.
 * SIGTERM (and SIGCONT, for a stopped one), then SIGKILL after a second;
 * it is reaped.  A command already reaped is left alone: its pid may
 * belong to another process by now.  Async-signal-safe.
 */
void spawn_end_started(void);

/*
 * Call once in main(): from then on a tool that dies -- die() and its
 * kin, or SIGPIPE from a pipe whose reader went away (`monitor -- cmd |
 * head`) -- first ends its command with spawn_end_started().  The tool
 * still dies of SIGPIPE (status 141), as head(1)'s writers do; a SIGPIPE
 * that our caller ignores stays ignored (the write then fails with
 * EPIPE, which the tool reports).  The command starts with SIGPIPE at
 * its default either way.
 */
void spawn_end_on_failure(void);

/*
 * Why sp's command could not start (spawn_hold()'s errno) or run
 * (spawn_release()'s), in words, into buf: strerror(err), with the limit
 * to raise for EMFILE, ENFILE, EAGAIN (the processes: 'ulimit -u' where
 * it holds, else the system's) and ENOMEM (the address space: 'ulimit
 * -v', which spawn_hold() tells from EAGAIN); what is in the way for EACCES
 * (a directory, a file without x); for a file that exists "bad
 * interpreter '/no/such/sh' (the #! line of 'x' names a program that does
 * not exist)", or "Exec format error (...)".  Returns buf.
 */
const char *spawn_strerror(const struct spawn *sp, int err, char *buf,
			   size_t size);

/* The exit status a shell gives a command that could not run: 127 when
   it does not exist, 126 when it exists but cannot run. */
int spawn_exit_status(const struct spawn *sp, int err);

#endif
