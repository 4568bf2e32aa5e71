/*
 * test-disasm.c - lib/disasm on code with known instructions, as a table
 * of {machine, bytes, the instructions objdump names}: x86-64 in AT&T
 * syntax (VEX, EVEX with masks, a lock prefix), arm64, bytes that are no
 * instruction (one "(undecodable)" row each, four bytes for arm64, and
 * the rest still decoded), a truncated instruction, another machine.
 * Runs on any host; skips in a build without a disassembler.
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
	unsigned char code[24];
	size_t size;
	const char *want;	/* "addr text" per instruction, ';'-joined */
} cases[] = {
	{ EM_X86_64, { 0x49, 0xf7, 0xf0 }, 3, "1000 divq    %r8" },
	{ EM_X86_64, { 0x49, 0x01, 0xc2, 0xc3 }, 4,
	  "1000 addq    %rax, %r10;1003 retq" },
	{ EM_X86_64, { 0x06, 0xc3 }, 2, "1000 (undecodable) 06;1001 retq" },
	{ EM_X86_64, { 0x49, 0xf7 }, 2,
	  "1000 (undecodable) 49;1001 (undecodable) f7" },
	/* __memchr_evex's hot loop: capstone 4 read "addb $0xc5, %al" at
	   the byte before kmovd and lost the alignment */
	{ EM_X86_64, { 0xc5, 0xfb, 0x93, 0xc1, 0x62, 0xe1, 0xfe, 0x48, 0x6f,
		       0x47, 0x01 }, 11,
	  "1000 kmovd   %k1, %eax;1004 vmovdqu64 0x40(%rdi), %zmm16" },
	{ EM_X86_64, { 0x62, 0xb1, 0x7d, 0x22, 0x74, 0x0c, 0x06, 0xc5, 0xfd,
		       0xd7, 0xc1 }, 11,
	  "1000 vpcmpeqb (%rsi,%r8), %ymm16, %k1 {%k2};"
	  "1007 vpmovmskb %ymm1, %eax" },
	{ EM_X86_64, { 0x62, 0xf2, 0x7d, 0x29, 0x26, 0xc9, 0xc5, 0xf8, 0x77 },
	  9, "1000 vptestmb %ymm1, %ymm0, %k1 {%k1};1006 vzeroupper" },
	{ EM_X86_64, { 0xf0, 0x0f, 0xb1, 0x0a, 0xc3 }, 5,
	  "1000 lock cmpxchgl %ecx, (%rdx);1004 retq" },
	{ EM_AARCH64, { 0x24, 0x08, 0xc2, 0x9a, 0xc0, 0x03, 0x5f, 0xd6 }, 8,
	  "1000 udiv    x4, x1, x2;1004 ret" },
	{ EM_AARCH64, { 0xff, 0xff, 0xff, 0xff, 0xc0, 0x03, 0x5f, 0xd6 }, 8,
	  "1000 (undecodable) ff ff ff ff;1004 ret" },
	{ EM_AARCH64, { 0xc0, 0x03 }, 2, "1000 (undecodable) c0 03" },
};

int main(void)
{
	struct disasm_insn *in;
	size_t i, k, n;

	if (!disasm_available()) {
		CHECK(disasm_code(EM_X86_64, cases[0].code, 3, 0, &in, &n) &&
		      errno == ENOTSUP && !in && !n, "no disassembler: ENOTSUP");
		if (check_done())
			return 1;
		SKIP("built without LLVM's disassembler");
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
