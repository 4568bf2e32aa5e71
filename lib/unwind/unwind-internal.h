/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind-internal.h - what unwind.c (chains), unwind-access.c
 * (libunwind's accessors, the files) and unwind-rules.c (the cache of
 * frame rules) share.  Private to lib/unwind; x86-64 only.
 */
#ifndef UNWIND_INTERNAL_H
#define UNWIND_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <libunwind.h>
#include <linux/perf_event.h>

#include "base/hashtab.h"
#include "unwind/unwind.h"
#include "unwind/unwind-elf.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#define NREGS PERF_REG_X86_64_MAX
#define REG_IP PERF_REG_X86_IP
#define REG_SP PERF_REG_X86_SP
#define REG_BP PERF_REG_X86_BP
/* Every general register, as perf asks: segment registers are no use. */
#define REGS_MASK (((1ull << PERF_REG_X86_64_MAX) - 1) & \
		   ~((1ull << PERF_REG_X86_DS) | (1ull << PERF_REG_X86_ES) | \
		     (1ull << PERF_REG_X86_FS) | (1ull << PERF_REG_X86_GS)))
#define ABI_OK PERF_SAMPLE_REGS_ABI_64
#else
#define NREGS 1
#define REG_IP 0
#define REG_SP 0
#define REG_BP 0
#define REGS_MASK 0ull
#define ABI_OK (~0ull)
#endif

/*
 * Where transcribed .debug_frame copies appear to libunwind, and where
 * the probes of unwind-rules.c keep their made-up stacks: x86-64
 * non-canonical addresses, which no process can map.
 */
#define SYNTH_BASE 0x4000000000000000ull
#define SYNTH_STRIDE (1ull << 32)
/* within a file's stride: the table eh-frame.c built (after the
   transcribed .debug_frame, which never reaches 2 GiB) */
#define SYNTH_OWN_TABLE (1ull << 31)
#define PROBE_BASE 0x2000000000000000ull
#define PROBE_END 0x3000000000000000ull
/* A read this far above the copied stack is taken for a cut stack. */
#define STACK_SPAN (64ull << 20)
#define RECENT 8

/* The callee-saved registers a frame rule restores (perf numbering). */
#define NSAVED 6
extern const int uw_saved_regs[NSAVED];

struct unwind {
	struct symbols *sym;
	unw_addr_space_t as;
	pid_t pid;			/* whose rules libunwind's cache holds */
	struct hashtab files;		/* of struct uw_elf, by path, ino */
	unsigned gen;
	uint64_t next_synth;
	struct hashtab rules;		/* of struct uw_rule (unwind-rules.c) */
	struct hashtab pids;		/* of struct uw_pid: rule generations */
	bool no_rules;			/* every frame through libunwind */
	struct unwind_stats st;
};

/* One chain (or probe) being unwound: libunwind's `arg'. */
struct uw_ctx {
	struct unwind *u;
	pid_t pid;
	uint64_t reg[NREGS];		/* the current frame's registers */
	uint64_t have;			/* bits of those known */
	const uint8_t *stack;
	uint64_t sp, size;		/* the copy: [sp, sp + size) */
	struct {
		const struct uw_elf *e;
		uint64_t bias;
	} recent[RECENT];		/* files met in this chain */
	unsigned nrecent, next;
	bool cut;			/* a read fell past the stack copy */
	bool probe;			/* memory is made up (unwind-rules.c) */
	bool found;			/* find_proc_info found CFI */
};

/* unwind-access.c: libunwind's address space, whose accessors read
   through a struct uw_ctx; 0, or -1 (ENOMEM). */
int uw_space_init(struct unwind *u);
void uw_space_release(struct unwind *u);
/* The address space, libunwind's cache flushed unless it holds pid's. */
unw_addr_space_t uw_space_for(struct unwind *u, pid_t pid);
/* Close the files not used since the last call (all: every file). */
void uw_files_gc(struct unwind *u, bool all);
/* The word at addr of the stack copy: 0, or -1 outside it. */
int uw_stack_read(const struct uw_ctx *c, uint64_t addr, uint64_t *val);
/* The word at process address addr of a mapped file (code, tables):
   0, or -1 where no file we can read is mapped. */
int uw_file_read(struct uw_ctx *c, uint64_t addr, uint64_t *val);
/* The word a probe reads at addr (in [PROBE_BASE, PROBE_END)). */
uint64_t uw_probe_word(uint64_t addr);

/*
 * unwind-rules.c: how to go from a frame at an address to its caller,
 * learnt from libunwind once per address and kept: the canonical
 * frame address (CFA) is the stack or frame pointer plus an offset, the
 * return address and the saved registers lie at offsets from it.
 */
enum uw_rule_kind {
	RULE_NONE,		/* not that simple: ask libunwind each time */
	RULE_SP,		/* CFA = rsp + cfa_off */
	RULE_BP,		/* CFA = rbp + cfa_off */
	RULE_LAST,		/* the outermost frame: no caller */
};
#define RULE_SAME INT32_MIN	/* the register keeps its value */
#define RULE_LOST (INT32_MIN + 1) /* the caller's value is not known */

struct uw_rule {
	pid_t pid;
	unsigned gen;
	uint64_t addr;		/* where the rule holds (for a caller, its
				   return address - 1) */
	enum uw_rule_kind kind;
	int32_t cfa_off, ra_off;
	int32_t off[NSAVED];	/* each saved register at CFA + off, or
				   RULE_SAME, RULE_LOST */
};

/* The rule at addr in c's process, learnt now if need be; NULL on
   ENOMEM. */
const struct uw_rule *uw_rule_for(struct unwind *u, const struct uw_ctx *c,
				  uint64_t addr);
void uw_rules_forget(struct unwind *u, pid_t pid);
void uw_rules_gc(struct unwind *u);
void uw_rules_release(struct unwind *u);

#endif
