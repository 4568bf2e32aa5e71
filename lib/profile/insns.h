/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * insns.h - one function's samples per instruction: its code read from
 * its ELF file (lib/symbols), disassembled (lib/disasm), each sampled
 * address counted at the instruction that holds it, and the source line
 * of each run of instructions (libdw) as a header row above the run.
 *
 * The rows are what kerneltop's annotate screen and monitor --annotate
 * show, in this order; insns_row_text() writes each the same way for
 * both.  Never prints (but to the FILE it is given), never exits.
 */
#ifndef PROFILE_INSNS_H
#define PROFILE_INSNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/strpool.h"
#include "disasm/disasm.h"
#include "profile/top.h"
#include "symbols/symbols.h"

/* What a timer's samples mean, said once above the instructions. */
#define INSNS_SKID_NOTE \
	"cpu-clock samples land a few instructions after the cause (skid)"

/* One row: a source line header, or an instruction. */
struct insns_row {
	const struct disasm_insn *insn;	/* NULL: a header */
	uint64_t count;		/* samples at the instruction */
	const char *file;	/* the header's source file (interned), NULL
				   when unknown */
	int line;
	char *text;		/* the header's source text, NULL where
				   the file cannot be read */
};

struct insns {
	struct insns_row *rows;
	size_t n, rows_alloc;
	size_t hottest;		/* the row of the most sampled instruction */
	uint64_t total;		/* samples inside the function's code */
	uint64_t outside;	/* samples of the symbol at addresses that
				   are not in it (another copy of the file) */
	uint64_t start;		/* the function: ELF vaddr, bytes */
	size_t size;
	bool truncated;		/* longer than SYMBOLS_CODE_MAX */
	unsigned machine;
	/* private */
	struct disasm_insn *insn;
	size_t ninsn;
	struct strpool files;
};

/*
 * Annotate the function of dso (a file path, as struct sym_result names
 * it) that holds the sampled ELF vaddrs addrs[0..n) (top_addrs()).
 * Returns 0 with *a filled (release it with insns_release()), or -1
 * with *a empty (but a->machine, once the code was read) and errno,
 * and *cause set when lib/symbols knows why:
 *   ENOENT   no samples (n == 0), or the function's code cannot be read
 *            (*cause: a stripped file, no symbol, a bad ELF)
 *   ENOEXEC  the function is in no executable section of its file
 *   ENOTSUP  this build has no disassembler, or the code is neither
 *            x86-64 nor arm64 (disasm_strerror() says which)
 *   ENOMEM
 * insns_strerror() says each in one line.
 */
int insns_build(struct symbols *s, const char *dso,
		const struct top_addr *addrs, size_t n, struct insns *a,
		enum sym_cause *cause);

void insns_release(struct insns *a);

/* One line saying why insns_build() failed with errno err and cause,
   and what to do; a->machine as insns_build() left it.  Never NULL. */
const char *insns_strerror(int err, enum sym_cause cause,
			   const struct insns *a);

/*
 * Row i as one line of text, at most size bytes: an instruction as
 * "  12.34%     123    4011a6:  addl    $1, %eax" (the hottest marked with
 * '>' in the first column), a header as its file's base name and line
 * and the line's text where the file can be read (lib/symbols/source.h).
 * Untrusted text (file names, source) is made visible (esc_visible()).
 */
void insns_row_text(const struct insns *a, size_t i, char *buf,
		    size_t size);

/* The column header line that goes with insns_row_text(). */
const char *insns_header(void);

/*
 * Everything, as monitor --annotate prints it: a title naming sym and
 * dso, the skid note, the column header and every row.  Returns 0, or
 * -1 when out has an error.
 */
int insns_print(const struct insns *a, const char *sym, const char *dso,
		FILE *out);

#endif
