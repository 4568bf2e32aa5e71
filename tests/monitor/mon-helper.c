/*
 * mon-helper.c - workloads with known answers for monitor's tests.
 *
 *   mon-helper hot MS        burn MS ms of CPU in hot_spin()
 *   mon-helper sys MS        make getppid() calls for MS ms (kernel time)
 *   mon-helper cxx MS        burn in a C++-named function,
 *                            mh::Engine::hot_spin(int)
 *   mon-helper jit MS        burn in generated code named by perf-PID.map
 *   mon-helper jitbare MS    the same code, but the map is the test's to
 *                            write (or plant): "ready PID ADDR SIZE"
 *   mon-helper exec MS       hot_spin for MS/2, then exec "after MS/2"
 *   mon-helper after MS      burn in after_exec_spin()
 *   mon-helper forks MS      fork pairs of children that each burn
 *                            10 ms of CPU in child_spin() and exit,
 *                            MS ms of the children's CPU in all (a fixed
 *                            amount of work, whatever the machine's load)
 *
 * Prints "ready PID" on stderr first, so that a test can attach to it
 * (stdout stays monitor's when monitor runs it).
 * Functions sit between BEGIN/END markers the tests grep for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

volatile unsigned long sink;

unsigned long hot_spin(unsigned long iters);
unsigned long after_exec_spin(unsigned long iters);
unsigned long engine_spin(int iters) __asm__("_ZN2mh6Engine8hot_spinEi");

NOINLINE unsigned long hot_spin(unsigned long iters)	/* BEGIN hot_spin */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}							/* END hot_spin */

NOINLINE unsigned long after_exec_spin(unsigned long iters)
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x ^= i * 13 + (x << 1);
	sink = x;
	return x;
}

NOINLINE unsigned long engine_spin(int iters)
{
	unsigned long x = sink;
	int i;

	for (i = 0; i < iters; i++)
		x += (unsigned long)i * 5 + (x >> 2);
	sink = x;
	return x;
}

NOINLINE unsigned long child_spin(unsigned long iters)
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 3 + (x >> 5);
	sink = x;
	return x;
}

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
	return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

/* Short-lived children, each on whichever CPU the scheduler gives it. */
static int forks(double ms)
{
	for (double done = 0; done < ms; done += 20) {
		for (int i = 0; i < 2; i++) {
			pid_t pid = fork();

			if (pid < 0)
				return 1;
			if (pid == 0) {
				while (cpu_ms() < 10)
					child_spin(100000);
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
	}
	return 0;
}

typedef void (*jit_fn)(void);

/* x86-64: mov ecx, 100000; 1: dec ecx; jnz 1b; ret */
static const unsigned char jit_code[] = {
	0xb9, 0xa0, 0x86, 0x01, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
};

static jit_fn jit_setup(int write_map)
{
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;

	if (mem == MAP_FAILED)
		return NULL;
	memcpy((char *)mem + 64, jit_code, sizeof(jit_code));
	if (!write_map) {
		fprintf(stderr, "ready %d %lx %zx\n", (int)getpid(),
			(unsigned long)mem + 64, sizeof(jit_code));
		return (jit_fn)(void *)((char *)mem + 64);
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fprintf(f, "%lx %zx jitted_spin\n", (unsigned long)mem + 64,
		sizeof(jit_code));
	fclose(f);
	return (jit_fn)(void *)((char *)mem + 64);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "hot";
	double ms = argc > 2 ? atof(argv[2]) : 500, start;
	jit_fn jit = NULL;
	char half[32];

	if (!strcmp(mode, "jitbare")) {
		if (!(jit = jit_setup(0)))
			return 1;
		mode = "jitrun";
	} else {
		fprintf(stderr, "ready %d\n", (int)getpid());
	}
	if (!strcmp(mode, "jit") && !(jit = jit_setup(1)))
		return 1;
	if (!strcmp(mode, "forks"))
		return forks(ms);
	start = cpu_ms();
	if (!strcmp(mode, "exec"))
		ms /= 2;
	while (cpu_ms() - start < ms) {
		if (!strcmp(mode, "hot") || !strcmp(mode, "exec"))
			hot_spin(300000);
		else if (!strcmp(mode, "after"))
			after_exec_spin(300000);
		else if (!strcmp(mode, "cxx"))
			engine_spin(300000);
		else if (!strcmp(mode, "jit") || !strcmp(mode, "jitrun"))
			jit();
		else if (!strcmp(mode, "sys"))
			for (int i = 0; i < 1000; i++)
				syscall(SYS_getppid);
		else
			return 2;
	}
	if (!strcmp(mode, "exec")) {
		snprintf(half, sizeof(half), "%g", ms);
		execl("/proc/self/exe", argv[0], "after", half, (char *)NULL);
		return 1;
	}
	if (jit && strcmp(mode, "jitrun")) {
		char path[64];

		snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
		unlink(path);
	}
	return 0;
}
