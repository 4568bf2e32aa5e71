/*
 * threads [NAME]: a process with an idle main thread and a busy one
 * (named NAME, any bytes prctl(PR_SET_NAME) takes, when given).  Prints
 * "MAIN_TID BUSY_TID" once both exist, then runs until killed: -t on the
 * busy thread counts CPU time, -t on the main thread almost none.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile pid_t busy_tid;

static void *busy(void *arg)
{
	volatile unsigned long x = 0;

	if (arg)
		prctl(PR_SET_NAME, arg, 0, 0, 0);
	busy_tid = (pid_t)syscall(SYS_gettid);
	for (;;)
		x += x * 7 + 1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (pthread_create(&t, NULL, busy, argc > 1 ? argv[1] : NULL))
		return 1;
	while (busy_tid == 0)
		usleep(1000);
	printf("%d %d\n", (int)getpid(), (int)busy_tid);
	fflush(stdout);
	for (;;)
		pause();
}
