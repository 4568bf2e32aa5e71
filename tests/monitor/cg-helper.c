/*
 * cg-helper.c - workloads with known call trees, for the call-graph
 * tests.  Built twice: with frame pointers (cg-helper-fp) and without
 * (cg-helper-nofp), so that DWARF unwinding must do without them.
 *
 *   cg-helper tree MS   burn MS ms of CPU in cg_hot(), three quarters of
 *                       it called as main -> cg_a -> cg_b -> cg_hot and
 *                       one quarter as main -> cg_c -> cg_hot
 *   cg-helper sys MS    make getppid() system calls for MS ms, from
 *                       main -> cg_sys
 *   cg-helper phases MS the tree's two paths one after the other, by CPU
 *                       time: 30% main -> cg_c -> cg_hot, then 40%
 *                       main -> cg_a -> cg_b -> cg_hot, then 30%
 *                       main -> cg_c -> cg_hot again
 *   cg-helper work N [DEPTH]
 *                       a fixed amount of work for benchmarks: N rounds
 *                       of the tree above, under DEPTH frames of
 *                       cg_deep() (default 0); at exit, writes its own
 *                       CPU time in microseconds to the file named by
 *                       $CG_CPU_FILE, if set
 *
 * Prints "ready PID" on stderr first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define WORK 200000ul		/* cg_hot's iterations per quarter */

volatile unsigned long sink;

void cg_hot(unsigned long iters);
void cg_a(void);
void cg_b(void);
void cg_c(void);
void cg_sys(void);
void cg_deep(int depth, long rounds);

/* The accumulator lives on the stack: a leaf function without a frame
   gets no frame pointer from gcc, whatever -mno-omit-leaf-frame-pointer
   says, and then a frame-pointer walk skips its caller. */
NOINLINE void cg_hot(unsigned long iters)
{
	volatile unsigned long x = sink;
	unsigned long i;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
}

NOINLINE void cg_b(void)
{
	cg_hot(3 * WORK);
	sink++;
}

NOINLINE void cg_a(void)
{
	cg_b();
	sink++;
}

NOINLINE void cg_c(void)
{
	cg_hot(WORK);
	sink++;
}

NOINLINE void cg_sys(void)
{
	int i;

	for (i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	sink++;
}

/* DEPTH frames of its own, then the tree ROUNDS times. */
NOINLINE void cg_deep(int depth, long rounds)
{
	volatile char pad[32];

	pad[0] = (char)depth;
	if (depth > 0) {
		cg_deep(depth - 1, rounds);
	} else {
		while (rounds-- > 0) {
			cg_a();
			cg_c();
		}
	}
	sink += (unsigned long)pad[0];
}

/* $CG_CPU_FILE gets our CPU time (user + system) in microseconds. */
static void report_cpu(void)
{
	const char *path = getenv("CG_CPU_FILE");
	struct rusage ru;
	FILE *f;

	if (!path || getrusage(RUSAGE_SELF, &ru) != 0 || !(f = fopen(path, "w")))
		return;
	fprintf(f, "%ld\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
		   ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	fclose(f);
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "tree";
	double ms = argc > 2 ? atof(argv[2]) : 1000, start;
	int tree = !strcmp(mode, "tree"), phases = !strcmp(mode, "phases");

	if (!strcmp(mode, "work")) {
		fprintf(stderr, "ready %d\n", (int)getpid());
		cg_deep(argc > 3 ? atoi(argv[3]) : 0,
			argc > 2 ? atol(argv[2]) : 100);
		report_cpu();
		return 0;
	}
	if (!tree && !phases && strcmp(mode, "sys"))
		return 2;
	fprintf(stderr, "ready %d\n", (int)getpid());
	start = cpu_ms();
	while (cpu_ms() - start < ms) {
		double at = (cpu_ms() - start) / ms;

		if (phases && (at < 0.3 || at >= 0.7)) {
			cg_c();
		} else if (phases) {
			cg_a();
		} else if (tree) {
			cg_a();
			cg_c();
		} else {
			cg_sys();
		}
	}
	return 0;
}
