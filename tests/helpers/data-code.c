/*
 * data-code [N]: runs a function whose code is in .data, not in an
 * executable section of the file: data_spin, a countdown loop of N
 * (default 300) million turns, assembled into .data with a function
 * symbol, and its page made executable at run time.  For a test that a
 * profiler's instruction view says the code is in no executable section.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__asm__(".data\n"
	".balign 64\n"
	".globl data_spin\n"
	".type data_spin, @function\n"
	"data_spin:\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".size data_spin, .-data_spin\n"
	".text\n");

void data_spin(unsigned long n);

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t p = (uintptr_t)data_spin & ~(uintptr_t)(page - 1);
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 300;

	if (mprotect((void *)p, (size_t)page,
		     PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
		perror("data-code: mprotect");
		return 1;
	}
	data_spin(n * 1000000);
	return 0;
}
