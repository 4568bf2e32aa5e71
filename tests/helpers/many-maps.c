/*
 * many-maps N [MS]: a process with N more mappings (one page each, every
 * other one a page of its own executable mapped to run, the others
 * anonymous, with a page left unmapped between them so that none
 * merge), then busy in maps_hot() for MS milliseconds (0: until killed).
 * Prints "ready PID" on stderr once they are all mapped.
 * Built -O1 -g -fno-inline: it is the measured program.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

void maps_hot(unsigned long iters);

__attribute__((noinline)) void maps_hot(unsigned long iters)
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 60000;
	double ms = argc > 2 ? atof(argv[2]) : 0, end;
	long page = sysconf(_SC_PAGESIZE);
	char *area;
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0) {
		perror("many-maps: /proc/self/exe");
		return 1;
	}

	/* reserve 2n pages, then map every other one on its own */
	area = mmap(NULL, (size_t)(2 * n * page), PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED) {
		perror("many-maps: mmap");
		return 1;
	}
	munmap(area, (size_t)(2 * n * page));
	for (long i = 0; i < n; i++) {
		bool code = i % 2;

		if (mmap(area + 2 * i * page, (size_t)page,
			 PROT_READ | (code ? PROT_EXEC : 0),
			 MAP_PRIVATE | MAP_FIXED | (code ? 0 : MAP_ANONYMOUS),
			 code ? fd : -1, 0) == MAP_FAILED) {
			perror("many-maps: mmap (vm.max_map_count?)");
			return 1;
		}
	}
	fprintf(stderr, "ready %d\n", (int)getpid());
	end = now_ms() + ms;
	while (ms == 0 || now_ms() < end)
		maps_hot(1000000);
	return 0;
}
