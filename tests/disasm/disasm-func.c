/*
 * disasm-func.c - the instruction view's rows of one function, for shell
 * tests: its code read by lib/symbols as annotation reads it, decoded by
 * lib/disasm.
 *
 *     disasm-func FILE VADDR
 *
 * prints the function's start and size ("func 0x... N"), then one line
 * per row: "0xADDR<tab>TEXT".  Exits 2 when the code cannot be read,
 * 77 when this build has no disassembler.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "disasm/disasm.h"
#include "symbols/symbols.h"

int main(int argc, char **argv)
{
	struct disasm_insn *in;
	struct sym_code code;
	struct symbols *s;
	size_t i, n;

	if (argc != 3) {
		fprintf(stderr, "usage: disasm-func FILE VADDR\n");
		return 2;
	}
	if (!disasm_available()) {
		fprintf(stderr, "disasm-func: %s\n",
			disasm_strerror(ENOTSUP, 0));
		return 77;
	}
	s = symbols_new(NULL);
	if (!s || symbols_code_file(s, argv[1], strtoull(argv[2], NULL, 0),
				    &code) != 0) {
		fprintf(stderr, "disasm-func: cannot read the code at %s in "
			"%s\n", argv[2], argv[1]);
		return 2;
	}
	if (disasm_code(code.machine, code.bytes, code.size, code.start,
			&in, &n) != 0) {
		fprintf(stderr, "disasm-func: %s\n",
			disasm_strerror(errno, code.machine));
		return 2;
	}
	printf("func 0x%" PRIx64 " %zu\n", code.start, code.size);
	for (i = 0; i < n; i++)
		printf("0x%" PRIx64 "\t%s\n", in[i].addr, in[i].text);
	free(in);
	sym_code_release(&code);
	symbols_free(s);
	return 0;
}
