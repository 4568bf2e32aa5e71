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
 *
 * Prints "ready PID" on stderr first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	int tree = !strcmp(mode, "tree");

	if (!tree && strcmp(mode, "sys"))
		return 2;
	fprintf(stderr, "ready %d\n", (int)getpid());
	start = cpu_ms();
	while (cpu_ms() - start < ms) {
		if (tree) {
			cg_a();
			cg_c();
		} else {
			cg_sys();
		}
	}
	return 0;
}
