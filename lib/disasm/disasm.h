/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * disasm.h - machine code to instructions (LLVM's C disassembler), for
 * annotation by instruction: x86-64 (AT&T syntax, as objdump and perf
 * annotate print it) and arm64, chosen by the ELF file's e_machine.
 *
 * libLLVM is loaded at the first call (dlopen).  Without it -- not at
 * configure time, or its library not installed -- every call fails with
 * ENOTSUP and disasm_available() says so.  Not thread-safe on the first
 * call.  The library never prints or exits.
 */
#ifndef DISASM_DISASM_H
#define DISASM_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISASM_TEXT 200	/* "mnemonic operands", cut if longer */

/* One instruction. */
struct disasm_insn {
	uint64_t addr;		/* where it is (the caller's addresses) */
	unsigned size;		/* its bytes */
	char text[DISASM_TEXT];	/* "mnemonic operands"; bytes that are no
				   instruction: "(undecodable) 0f 0b" */
};

/* Whether disassembly can work: built with LLVM, and it loads. */
bool disasm_available(void);

/*
 * Disassemble size bytes of code, the first at address addr, for ELF
 * machine machine (EM_X86_64, EM_AARCH64).  Bytes that decode to no
 * instruction become one "(undecodable)" entry each (four bytes for
 * arm64) and the rest is still decoded.  An x86 prefix that LLVM
 * decodes alone (lock before an instruction that does not take it as
 * LLVM sees it) is one entry with the instruction after it, as objdump
 * shows it.  On success *out is an array of *n entries
 * that the caller frees with free(3).
 *
 * Returns 0, or -1 with errno: ENOTSUP (built without LLVM, or
 * another machine), ENOMEM.
 */
int disasm_code(unsigned machine, const uint8_t *code, size_t size,
		uint64_t addr, struct disasm_insn **out, size_t *n);

/* One line saying why disasm_code() failed with err, and the fix. */
const char *disasm_strerror(int err, unsigned machine);

#endif
