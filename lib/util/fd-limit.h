/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd-limit.h - the descriptor limit the tools need, not the command's. */
#ifndef UTIL_FD_LIMIT_H
#define UTIL_FD_LIMIT_H

/*
 * Raise the soft RLIMIT_NOFILE to the hard one, as perf does: a counter
 * per event per CPU and a descriptor per mapped file soon pass a soft
 * 1024 on a large machine.  Best effort: on failure the limit stays.
 * Call it first in main, before any thread.
 */
void fd_limit_raise(void);

/*
 * Put the soft limit back to what it was before fd_limit_raise(), so a
 * command we start runs with the limits its user gave.  Only a setrlimit:
 * safe in a vfork() child before its exec.
 */
void fd_limit_restore(void);

#endif
