/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seed-elf.c - the source of the fuzz-elf target's seed files
 * (elf-seeds.sh): a few functions, one inlined twice, built without the
 * C library so that each seed stays a few kilobytes.
 */
static inline __attribute__((always_inline)) int twice(int x)
{
	return x * 2;
}

static __attribute__((noinline)) int leaf(volatile int *p)
{
	return twice(*p) + 1;
}

__attribute__((noinline)) int seed_middle(volatile int *p)
{
	return leaf(p) + twice(*p);
}

int seed_entry(void);
int seed_entry(void)
{
	volatile int v = 21;

	return seed_middle(&v);
}
