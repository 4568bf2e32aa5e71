/*
 * mlock-fill: take this user's whole share of kernel.perf_event_mlock_kb
 * (the locked memory the kernel lets each user's sample rings have
 * beyond RLIMIT_MEMLOCK) and hold it.  RLIMIT_MEMLOCK is set to 0 first,
 * so that nothing is locked beyond the share; rings are mapped on
 * counters of this process, each half the last one refused, until one
 * data page no longer fits.  Then "ready PID RINGS" on stderr, and sleep
 * until killed.  A tool of the same user under 'ulimit -l 0' then finds
 * no room for its rings, whatever the CPUs and the sysctl.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct rlimit none = { 0, 0 };
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 1024;
	int rings = 0;

	if (setrlimit(RLIMIT_MEMLOCK, &none) != 0)
		return 1;
	while (pages >= 1 && rings < 4096) {
		struct perf_event_attr a;
		void *p;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.exclude_kernel = 1;
		a.sample_period = 1000000;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd < 0)
			return 1;
		p = mmap(NULL, (pages + 1) * (size_t)page,
			 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			if (errno != EPERM)
				return 1;
			pages /= 2;
			continue;
		}
		rings++;
	}
	fprintf(stderr, "ready %d %d\n", (int)getpid(), rings);
	for (;;)
		pause();
}
