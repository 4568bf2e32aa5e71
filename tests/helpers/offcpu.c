/*
 * offcpu.c - workloads with a known split between on-CPU and off-CPU
 * time, for the off-CPU and wall-clock profiles' tests and bench.
 *
 *   offcpu split MS     a thread named "oc-split" alternates waits_here()
 *                       (nanosleep, 6 ms of wall time a slice) and
 *                       spins_here() (a busy loop, 4 ms of wall time)
 *   offcpu pingpong MS [US]
 *                       threads "oc-ping" and "oc-pong" pass a byte back
 *                       and forth over two pipes; each blocks in read()
 *                       (in reads_here()) while the other runs: two
 *                       context switches a round trip; with US, each
 *                       side spins US microseconds of CPU time before it
 *                       answers (US 100: some 10,000 switches a second)
 *
 * Prints "ready PID TID" on stderr (TID: the split thread, or pong's),
 * then waits for SIGUSR1 (or starts at once with MS given as -MS), works
 * for MS ms of wall time (0: until killed) and prints its own truth on
 * stderr before it exits:
 *   truth waits_ms W spins_ms S cpu_ms C      (split: wall time spent in
 *                                              each function, CPU time)
 *   truth trips N ms M                        (pingpong: round trips)
 * Under load a spin's wall time includes its waits for a CPU, so the
 * split is measured here, not assumed.  Built -O1 -g -fno-inline with
 * frame pointers: the profiles walk them.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

/* Global, so that their names are in the symbol table as they are. */
double waits_here(void);
double spins_here(void);
int reads_here(int fd);
static double run_ms;

static double now_ms(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The libc call, a frame of its own: a frame-pointer walk from inside
   nanosleep() (no frame of its own) skips its caller's caller. */
NOINLINE static void sleep_call(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
	sink++;
}

/* ~6 ms of wall time blocked; returns the wall ms it took. */
NOINLINE double waits_here(void)
{
	double t0 = now_ms(CLOCK_MONOTONIC);

	sleep_call(6000000);
	return now_ms(CLOCK_MONOTONIC) - t0;
}

/* 4 ms of wall time spinning; returns the wall ms it took. */
NOINLINE double spins_here(void)
{
	double t0 = now_ms(CLOCK_MONOTONIC), t;
	unsigned long i;

	do {
		for (i = 0; i < 20000; i++)
			sink += i;
		t = now_ms(CLOCK_MONOTONIC);
	} while (t - t0 < 4.0);
	return t - t0;
}

static void *split(void *arg)
{
	double end, waits = 0, spins = 0, cpu0;

	(void)arg;
	prctl(PR_SET_NAME, "oc-split");
	cpu0 = now_ms(CLOCK_THREAD_CPUTIME_ID);
	end = now_ms(CLOCK_MONOTONIC) + run_ms;
	while (!run_ms || now_ms(CLOCK_MONOTONIC) < end) {
		waits += waits_here();
		spins += spins_here();
	}
	fprintf(stderr, "truth waits_ms %.1f spins_ms %.1f cpu_ms %.1f\n",
		waits, spins, now_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0);
	return NULL;
}

static int ping_fd[2], pong_fd[2];
static double spin_us;

/* spin_us of this thread's CPU time. */
static void work(void)
{
	double t0;

	if (!spin_us)
		return;
	t0 = now_ms(CLOCK_THREAD_CPUTIME_ID);
	while ((now_ms(CLOCK_THREAD_CPUTIME_ID) - t0) * 1e3 < spin_us)
		sink++;
}

/* The libc call in a frame of its own (as sleep_call()). */
NOINLINE static ssize_t read_call(int fd, char *c)
{
	ssize_t n = read(fd, c, 1);

	sink++;
	return n;
}

/* One byte read, blocking. */
NOINLINE int reads_here(int fd)
{
	char c;

	return read_call(fd, &c) == 1 ? 0 : -1;
}

static void *pong(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "oc-pong");
	while (reads_here(ping_fd[0]) == 0) {
		work();
		if (write(pong_fd[1], "o", 1) != 1)
			break;
	}
	return NULL;
}

static void pingpong(void)
{
	double t0 = now_ms(CLOCK_MONOTONIC), end = t0 + run_ms;
	unsigned long trips = 0;

	prctl(PR_SET_NAME, "oc-ping");
	while (!run_ms || now_ms(CLOCK_MONOTONIC) < end) {
		work();
		if (write(ping_fd[1], "i", 1) != 1 || reads_here(pong_fd[0]))
			break;
		trips++;
	}
	fprintf(stderr, "truth trips %lu ms %.1f\n", trips,
		now_ms(CLOCK_MONOTONIC) - t0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "split";
	long ms = argc > 2 ? atol(argv[2]) : 0;
	int wait = ms >= 0;
	sigset_t set;
	pthread_t th;
	int sig;

	run_ms = (double)(ms < 0 ? -ms : ms);
	spin_us = argc > 3 ? atof(argv[3]) : 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (!strcmp(mode, "split")) {
		fprintf(stderr, "ready %d %ld\n", (int)getpid(),
			(long)syscall(SYS_gettid));
		if (wait)
			sigwait(&set, &sig);
		/* the measured thread is the main one: its tid is the pid */
		split(NULL);
		return 0;
	}
	if (strcmp(mode, "pingpong")) {
		fprintf(stderr, "offcpu: unknown mode '%s'\n", mode);
		return 2;
	}
	if (pipe(ping_fd) || pipe(pong_fd) ||
	    pthread_create(&th, NULL, pong, NULL)) {
		perror("offcpu");
		return 1;
	}
	fprintf(stderr, "ready %d\n", (int)getpid());
	if (wait)
		sigwait(&set, &sig);
	pingpong();
	return 0;
}
