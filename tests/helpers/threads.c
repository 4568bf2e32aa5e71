/*
 * threads N: a process of N threads (N >= 3), most of them asleep: two
 * run hot_a() and hot_b() in turn, twice as much CPU time in the first
 * as in the second (the same loop), one all the time, one at a duty
 * cycle of about a half (5 ms of the loop, 5 ms asleep); the other N - 2
 * wait (the main thread for SIGUSR1).  The shares, about 2/3 and 1/3,
 * hold however the threads are scheduled: a sampler's must match
 * perf's on the same run whatever else the machine runs.  Prints
 * "ready PID" on stderr once every thread exists, then runs until killed
 * (or its parent dies).
 * On each SIGUSR1 it starts a child process that spends 300 ms of CPU
 * time in hot_child() and a new thread that spends as much in
 * hot_thread(), both created after a sampler attached; once both have
 * ended, prints "done CHILD_US THREAD_US" on stderr: the CPU time each
 * used, in microseconds, for the samples they must have.
 * threads decoy: one thread spinning in decoy_spin(), a function no
 * other program has: the busy neighbour whose samples a profile of
 * another process must not show.
 *
 * The big-process tests (bigproc.sh in tests/kerneltop and tests/monitor)
 * sample it with more threads x CPUs than descriptors allow.  Built -O1
 * -g -fno-inline without sanitizers: it is the measured program, not code
 * under test.
 */
#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define CHUNK 20000	/* iterations between looks at the clock */

volatile unsigned long sink;

unsigned long hot_a(uint64_t until);
unsigned long hot_b(uint64_t until);
unsigned long decoy_spin(unsigned long iters);
unsigned long hot_child(unsigned long iters);
unsigned long hot_thread(unsigned long iters);

/* The thread's CPU time, in nanoseconds. */
static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* hot_a and hot_b: the same loop until the thread's CPU time is until */
NOINLINE unsigned long hot_a(uint64_t until)
{
	unsigned long i, x = sink;

	do {
		for (i = 0; i < CHUNK; i++)
			x += i * 7 + (x >> 3);
	} while (thread_ns() < until);
	sink = x;
	return x;
}

NOINLINE unsigned long hot_b(uint64_t until)
{
	unsigned long i, x = sink;

	do {
		for (i = 0; i < CHUNK; i++)
			x += i * 7 + (x >> 3);
	} while (thread_ns() < until);
	sink = x;
	return x;
}

NOINLINE unsigned long decoy_spin(unsigned long iters)
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 5 + (x >> 2);
	sink = x;
	return x;
}

NOINLINE unsigned long hot_child(unsigned long iters)
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}

NOINLINE unsigned long hot_thread(unsigned long iters)
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}

static double cpu_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * hot_a for twice the CPU time of hot_b, whatever each iteration costs
 * (the two loops' code may not run at the same speed), in slices short
 * against a sample period and of random lengths: a loop of a fixed period
 * would beat against the sampling timer's.
 */
static void mix(unsigned *seed)
{
	uint64_t slice;

	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	slice = 50000 + *seed % 150000;		/* ns */
	hot_a(thread_ns() + 2 * slice);
	hot_b(thread_ns() + slice);
}

static void *run_a(void *arg)
{
	unsigned seed = 0x9e3779b9u;

	(void)arg;
	for (;;)
		mix(&seed);
	return NULL;
}

static void *run_b(void *arg)
{
	struct timespec nap = { 0, 5 * 1000 * 1000 };
	unsigned seed = 0x7f4a7c15u;

	(void)arg;
	for (;;) {
		double end = now_ms() + 5;

		while (now_ms() < end)
			mix(&seed);
		nanosleep(&nap, NULL);
	}
	return NULL;
}

static void *run_sleep(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

#define BURST_MS 300

/* The new thread's CPU time, in microseconds. */
static void *run_thread(void *arg)
{
	double start = cpu_ms(CLOCK_THREAD_CPUTIME_ID);

	while (cpu_ms(CLOCK_THREAD_CPUTIME_ID) - start < BURST_MS)
		hot_thread(20000);
	*(long *)arg = (long)(cpu_ms(CLOCK_THREAD_CPUTIME_ID) * 1e3);
	return NULL;
}

/*
 * A child and a thread, both new, each BURST_MS of CPU time in its hot
 * function.  The child says through a pipe how long its loop ran: fork
 * and exit of a process this big cost it more than the loop's CPU time.
 */
static void burst(pthread_attr_t *attr)
{
	long thread_us = 0, child_us = 0;
	pthread_t t;
	pid_t child;
	int p[2];

	if (pipe(p) != 0) {
		perror("threads: pipe");
		exit(1);
	}
	child = fork();
	if (child == 0) {
		double start = cpu_ms(CLOCK_PROCESS_CPUTIME_ID), ms;

		while ((ms = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - start) <
		       BURST_MS)
			hot_child(20000);
		child_us = (long)(ms * 1e3);
		if (write(p[1], &child_us, sizeof(child_us)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (child < 0 || pthread_create(&t, attr, run_thread, &thread_us)) {
		fprintf(stderr, "threads: cannot start the burst\n");
		exit(1);
	}
	pthread_join(t, NULL);
	if (read(p[0], &child_us, sizeof(child_us)) != sizeof(child_us) ||
	    waitpid(child, NULL, 0) != child)
		exit(1);
	close(p[0]);
	fprintf(stderr, "done %ld %ld\n", child_us, thread_us);
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	sigset_t usr1;
	pthread_t t;
	long n, i;
	int sig;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (argc == 2 && strcmp(argv[1], "decoy") == 0) {
		fprintf(stderr, "ready %d\n", (int)getpid());
		for (;;)
			decoy_spin(100000);
	}
	n = argc == 2 ? atol(argv[1]) : 0;
	if (n < 3) {
		fprintf(stderr, "usage: threads N (N >= 3) | threads decoy\n");
		return 2;
	}
	/* SIGUSR1 waits for sigwait() in the main thread, blocked in all */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	/* thousands of threads: small stacks */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t, &attr, run_a, NULL) != 0 ||
	    pthread_create(&t, &attr, run_b, NULL) != 0) {
		fprintf(stderr, "threads: cannot start a thread\n");
		return 1;
	}
	for (i = 3; i < n; i++) {
		int e = pthread_create(&t, &attr, run_sleep, NULL);

		if (e) {
			fprintf(stderr, "threads: thread %ld of %ld: %s\n", i,
				n, strerror(e));
			return 1;
		}
	}
	fprintf(stderr, "ready %d\n", (int)getpid());
	for (;;)
		if (sigwait(&usr1, &sig) == 0)
			burst(&attr);
}
