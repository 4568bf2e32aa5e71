/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stop-signals.h - one rule for the signals that end a measurement, in
 * every tool:
 *
 *   SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 end counting or
 *   sampling as SIGINT does, and what was measured so far is printed.  A
 *   command the tool started is sent the same signal when it came from
 *   another process (kill(1)); from the terminal the command got it too.
 *   The tool then waits for the command to end, so that it never runs on
 *   without its parent's knowledge; a second stop signal ends the
 *   command with SIGKILL, so that one that ignores the first cannot hold
 *   the tool forever.  A signal that was ignored when the tool started
 *   (nohup, a shell's background job) stays ignored.
 *
 *   A tool that fails while its command runs (die(), SIGPIPE) ends the
 *   command first: spawn_end_on_failure().
 */
#ifndef UTIL_STOP_SIGNALS_H
#define UTIL_STOP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The stop signals, as a table tests and man pages walk. */
extern const int stop_signals[];
extern const size_t nstop_signals;

/* Whether sig is one of them. */
bool is_stop_signal(int sig);

/* Add to set each stop signal not ignored at start-up. */
void stop_signals_fill(sigset_t *set);

/* Catch each stop signal not ignored at start-up with fn (SA_SIGINFO,
   without SA_RESTART, so that a blocking call returns EINTR). */
void stop_signals_catch(void (*fn)(int, siginfo_t *, void *));

/*
 * The count-th stop signal sig (1 for the first), sent as si_code says,
 * came while the tool's command pid runs: pass it on as the rule says --
 * the first when a process sent it, SIGKILL from the second on.
 */
void stop_signal_pass(pid_t pid, int sig, int si_code, unsigned count);

#endif
