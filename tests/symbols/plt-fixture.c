/*
 * plt-fixture.c - calls through PLT stubs, built by tests/symbols/plt.sh
 * at test time (several link layouts): with -DPLT_LIB the library
 * libpltfx.so, else the program that calls plt_target() through its
 * stub in a loop for MS ms of CPU time (argv[1]), and plt_other() both
 * through its stub and through its address.
 */
#ifdef PLT_LIB
int plt_target(int x);
int plt_other(int x);

int plt_target(int x)
{
	return x + 1;
}

int plt_other(int x)
{
	return x ^ 5;
}
#else
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int plt_target(int x);
int plt_other(int x);

int (*volatile other_ptr)(int) = plt_other;

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 500;
	struct timespec ts;
	int x = 0;
	long i;

	for (;;) {
		for (i = 0; i < 1000000; i++)
			x += plt_target((int)i);
		x = plt_other(x) + other_ptr(x);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		if (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 > ms)
			break;
	}
	printf("%d\n", x);
	return 0;
}
#endif
