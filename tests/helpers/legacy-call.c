/*
 * legacy-call: call perf_counter_open(task-clock, SIMPLE, self) once and
 * print "fd=N" or "errno=NAME", so shell tests can watch what the shim
 * does (and, under strace, which system calls it issues).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sysapi/perf_counter.h>

int main(void)
{
	int fd = perf_counter_open(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE,
				   0, -1);

	if (fd < 0)
		printf("errno=%s\n", errno == ENOSYS ? "ENOSYS" : strerror(errno));
	else
		printf("fd=%d\n", fd);
	return 0;
}
