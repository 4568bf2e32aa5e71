/*
 * rates-work PHASES MS PAGES_PER_MS [wait]: PHASES rounds of two phases of MS
 * ms of the thread's CPU each: toucher() spins and touches a fresh page
 * after a spin of random length, about PAGES_PER_MS pages a CPU
 * millisecond;
 * spinner() spins and touches none.  At the end it prints the truth it
 * measured around each function (its own minor faults, getrusage, per
 * its own CPU ms, CLOCK_THREAD_CPUTIME_ID):
 *
 *	toucher 4.012 faults/ms
 *	spinner 0.000 faults/ms
 *
 * The pages are mapped and unmapped outside the measured calls.  It
 * says "ready PID" on stderr once it starts the phases, and the faults
 * and CPU ms so far after each round ("round N toucher F MS spinner F
 * MS"), for a test that samples some rounds only.  With "wait" it says
 * "ready PID" first and then waits for SIGUSR1 before anything else: a
 * test attaches a second profiler and lets it go, so that both sample
 * the same window.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../workload.h"

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static long faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

static volatile unsigned long sink;

/* spin iterations between two pages, set at the start */
static unsigned long spin_per_page = 1000;

/*
 * The spin before each page: uniform in [0.25, 1.75) times the mean, from
 * a fixed seed.  Evenly spaced faults alias with a sampling period near
 * a multiple of their spacing, and a rate over the intervals that begin
 * and end in user code then errs by up to the kernel's share of the
 * time, one way or the other; spread spacing averages that out.
 */
static unsigned long next_spin(unsigned long mean)
{
	static unsigned long long x = 88172645463325252ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return mean / 4 + (unsigned long)((double)(x >> 11) / 9007199254740992.0
					  * 1.5 * (double)mean);
}

__attribute__((noinline)) static void toucher(volatile char *m, long npages,
					      double ms)
{
	double end = cpu_ms() + ms;
	long i = 0;

	while (cpu_ms() < end && i < npages) {
		unsigned long spin = next_spin(spin_per_page);

		for (unsigned long k = 0; k < spin; k++)
			sink += k;
		m[i++ * 4096] = 1;
	}
}

__attribute__((noinline)) static void spinner(double ms)
{
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		for (unsigned long k = 0; k < 1000; k++)
			sink += k;
}

/*
 * How many spin iterations take a CPU ms: chunks of 100000 between two
 * clock reads (about 0.1 ms), so that the reads, a system call each, add
 * under 1% (chunks of 1000 made a clock read most of a chunk's time: the
 * spin ran 3-4 times faster than measured).
 */
static unsigned long spins_per_ms(void)
{
	double t0 = cpu_ms(), t;
	unsigned long n = 0;

	do {
		for (unsigned long k = 0; k < 100000; k++)
			sink += k;
		n += 100000;
		t = cpu_ms();
	} while (t - t0 < 20);
	return (unsigned long)((double)n / (t - t0));
}

int main(int argc, char **argv)
{
	int phases = argc > 1 ? atoi(argv[1]) : 10;
	double ms = argc > 2 ? atof(argv[2]) : 100;
	double rate = argc > 3 ? atof(argv[3]) : 4;
	/* room for twice the pages asked, in case the spin runs faster */
	long npages = (long)(ms * rate * 2) + 16;
	double t_ms[2] = { 0, 0 };
	long f[2] = { 0, 0 };

	bool wait = argc > 4 && strcmp(argv[4], "wait") == 0;

	if (phases < 1 || ms <= 0 || rate <= 0 || (argc > 4 && !wait)) {
		fprintf(stderr, "usage: rates-work PHASES MS PAGES_PER_MS [wait]\n");
		return 2;
	}
	if (wait)
		workload_ready_then_usr1();
	spin_per_page = (unsigned long)((double)spins_per_ms() / rate);
	if (!wait)
		fprintf(stderr, "ready %d\n", (int)getpid());
	for (int p = 0; p < phases; p++) {
		char *m = mmap(NULL, (size_t)npages * 4096,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		double t0;
		long f0;

		if (m == MAP_FAILED) {
			perror("rates-work: mmap");
			return 1;
		}
		/* no transparent huge pages: one fault per 4 KiB page */
		madvise(m, (size_t)npages * 4096, MADV_NOHUGEPAGE);
		f0 = faults();
		t0 = cpu_ms();
		toucher(m, npages, ms);
		t_ms[0] += cpu_ms() - t0;
		f[0] += faults() - f0;
		f0 = faults();
		t0 = cpu_ms();
		spinner(ms);
		t_ms[1] += cpu_ms() - t0;
		f[1] += faults() - f0;
		munmap(m, (size_t)npages * 4096);
		/* so far, for a test that stops it before the end */
		fprintf(stderr, "round %d toucher %ld %.3f spinner %ld %.3f\n",
			p + 1, f[0], t_ms[0], f[1], t_ms[1]);
	}
	printf("toucher %.3f faults/ms\n", (double)f[0] / t_ms[0]);
	printf("spinner %.3f faults/ms\n", (double)f[1] / t_ms[1]);
	return 0;
}
