/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-strpool.c - interning: equal strings, one pointer; buffers may die. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/strpool.h"
#include "../check.h"

int main(void)
{
	struct strpool p = STRPOOL_INIT;
	char buf[32];
	const char *a, *b, *c;
	int i;

	strcpy(buf, "hot_spin");
	a = strpool_intern(&p, buf);
	strcpy(buf, "other");
	b = strpool_intern(&p, buf);
	c = strpool_intern(&p, "hot_spin");
	CHECK(a && b && c, "interned");
	CHECK(a == c && a != b, "equal strings, equal pointers");
	CHECK(strcmp(a, "hot_spin") == 0 && strcmp(b, "other") == 0,
	      "copies survive the caller's buffer");
	CHECK(strpool_find(&p, "other") == b && !strpool_find(&p, "none"),
	      "find does not add");
	for (i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i % 100);
		strpool_intern(&p, buf);
	}
	CHECK(strpool_count(&p) == 102, "count %zu", strpool_count(&p));
	CHECK(strpool_find(&p, "hot_spin") == a, "stable across growth");
	strpool_release(&p);
	CHECK(strpool_count(&p) == 0 && !strpool_find(&p, "s1"), "released");
	return check_done();
}
