/*
 * hold SECS: sleep SECS seconds with the stop signals blocked (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2), as a command that will not
 * end on them.  A blocked signal is queued even where it is ignored, so
 * that one sent to hold stays pending, in ShdPnd of /proc/PID/status: a
 * test sees when it came (test-subr.sh, stopped_twice).
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGUSR1, SIGUSR2 };
	struct timespec ts = { argc > 1 ? atol(argv[1]) : 600, 0 };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (nanosleep(&ts, &ts) != 0)
		;
	return 0;
}
