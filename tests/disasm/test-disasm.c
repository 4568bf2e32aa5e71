/*
 * test-disasm.c - lib/disasm on code with known instructions, as a table
 * of {machine, bytes, the instructions objdump names}: x86-64 in AT&T
 * syntax, arm64, bytes that are no instruction (one ".byte" each, four
 * bytes for arm64, and the rest still decoded), a truncated instruction,
 * another machine.  Runs on any host; skips in a build without capstone.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "disasm/disasm.h"

static const struct {
	unsigned machine;
	unsigned char code[16];
	size_t size;
	const char *want;	/* "addr text" per instruction, ';'-joined */
} cases[] = {
	{ EM_X86_64, { 0x49, 0xf7, 0xf0 }, 3, "1000 divq    %r8" },
	{ EM_X86_64, { 0x49, 0x01, 0xc2, 0xc3 }, 4,
	  "1000 addq    %rax, %r10;1003 retq" },
	{ EM_X86_64, { 0x06, 0xc3 }, 2, "1000 .byte   0x06;1001 retq" },
	{ EM_X86_64, { 0x49, 0xf7 }, 2, "1000 .byte   0x49;1001 .byte   0xf7" },
	{ EM_AARCH64, { 0x24, 0x08, 0xc2, 0x9a, 0xc0, 0x03, 0x5f, 0xd6 }, 8,
	  "1000 udiv    x4, x1, x2;1004 ret" },
	{ EM_AARCH64, { 0xff, 0xff, 0xff, 0xff, 0xc0, 0x03, 0x5f, 0xd6 }, 8,
	  "1000 .byte   0xff;1004 ret" },
	{ EM_AARCH64, { 0xc0, 0x03 }, 2, "1000 .byte   0xc0" },
};

int main(void)
{
	struct disasm_insn *in;
	size_t i, k, n;

	if (!disasm_available()) {
		CHECK(disasm_code(EM_X86_64, cases[0].code, 3, 0, &in, &n) &&
		      errno == ENOTSUP && !in && !n, "no capstone: ENOTSUP");
		if (check_done())
			return 1;
		SKIP("built without capstone");
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char got[512] = "", one[256];

		if (disasm_code(cases[i].machine, cases[i].code, cases[i].size,
				0x1000, &in, &n) != 0) {
			CHECK(0, "case %zu: errno %d", i, errno);
			continue;
		}
		for (k = 0; k < n; k++) {
			snprintf(one, sizeof(one), "%s%lx %s", k ? ";" : "",
				 (unsigned long)in[k].addr, in[k].text);
			strncat(got, one, sizeof(got) - strlen(got) - 1);
		}
		CHECK(strcmp(got, cases[i].want) == 0, "case %zu: '%s', want "
		      "'%s'", i, got, cases[i].want);
		free(in);
	}
	CHECK(disasm_code(EM_386, cases[0].code, 3, 0, &in, &n) != 0 &&
	      errno == ENOTSUP, "i386: ENOTSUP");
	CHECK(strstr(disasm_strerror(ENOTSUP, EM_386), "x86-64") != NULL,
	      "i386: the message names what is supported");
	return check_done();
}
