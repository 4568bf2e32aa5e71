/*
 * pingpong K: parent and child pass a byte back and forth over two pipes
 * K times.  Each round trip blocks both sides once: 2K context switches
 * between them, less one when the first ping is already waiting as the
 * child starts to read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 1000;
	int ab[2], ba[2];
	char c = 'x';
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (long i = 0; i < k; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (long i = 0; i < k; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
	waitpid(pid, NULL, 0);
	return 0;
}
