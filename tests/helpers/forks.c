/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forks MODE N: a known number of getppid() calls and forks, for
 * counts through inheritance (syscalls:sys_enter_getppid,
 * sched:sched_process_fork).
 *   calls N    N calls, no fork
 *   fork N     N children one after another, 10 calls each
 *   storm N    N children at once, 10 calls each, then reaps them
 *   vfork N    N vfork()ed children that only _exit
 *   threads N  N threads one after another, 10 calls each
 *   spawn N    N posix_spawn()ed copies of itself running 'calls 10'
 *   daemon N   a double-forked grandchild makes N calls, then tells the
 *              command, which makes 7 calls and exits; the grandchild
 *              lives 1 s more (counted: what it did while inherited)
 * In every mode the process itself makes no other getppid() call.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void calls(long k)
{
	for (long i = 0; i < k; i++)
		syscall(SYS_getppid);
}

static void *thread(void *arg)
{
	(void)arg;
	calls(10);
	return NULL;
}

static int child(pid_t pid)
{
	if (pid < 0) {
		perror("forks: fork");
		exit(1);
	}
	if (pid == 0) {
		calls(10);
		_exit(0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (!strcmp(mode, "calls")) {
		calls(n);
	} else if (!strcmp(mode, "fork")) {
		for (long i = 0; i < n; i++) {
			pid_t pid = fork();

			child(pid);
			waitpid(pid, NULL, 0);
		}
	} else if (!strcmp(mode, "storm")) {
		for (long i = 0; i < n; i++)
			child(fork());
		while (wait(NULL) > 0)
			;
	} else if (!strcmp(mode, "vfork")) {
		for (long i = 0; i < n; i++) {
			pid_t pid = vfork();

			if (pid == 0)
				_exit(0);
			if (pid < 0)
				return 1;
			waitpid(pid, NULL, 0);
		}
	} else if (!strcmp(mode, "threads")) {
		for (long i = 0; i < n; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL, thread, NULL))
				return 1;
			pthread_join(t, NULL);
		}
	} else if (!strcmp(mode, "spawn")) {
		char *av[] = { argv[0], "calls", "10", NULL };

		for (long i = 0; i < n; i++) {
			pid_t pid;

			if (posix_spawn(&pid, argv[0], NULL, NULL, av, environ))
				return 1;
			waitpid(pid, NULL, 0);
		}
	} else if (!strcmp(mode, "daemon")) {
		int p[2];
		char c;
		pid_t pid;

		if (pipe(p))
			return 1;
		pid = fork();
		if (pid == 0) {
			if (fork() == 0) {
				calls(n);
				if (write(p[1], "x", 1) != 1)
					_exit(1);
				sleep(1);
			}
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		if (read(p[0], &c, 1) != 1)
			return 1;
		calls(7);
	} else {
		fprintf(stderr, "usage: forks calls|fork|storm|vfork|threads|spawn|daemon N\n");
		return 2;
	}
	return 0;
}
