/*
 * test-unwind.c - lib/unwind on our own stack, without the kernel: the
 * registers are taken where unwind_c() calls test_regs_load(), the stack
 * above them is copied as PERF_SAMPLE_STACK_USER would copy it, and the
 * chain must come back as unwind_c <- unwind_b <- unwind_a <- main <- libc.
 *
 * Built twice: as is (.eh_frame) and without unwind tables (-g
 * -fno-asynchronous-unwind-tables, so our functions have .debug_frame
 * only), both without frame pointers, so that only the CFI can unwind
 * them.  Argument: "debug-frame" when the build has no .eh_frame for
 * them (the test then checks that the file indeed has .debug_frame);
 * "guess" for the made-up stack of check_guess_out_of_maps() alone.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "symbols/symbols.h"
#include "unwind/unwind.h"
#include "../check.h"

#define NOINLINE __attribute__((noinline))

#if defined(__x86_64__) && defined(HAVE_LIBUNWIND)

/* The registers in perf's x86-64 order (AX BX CX DX SI DI BP SP IP FLAGS
   CS SS DS ES FS GS R8..R15), as the caller sees them on return. */
void test_regs_load(uint64_t *regs);
__asm__(".text\n"
	".globl test_regs_load\n"
	".type test_regs_load, @function\n"
	"test_regs_load:\n"
	"	movq %rax, 0(%rdi)\n"
	"	movq %rbx, 8(%rdi)\n"
	"	movq %rcx, 16(%rdi)\n"
	"	movq %rdx, 24(%rdi)\n"
	"	movq %rsi, 32(%rdi)\n"
	"	movq %rdi, 40(%rdi)\n"
	"	movq %rbp, 48(%rdi)\n"
	"	leaq 8(%rsp), %rax\n"
	"	movq %rax, 56(%rdi)\n"
	"	movq 0(%rsp), %rax\n"
	"	movq %rax, 64(%rdi)\n"
	"	movq %r8, 128(%rdi)\n"
	"	movq %r9, 136(%rdi)\n"
	"	movq %r10, 144(%rdi)\n"
	"	movq %r11, 152(%rdi)\n"
	"	movq %r12, 160(%rdi)\n"
	"	movq %r13, 168(%rdi)\n"
	"	movq %r14, 176(%rdi)\n"
	"	movq %r15, 184(%rdi)\n"
	"	ret\n"
	".size test_regs_load, .-test_regs_load\n");

static uint64_t stack_top;	/* end of [stack] */

static void find_stack_top(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long a, b;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") &&
		    sscanf(line, "%llx-%llx", &a, &b) == 2)
			stack_top = b;
	if (f)
		fclose(f);
}

static const char *const want[] = { "unwind_c", "unwind_b", "unwind_a",
				    "main" };

/* Unwind the state regs describe, as a sample would carry it. */
/*
 * Copy n bytes of our own stack from src, as the kernel copies a sampled
 * stack: bytes, with no regard to the C objects there.  Uninstrumented and
 * byte by byte (not memcpy, which ASan intercepts): ASan would take the
 * read of its own redzones between the locals for an overrun.
 */
static NOINLINE __attribute__((no_sanitize_address)) void
stack_copy(uint8_t *dst, uintptr_t src, size_t n)
{
	const volatile uint8_t *p = (const volatile uint8_t *)src;
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = p[i];
}

static NOINLINE void check_chain(const uint64_t *all, const char *what)
{
	static uint8_t stack[16384];
	uint64_t mask = unwind_regs_mask(), packed[64], sp = all[7];
	struct unwind_frame fr[64];
	struct symbols *s = symbols_new(NULL);
	struct unwind *u = s ? unwind_new(s) : NULL;
	enum unwind_stop stop;
	size_t n, i, np = 0, size, w = 0;
	unsigned r;

	CHECK(u, "unwind_new: %s", strerror(errno));
	if (!u)
		return;
	for (r = 0; r < 64; r++)
		if (mask & (1ull << r))
			packed[np++] = r < 24 ? all[r] : 0;
	size = stack_top - sp < sizeof(stack) ? stack_top - sp : sizeof(stack);
	stack_copy(stack, (uintptr_t)sp, size);
	symbols_read_maps(s, getpid());

	n = unwind_user(u, &(struct unwind_input){
				.pid = getpid(), .abi = PERF_SAMPLE_REGS_ABI_64,
				.regs_mask = mask, .regs = packed, .nregs = np,
				.stack = stack, .stack_size = size },
			fr, 64, &stop);
	for (i = 0; i < n; i++) {
		struct sym_result res;

		symbols_resolve(s, getpid(), fr[i].ip - !fr[i].exact, false,
				&res);
		printf("%s #%zu %#" PRIx64 " %s %s\n", what, i, fr[i].ip,
		       res.sym ? res.sym : "?", res.dso);
		if (w < 4 && res.sym && !strcmp(res.sym, want[w]))
			w++;
	}
	printf("%s: %zu frames, %s\n", what, n, unwind_stop_name(stop));
	CHECK(w == 4, "%s: found %zu of unwind_c, b, a, main in order", what,
	      w);
	CHECK(n >= 5 && n < 64, "%s: %zu frames, past main into libc", what, n);
	CHECK(stop == UNWIND_END, "%s: ended by %s", what,
	      unwind_stop_name(stop));

	/* libunwind alone, for every frame, finds the same chain; the rules
	   it taught carry it the second time */
	{
		struct unwind_frame again[64];
		struct unwind_stats st;
		enum unwind_stop stop2;
		size_t n2, j, same = 0;
		const struct unwind_input in = {
			.pid = getpid(), .abi = PERF_SAMPLE_REGS_ABI_64,
			.regs_mask = mask, .regs = packed, .nregs = np,
			.stack = stack, .stack_size = size };

		unwind_set_rules(u, false);
		n2 = unwind_user(u, &in, again, 64, &stop2);
		for (j = 0; j < n && j < n2; j++)
			same += again[j].ip == fr[j].ip &&
				again[j].exact == fr[j].exact;
		CHECK(n2 == n && same == n && stop2 == stop,
		      "%s: libunwind alone: %zu frames, %zu the same", what, n2,
		      same);
		unwind_set_rules(u, true);
		unwind_stats(u, &st);
		n2 = unwind_user(u, &in, again, 64, &stop2);
		unwind_stats(u, &st);
		CHECK(n2 == n, "%s: again: %zu frames", what, n2);
		printf("%s: %llu frames by rules, %llu by libunwind, %llu "
		       "probes, %zu rules\n", what,
		       (unsigned long long)st.fast_frames,
		       (unsigned long long)st.slow_frames,
		       (unsigned long long)st.probes, st.rules);
		CHECK(st.fast_frames >= 2 * (n - 1) - 1,
		      "%s: the rules carried the chains", what);
	}

	/* a copy cut short: the chain stops, saying so */
	n = unwind_user(u, &(struct unwind_input){
				.pid = getpid(), .abi = PERF_SAMPLE_REGS_ABI_64,
				.regs_mask = mask, .regs = packed, .nregs = np,
				.stack = stack, .stack_size = 16 },
			fr, 64, &stop);
	CHECK(n >= 1 && n < 4 && stop == UNWIND_STACK_CUT,
	      "%s: 16 bytes of stack: %zu frames, %s", what, n,
	      unwind_stop_name(stop));
	/* no registers: nothing */
	n = unwind_user(u, &(struct unwind_input){ .pid = getpid() }, fr, 64,
			&stop);
	CHECK(n == 0 && stop == UNWIND_NO_REGS, "no registers: %zu", n);
	unwind_free(u);
	symbols_free(s);
}

/*
 * A frame with no CFI whose frame pointer leads to a return address in
 * no mapping: libunwind's x86-64 fallback guesses the caller from RBP,
 * and stepping from that caller it would "fix up" the frame through an
 * RSP it never loaded (read by our accessor at an uninitialised
 * address: valgrind sees it, unwind.sh runs this case under it).  The
 * chain must end at the unmapped frame, as a bad frame.  The stack is a
 * made-up one, every byte of it defined.
 */
static NOINLINE void check_guess_out_of_maps(void)
{
	extern const char __executable_start[];
	const uint64_t sp = 0x7ff000000000ull;
	/* [sp+16]: the saved RBP, then the return address; a second
	   frame's the same way above, for a fallback that walks on */
	const uint64_t stack[8] = { 0, 0, sp + 48, 0x10, 0, 0, sp + 64, 0x20 };
	uint64_t mask = unwind_regs_mask(), packed[64], all[24] = { 0 };
	struct unwind_frame fr[8];
	struct symbols *s = symbols_new(NULL);
	struct unwind *u = s ? unwind_new(s) : NULL;
	enum unwind_stop stop;
	size_t n, np = 0;
	unsigned r;

	CHECK(u, "unwind_new: %s", strerror(errno));
	if (!u)
		return;
	symbols_read_maps(s, getpid());
	/* the ELF header: mapped and readable, covered by no FDE */
	all[8] = (uintptr_t)__executable_start + 64;
	all[7] = sp;
	all[6] = sp + 16;
	for (r = 0; r < 64; r++)
		if (mask & (1ull << r))
			packed[np++] = r < 24 ? all[r] : 0;
	n = unwind_user(u, &(struct unwind_input){
				.pid = getpid(), .abi = PERF_SAMPLE_REGS_ABI_64,
				.regs_mask = mask, .regs = packed, .nregs = np,
				.stack = (const uint8_t *)stack,
				.stack_size = sizeof(stack) },
			fr, 8, &stop);
	printf("guess: %zu frames, %s, last %#" PRIx64 "\n", n,
	       unwind_stop_name(stop), n ? fr[n - 1].ip : 0);
	CHECK(n == 2 && fr[1].ip == 0x10 && stop == UNWIND_BAD_FRAME,
	      "a guessed caller in no mapping: %zu frames (want 2, the "
	      "second 0x10), %s (want bad frame)", n, unwind_stop_name(stop));
	unwind_free(u);
	symbols_free(s);
}

volatile int sink;

NOINLINE void unwind_c(const char *what);
NOINLINE void unwind_b(const char *what);
NOINLINE void unwind_a(const char *what);

NOINLINE void unwind_c(const char *what)
{
	uint64_t regs[24] = { 0 };

	test_regs_load(regs);
	check_chain(regs, what);
	sink++;
}

NOINLINE void unwind_b(const char *what)
{
	char pad[100];

	memset(pad, sink, sizeof(pad));
	unwind_c(what);
	sink += pad[3];
}

NOINLINE void unwind_a(const char *what)
{
	unwind_b(what);
	sink++;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "eh-frame";

	find_stack_top();
	if (!stack_top) {
		printf("SKIP: no [stack] in /proc/self/maps\n");
		return 77;
	}
	if (strcmp(what, "guess") != 0)
		unwind_a(what);
	check_guess_out_of_maps();
	return check_done();
}

#else

int main(void)
{
	SKIP("%s", unwind_available() ? "not x86-64"
				      : "built without libunwind");
}

#endif
