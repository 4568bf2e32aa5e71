/*
 * spin MS [THREADS]: burn MS milliseconds of CPU time per thread in
 * hot_spin(), a noinline function that a profile must put on top.
 * spin --rounds N: call hot_spin() N times instead, a fixed amount of
 * work however much CPU time it takes: under QEMU TCG on a loaded host
 * the guest's CPU clock also counts the host's stalls, so that MS ms of
 * CPU time can be little work beside a fixed startup (tests/kernel).
 * Prints the CPU time it used (getrusage, microseconds) on stdout.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static long spin_ms = 500;

unsigned long hot_spin(unsigned long iters);

__attribute__((noinline)) unsigned long hot_spin(unsigned long iters)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	return x;
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *worker(void *arg)
{
	double start = thread_cpu_ms();

	(void)arg;
	while (thread_cpu_ms() - start < (double)spin_ms)
		hot_spin(200000);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t tid[64];
	struct rusage ru;

	if (argc == 3 && strcmp(argv[1], "--rounds") == 0) {
		for (long n = atol(argv[2]); n > 0; n--)
			hot_spin(200000);
	} else {
		spin_ms = argc > 1 ? atol(argv[1]) : 500;
		if (threads < 1 || threads > 64)
			threads = 1;
		for (int i = 1; i < threads; i++)
			pthread_create(&tid[i], NULL, worker, NULL);
		worker(NULL);
		for (int i = 1; i < threads; i++)
			pthread_join(tid[i], NULL);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld\n", (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return 0;
}
