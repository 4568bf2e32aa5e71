/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-srclines.c - samples per source line, of this program's own code:
 * addresses in two functions between known lines (__LINE__), with 3 + 2
 * and 1 samples, must come back as two lines of this file, inside each
 * function, the first the hottest, each with the text the test reads from
 * the file itself; a kernel's addresses count under the unknown line;
 * the row says share, file:line and text under the header's columns.
 * The addresses are ELF vaddrs, taken as the program is loaded (no
 * address of the build is assumed).
 */
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "profile/srclines.h"
#include "symbols/symbols.h"
#include "../check.h"

#define NOINLINE __attribute__((noinline, used))

/* Two functions between known lines; where in them the compiler puts
   the first address depends on the build, so the test asks only that it
   is inside. */
enum { HOT_A_FIRST = __LINE__ };
static NOINLINE unsigned hot_a(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < n; i++)
		s += i * 7;
	return s;
}
enum { HOT_A_LAST = __LINE__, COLD_B_FIRST = __LINE__ };
static NOINLINE unsigned cold_b(unsigned n)
{
	return n * 3 + hot_a(n);
}
enum { COLD_B_LAST = __LINE__ };

/* Line 'line' of file as the test reads it itself, without its
   newline and with its tabs expanded, into buf ("" where it cannot be
   read). */
static const char *line_of(const char *file, int line, char *buf,
			   size_t size)
{
	FILE *f = fopen(file, "r");
	int n = 0;

	char raw[512];
	size_t o = 0;

	buf[0] = raw[0] = '\0';
	while (f && fgets(raw, sizeof(raw), f) && ++n < line)
		;
	if (f)
		fclose(f);
	if (n != line)
		return buf;
	/* as source.h promises: tabs to 8 columns */
	for (const char *p = raw; *p && *p != '\n' && o + 9 < size; p++)
		if (*p == '\t')
			do
				buf[o++] = ' ';
			while (o % 8);
		else
			buf[o++] = *p;
	buf[o] = '\0';
	return buf;
}

/* fn's ELF vaddr in the file this program was loaded from. */
static uint64_t vaddr_of(void *fn)
{
	struct link_map *lm = NULL;
	Dl_info info;

	if (!dladdr1(fn, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
		return 0;
	return (uint64_t)((uintptr_t)fn - lm->l_addr);
}

int main(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_PROC));
	struct top_addr addrs[3];
	struct srclines a;
	char exe[4096], row[512], want[64];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CHECK(s && len > 0, "symbols_new, /proc/self/exe");
	if (!s || len <= 0)
		return check_done();
	exe[len] = '\0';
	if (cold_b(3) != 9 + 21)	/* used, so kept */
		return 1;
	addrs[0] = (struct top_addr){ .addr = vaddr_of((void *)hot_a),
				      .count = 3 };
	addrs[1] = (struct top_addr){ .addr = vaddr_of((void *)cold_b),
				      .count = 1 };
	/* the same address again, as two copies of a row would be */
	addrs[2] = (struct top_addr){ .addr = addrs[0].addr, .count = 2 };
	CHECK(srclines_build(s, exe, addrs, 3, &a) == 0, "build: %m");
	CHECK(a.total == 6 && a.n == 2, "%zu lines, %llu samples (want 2, 6)",
	      a.n, (unsigned long long)a.total);
	if (a.n == 2) {
		const struct srcline *h = &a.lines[a.hottest];
		const struct srcline *o = &a.lines[1 - a.hottest];
		char src[512];

		CHECK(h->file && strstr(h->file, "test-srclines.c") &&
		      h->line > HOT_A_FIRST && h->line < HOT_A_LAST &&
		      h->count == 5, "hottest %s:%d x%llu (want "
		      "test-srclines.c:%d-%d x5)", h->file ? h->file : "??",
		      h->line, (unsigned long long)h->count, HOT_A_FIRST,
		      HOT_A_LAST);
		CHECK(o->file == h->file && o->line > COLD_B_FIRST &&
		      o->line < COLD_B_LAST && o->count == 1,
		      "other %d x%llu (want %d-%d x1)", o->line,
		      (unsigned long long)o->count, COLD_B_FIRST, COLD_B_LAST);
		/* sorted by line: cold_b is written after hot_a */
		CHECK(a.hottest == 0, "hottest at %zu (want 0)", a.hottest);
		if (h->file) {
			CHECK(h->text && !strcmp(h->text, line_of(h->file,
					h->line, src, sizeof(src))),
			      "text '%s', the file says '%s'",
			      h->text ? h->text : "(none)", src);
			CHECK(o->text && !strcmp(o->text, line_of(o->file,
					o->line, src, sizeof(src))),
			      "text '%s', the file says '%s'",
			      o->text ? o->text : "(none)", src);
		}
		srclines_row_text(&a, a.hottest, row, sizeof(row));
		snprintf(want, sizeof(want), "test-srclines.c:%d", h->line);
		CHECK(row[0] == '>' && strstr(row, " 83.33% ") &&
		      strstr(row, want) &&
		      (!h->text || strstr(row, h->text + strspn(h->text,
								" \t"))),
		      "row '%s'", row);
		/* the header's column stands over the rows' */
		CHECK(strstr(srclines_header(), "file:line") &&
		      strstr(srclines_header(), "file:line") -
		      srclines_header() == strstr(row, want) - row,
		      "header '%s' over '%s'", srclines_header(), row);
	}
	srclines_release(&a);

	/* a kernel's addresses: no lines here, every sample counted */
	CHECK(srclines_build(s, "[kernel.kallsyms]", addrs, 3, &a) == 0 &&
	      a.n == 1 && !a.lines[0].file && a.lines[0].count == 6 &&
	      a.total == 6, "kernel: %zu lines", a.n);
	if (a.n == 1) {
		srclines_row_text(&a, 0, row, sizeof(row));
		CHECK(strstr(row, "100.00%") && strstr(row, "??:0"),
		      "kernel row '%s'", row);
	}
	srclines_release(&a);

	/* no samples: no lines */
	CHECK(srclines_build(s, exe, addrs, 0, &a) == 0 && a.n == 0 &&
	      a.total == 0, "empty: %zu lines", a.n);
	srclines_release(&a);
	symbols_free(s);
	return check_done();
}
