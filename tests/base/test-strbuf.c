/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-strbuf.c - lib/base/strbuf: appends that fit, appends cut at the
 * end of the buffer (the length never past size - 1, later appends
 * harmless), joins with a separator only between items.
 */
#include "config.h"

#include <string.h>

#include "base/strbuf.h"
#include "../check.h"

int main(void)
{
	char buf[8];
	size_t len = 0;

	buf[0] = '\0';
	str_append(buf, sizeof(buf), &len, "%s-%d", "ab", 1);
	CHECK(!strcmp(buf, "ab-1") && len == 4, "fits: '%s' %zu", buf, len);
	str_append(buf, sizeof(buf), &len, "%s", "xyzuvw");
	CHECK(!strcmp(buf, "ab-1xyz") && len == 7, "cut: '%s' %zu", buf, len);
	str_append(buf, sizeof(buf), &len, "%s", "more");
	CHECK(!strcmp(buf, "ab-1xyz") && len == 7, "full: '%s' %zu", buf,
	      len);
	len = 0;
	str_append(buf, sizeof(buf), &len, "%s", "");
	CHECK(len == 0 && buf[0] == '\0', "empty: %zu", len);

	buf[0] = '\0';
	str_join(buf, sizeof(buf), "; ", "a");
	str_join(buf, sizeof(buf), "; ", "b");
	CHECK(!strcmp(buf, "a; b"), "joined: '%s'", buf);
	str_join(buf, sizeof(buf), "; ", "cdef");
	CHECK(!strcmp(buf, "a; b; c"), "joined, cut: '%s'", buf);
	str_join(buf, sizeof(buf), "; ", "d");
	CHECK(!strcmp(buf, "a; b; c"), "full: '%s'", buf);
	return check_done();
}
