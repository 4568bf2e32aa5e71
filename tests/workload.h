/*
 * workload.h - the C tests' workloads with known answers: CPU time burnt
 * on the calling thread, fresh pages touched (one fault each).
 */
#ifndef TESTS_WORKLOAD_H
#define TESTS_WORKLOAD_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Nanoseconds on clock clk. */
static inline double workload_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Time the machine's CPUs lost to interrupts and to the hypervisor (irq,
   softirq and steal of /proc/stat's "cpu" line), in ns; -1 if unread.
   task-clock runs on the wall clock while a task is on a CPU, the
   thread's CPU clock leaves this time out (3% of 300 ms seen on a busy
   VM): a bound between the two needs the difference of two readings. */
__attribute__((unused))
static double workload_lost_cpu_ns(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n != 8)
		return -1;
	return (double)(v[5] + v[6] + v[7]) * 1e9 / (double)sysconf(_SC_CLK_TCK);
}

/* The step clock clk moves by while this thread spins: the largest of
   its first 5 moves (at most 100 ms of spinning), in ns.  Where the
   scheduler's clock is the jiffies (QEMU's x86 PC under TCG when a loaded
   host spoiled the TSC's calibration), task-clock and the thread's CPU
   clock both move 4 ms at a time, with a 250 ns correction now and then:
   two readings of either are off by up to one step each, and a bound
   between them needs it. */
__attribute__((unused))
static double workload_clock_step_ns(clockid_t clk)
{
	double start = workload_now_ns(CLOCK_MONOTONIC), prev, step = 0;
	int changes = 0;

	prev = workload_now_ns(clk);
	while (changes < 5 && workload_now_ns(CLOCK_MONOTONIC) - start < 100e6) {
		double now = workload_now_ns(clk);

		if (now != prev) {
			if (now - prev > step)
				step = now - prev;
			prev = now;
			changes++;
		}
	}
	return changes ? step : 100e6;
}

/* Burn ms milliseconds of this thread's CPU time.  Not inlined, so that
   samples of it can be told by its address. */
__attribute__((noinline, unused))
static void workload_burn_cpu_ms(double ms)
{
	double end = workload_now_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1e6;
	volatile unsigned long x = 0;

	while (workload_now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
}

/* n rounds of 10000 additions on this thread: a fixed amount of work,
   however much CPU time it takes (under QEMU TCG on a loaded host the
   guest's CPU clock also counts the host's stalls, so that so many ms
   of CPU time can be little work and few timer samples).  Not inlined,
   so that samples of it can be told by its address. */
__attribute__((noinline, unused))
static void workload_spin(unsigned long n)
{
	volatile unsigned long x = 0;

	while (n--)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
}

/*
 * Touch n fresh anonymous pages once each: n minor faults.  Not
 * instrumented: under ASan each store would also fault in shadow memory
 * (one page per 32 KiB touched) and the count would be off.
 */
__attribute__((no_sanitize_address, unused))
static long workload_touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *m = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	madvise((void *)m, (size_t)(n * page), MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		m[i * page] = 1;
	munmap((void *)m, (size_t)(n * page));
	return n;
}

/* Say "ready PID" on stderr, then wait for SIGUSR1: a test attaches
   its tools, then lets the workload go.  The signal is blocked before the
   line, so one sent at once is kept. */
__attribute__((unused))
static void workload_ready_then_usr1(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	fprintf(stderr, "ready %d\n", (int)getpid());
	sigwait(&set, &sig);
}

#endif
