/*
 * threads: a process with an idle main thread and a busy one.  Prints
 * "MAIN_TID BUSY_TID" once both exist, then runs until killed: -t on the
 * busy thread counts CPU time, -t on the main thread almost none.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile pid_t busy_tid;

static void *busy(void *arg)
{
	volatile unsigned long x = 0;

	(void)arg;
	busy_tid = (pid_t)syscall(SYS_gettid);
	for (;;)
		x += x * 7 + 1;
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, busy, NULL))
		return 1;
	while (busy_tid == 0)
		usleep(1000);
	printf("%d %d\n", (int)getpid(), (int)busy_tid);
	fflush(stdout);
	for (;;)
		pause();
}
