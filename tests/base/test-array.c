/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-array.c - ARRAY_GROW: sizes, doubling, overflow, failure leaves
   the array alone. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/array.h"
#include "../check.h"

static const struct {
	size_t alloc, need, want_alloc;
} grows[] = {
	{ 0, 0, 0 },		/* nothing needed: nothing allocated */
	{ 0, 1, 8 },		/* at least 8 */
	{ 0, 8, 8 },
	{ 0, 9, 16 },
	{ 8, 8, 8 },		/* enough already */
	{ 8, 9, 16 },		/* doubling */
	{ 16, 100, 128 },
	{ 0, 1000, 1024 },
};

static void test_grow_table(void)
{
	for (size_t i = 0; i < sizeof(grows) / sizeof(grows[0]); i++) {
		int *p = grows[i].alloc ? calloc(grows[i].alloc, sizeof(*p)) : NULL;
		size_t alloc = grows[i].alloc;
		int r = ARRAY_GROW(p, grows[i].need, alloc);

		CHECK(r == 0, "row %zu: returned %d", i, r);
		CHECK(alloc == grows[i].want_alloc, "row %zu: alloc %zu, want %zu",
		      i, alloc, grows[i].want_alloc);
		if (grows[i].need)
			p[grows[i].need - 1] = 1;	/* ASan checks the room */
		free(p);
	}
}

static void test_keeps_contents(void)
{
	int *p = NULL;
	size_t alloc = 0, n;

	for (n = 0; n < 1000; n++) {
		if (ARRAY_GROW(p, n + 1, alloc) != 0)
			break;
		p[n] = (int)n;
	}
	CHECK(n == 1000, "grew to %zu of 1000", n);
	for (size_t i = 0; i < n; i++)
		if (p[i] != (int)i) {
			CHECK(p[i] == (int)i, "element %zu is %d", i, p[i]);
			break;
		}
	free(p);
}

static void test_overflow(void)
{
	char *keep = malloc(4);
	struct big { char b[1 << 20]; } *p = (void *)keep;
	size_t alloc = 0;
	int r;

	errno = 0;
	r = ARRAY_GROW(p, SIZE_MAX / 2, alloc);
	CHECK(r == -1 && errno == ENOMEM, "overflow: r %d errno %d", r, errno);
	CHECK((void *)p == keep && alloc == 0, "failure left the array alone");
	free(keep);
}

int main(void)
{
	test_grow_table();
	test_keeps_contents();
	test_overflow();
	return check_done();
}
