/*
 * touch-pages N [REPEAT]: fault in N fresh anonymous pages, REPEAT times
 * (fresh mappings each time): exactly N*REPEAT minor page faults beyond
 * the fixed cost of starting a process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long rep = argc > 2 ? atol(argv[2]) : 1;
	long page = sysconf(_SC_PAGESIZE);

	/* N = 0 is the baseline run: the same start-up, no mapping (mmap
	 * refuses a length of 0, and its error path faults pages of its own). */
	for (long r = 0; n > 0 && r < rep; r++) {
		volatile char *m = mmap(NULL, (size_t)(n * page),
					PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			perror("touch-pages: mmap");
			return 1;
		}
		/* No transparent huge pages: one fault per 4 KiB page. */
		madvise((void *)m, (size_t)(n * page), MADV_NOHUGEPAGE);
		for (long i = 0; i < n; i++)
			m[i * page] = 1;
		munmap((void *)m, (size_t)(n * page));
	}
	return 0;
}
