/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stop-signals.c - the signals that end a measurement, one rule. */
#include "config.h"

#include "util/stop-signals.h"

const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
};
const size_t nstop_signals = sizeof(stop_signals) / sizeof(stop_signals[0]);

bool is_stop_signal(int sig)
{
	for (size_t i = 0; i < nstop_signals; i++)
		if (stop_signals[i] == sig)
			return true;
	return false;
}

static bool ignored(int sig)
{
	struct sigaction sa;

	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

void stop_signals_fill(sigset_t *set)
{
	for (size_t i = 0; i < nstop_signals; i++)
		if (!ignored(stop_signals[i]))
			sigaddset(set, stop_signals[i]);
}

void stop_signals_catch(void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < nstop_signals; i++)
		if (!ignored(stop_signals[i]))
			sigaction(stop_signals[i], &sa, NULL);
}

/* Whether a stop signal with this si_code is to be passed on to the
   command: sent by a process, not by the terminal to the whole group. */
static bool stop_signal_forwarded(int si_code)
{
	return si_code == SI_USER || si_code == SI_QUEUE;
}

void stop_signal_pass(pid_t pid, int sig, int si_code, unsigned count)
{
	if (pid <= 0)
		return;
	if (count > 1)
		kill(pid, SIGKILL);
	else if (stop_signal_forwarded(si_code))
		kill(pid, sig);
}
