/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-optsz.c - sz-prefixed option structs: older, same, newer sizes. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/optsz.h"
#include "../check.h"

struct opts {
	size_t sz;
	int a, b;
};

/* What a newer caller might pass: our struct and a field we lack. */
struct newer {
	struct opts o;
	long future;
};

static const struct {
	size_t sz;		/* the caller's sz */
	long future;		/* the newer field's value */
	int want_ret, want_errno;
	int want_a, want_b;	/* dst after the call (defaults 7, 8) */
	const char *what;
} rows[] = {
	{ sizeof(struct opts), 0, 0, 0, 1, 2, "same size" },
	{ offsetof(struct opts, b), 0, 0, 0, 1, 8, "older: b keeps its default" },
	{ sizeof(size_t), 0, 0, 0, 7, 8, "oldest: only sz" },
	{ sizeof(struct newer), 0, 0, 0, 1, 2, "newer, zero tail" },
	{ sizeof(struct newer), 5, -1, E2BIG, 7, 8, "newer, non-zero tail" },
	{ sizeof(size_t) - 1, 0, -1, EINVAL, 7, 8, "smaller than sz itself" },
	{ 0, 0, -1, EINVAL, 7, 8, "zero" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opts dst = { sizeof(dst), 7, 8 };
		struct newer src;
		int r;

		memset(&src, 0, sizeof(src));
		src.o = (struct opts){ rows[i].sz, 1, 2 };
		src.future = rows[i].future;
		errno = 0;
		r = optsz_copy(&dst, sizeof(dst), &src);
		CHECK(r == rows[i].want_ret && (r == 0 || errno == rows[i].want_errno),
		      "%s: returned %d, errno %d", rows[i].what, r, errno);
		CHECK(dst.a == rows[i].want_a && dst.b == rows[i].want_b &&
		      dst.sz == sizeof(dst), "%s: dst %d %d sz %zu", rows[i].what,
		      dst.a, dst.b, dst.sz);
	}
	{
		struct opts dst = { sizeof(dst), 7, 8 };

		CHECK(optsz_copy(&dst, sizeof(dst), NULL) == 0 && dst.a == 7,
		      "NULL: the defaults");
	}
	return check_done();
}
