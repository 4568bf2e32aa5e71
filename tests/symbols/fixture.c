/*
 * fixture.c - functions at known lines for the symbol table test.  Each
 * function sits between BEGIN/END markers that the test greps for its
 * line range.  Built -g -O0; fx_leaf is always inlined into fx_outer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

volatile unsigned long sink;

void fx_alpha(int n);
void fx_outer(int n);
void fx_deep(int n);
/* A C++ name without a C++ compiler: fx::Widget::spin(int). */
int fx_widget_spin(int n) __asm__("_ZN2fx6Widget4spinEi");

/*
 * Assembly: asmfx_label is an untyped label (no .type), as ld.so's _start
 * and _dl_start_user are; asmfx_inner is a label inside the function
 * asmfx_sized, a place in it and not a function of its own.
 */
__asm__(".text\n"
	".globl asmfx_label\n"
	"asmfx_label:\n"
	"\tnop\n\tnop\n\tnop\n\tnop\n\tret\n"
	".globl asmfx_sized\n"
	".type asmfx_sized, @function\n"
	"asmfx_sized:\n"
	"\tnop\n\tnop\n"
	"asmfx_inner:\n"
	"\tnop\n\tnop\n\tret\n"
	".size asmfx_sized, .-asmfx_sized\n");

NOINLINE int fx_widget_spin(int n)	/* BEGIN fx_widget_spin */
{
	sink += (unsigned long)n;
	return (int)sink;
}				/* END fx_widget_spin */

NOINLINE void fx_alpha(int n)	/* BEGIN fx_alpha */
{
	int i;

	for (i = 0; i < n; i++)
		sink += (unsigned long)i;
}				/* END fx_alpha */

NOINLINE static void fx_local(int n)	/* BEGIN fx_local */
{
	int i;

	for (i = 0; i < n; i++)
		sink ^= (unsigned long)i * 7;
}				/* END fx_local */

static inline __attribute__((always_inline)) void fx_leaf(int n)
{				/* BEGIN fx_leaf */
	sink += (unsigned long)n * 3;
	sink ^= (unsigned long)n;
}				/* END fx_leaf */

NOINLINE void fx_outer(int n)	/* BEGIN fx_outer */
{
	fx_leaf(n);
	fx_leaf(n + 1);
}				/* END fx_outer */

/* Two levels of inlining, each level reached twice: the chains that
   resolve.sh compares with addr2line -i, address by address. */
static inline __attribute__((always_inline)) void fx_mid(int n)
{
	fx_leaf(n);
	{
		int k = n * 2;

		fx_leaf(k);
	}
}

NOINLINE void fx_deep(int n)
{
	fx_mid(n);
	fx_mid(n + 5);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;

	/* "wait": stay alive (for tests on a running process) */
	if (argc > 1 && strcmp(argv[1], "wait") == 0) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}

	fx_alpha(n);
	fx_local(n);
	fx_outer(n);
	fx_deep(n);
	fx_widget_spin(n);
	printf("%lu\n", sink);
	return 0;
}
