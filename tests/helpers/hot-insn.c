/*
 * hot-insn MS: burn MS milliseconds of CPU time in hot_insns(), whose
 * loop is a known instruction sequence written in assembly: a divide (tens
 * of cycles), the add that waits for it, the count and the branch.  The
 * samples of a profile must land inside the loop, most of them on one
 * instruction (the divide, or the one after it: skid).
 * hot-insn --range: print where the loop is, as offsets into hot_insns
 * ("0x10 0x1c": from the first byte of the loop to the byte after it),
 * for a test that finds hot_insns with nm and assumes no address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned long hot_insns(unsigned long iters);
extern const unsigned long hot_insns_range[2];

#if defined(__x86_64__)
__asm__(".text\n"
	".globl hot_insns\n"
	".type hot_insns, @function\n"
	"hot_insns:\n"
	"	mov %rdi, %rcx\n"
	"	mov $7, %r8d\n"
	"	mov $1000003, %r9d\n"
	"	xor %r10d, %r10d\n"
	".Lloop_start:\n"
	"	mov %r9, %rax\n"
	"	xor %edx, %edx\n"
	"	div %r8\n"
	"	add %rax, %r10\n"
	"	dec %rcx\n"
	"	jnz .Lloop_start\n"
	".Lloop_end:\n"
	"	mov %r10, %rax\n"
	"	ret\n"
	".size hot_insns, . - hot_insns\n"
	".section .rodata\n"
	".globl hot_insns_range\n"
	".balign 8\n"
	"hot_insns_range:\n"
	"	.quad .Lloop_start - hot_insns, .Lloop_end - hot_insns\n"
	".text\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl hot_insns\n"
	".type hot_insns, %function\n"
	"hot_insns:\n"
	"	mov x1, #16963\n"
	"	movk x1, #15, lsl #16\n"
	"	mov x2, #7\n"
	"	mov x3, #0\n"
	".Lloop_start:\n"
	"	udiv x4, x1, x2\n"
	"	add x3, x3, x4\n"
	"	subs x0, x0, #1\n"
	"	b.ne .Lloop_start\n"
	".Lloop_end:\n"
	"	mov x0, x3\n"
	"	ret\n"
	".size hot_insns, . - hot_insns\n"
	".section .rodata\n"
	".globl hot_insns_range\n"
	".balign 8\n"
	"hot_insns_range:\n"
	"	.quad .Lloop_start - hot_insns, .Lloop_end - hot_insns\n"
	".text\n");
#else
#error "hot-insn: x86-64 or arm64 only"
#endif

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double start = cpu_ms(), ms;
	unsigned long sum = 0;

	if (argc == 2 && strcmp(argv[1], "--range") == 0) {
		printf("%#lx %#lx\n", hot_insns_range[0], hot_insns_range[1]);
		return 0;
	}
	ms = argc > 1 ? atof(argv[1]) : 500;
	while (cpu_ms() - start < ms)
		sum += hot_insns(100000);
	return sum == 1 ? 1 : 0;
}
