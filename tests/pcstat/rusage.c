/*
 * rusage CMD [ARGS...]: run CMD with stdout/stderr to /dev/null and print
 * "WALL_MS CPU_MS MAXRSS_KIB" of it.  A small parent, so that the peak RSS
 * is CMD's own (exec accounts the old image's peak: a python or shell
 * parent would leak its size into the child's ru_maxrss).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f %.3f %ld\n", (t1.tv_sec - t0.tv_sec) * 1e3 +
	       (t1.tv_nsec - t0.tv_nsec) / 1e6,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3,
	       ru.ru_maxrss);
	return 0;
}
