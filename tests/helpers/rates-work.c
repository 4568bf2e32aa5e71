/*
 * rates-work PHASES MS PAGES_PER_MS: PHASES rounds of two phases of MS
 * ms of the thread's CPU each: toucher() spins and touches a fresh page
 * every few iterations, about PAGES_PER_MS pages a CPU millisecond;
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
 * MS"), for a test that samples some rounds only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

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

__attribute__((noinline)) static void toucher(volatile char *m, long npages,
					      double ms)
{
	double end = cpu_ms() + ms;
	long i = 0;

	while (cpu_ms() < end && i < npages) {
		for (unsigned long k = 0; k < spin_per_page; k++)
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

/* How many spin iterations (with the clock reads) take a ms. */
static unsigned long spins_per_ms(void)
{
	double t0 = cpu_ms(), t;
	unsigned long n = 0;

	do {
		for (unsigned long k = 0; k < 1000; k++)
			sink += k;
		n += 1000;
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

	if (phases < 1 || ms <= 0 || rate <= 0) {
		fprintf(stderr, "usage: rates-work PHASES MS PAGES_PER_MS\n");
		return 2;
	}
	spin_per_page = (unsigned long)((double)spins_per_ms() / rate);
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
