/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * disasm.c - LLVM's C disassembler (llvm-c/Disassembler.h) behind
 * disasm.h; a stub without it.
 *
 * libLLVM is dlopen()ed at the first disassembly, not linked: its 110 MB
 * (every target, the whole compiler) would be mapped into every sampler
 * run, and a run under `ulimit -v` that never annotates could not start.
 */
#include "config.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LLVM
#include <llvm-c/Disassembler.h>
#endif

#include "base/array.h"
#include "disasm/disasm.h"

#ifdef HAVE_LLVM
/* What each machine needs from LLVM: its triple, its target's name in
 * the LLVMInitialize<Target>* calls, and what an undecodable unit is. */
static const struct disasm_arch {
	unsigned machine;
	const char *triple;
	const char *target;
	size_t step;		/* bytes of one undecodable row */
} disasm_arches[] = {
	{ EM_X86_64, "x86_64-unknown-linux-gnu", "X86", 1 },
	{ EM_AARCH64, "aarch64-unknown-linux-gnu", "AArch64", 4 },
};

#define NARCH (sizeof(disasm_arches) / sizeof(disasm_arches[0]))

/* The library's calls, once loaded (not thread-safe on the first use). */
static struct {
	bool tried;
	void *lib;
	bool ready[NARCH];	/* the target's three parts initialised */
	LLVMDisasmContextRef (*create)(const char *triple, void *info,
				       int tag, LLVMOpInfoCallback op,
				       LLVMSymbolLookupCallback sym);
	int (*options)(LLVMDisasmContextRef dc, uint64_t opts);
	size_t (*insn)(LLVMDisasmContextRef dc, uint8_t *bytes, uint64_t size,
		       uint64_t pc, char *out, size_t out_size);
	void (*dispose)(LLVMDisasmContextRef dc);
} llvm;

static void *llvm_sym(const char *name)
{
	return llvm.lib ? dlsym(llvm.lib, name) : NULL;
}

/* Initialise one target: its info, machine code layer, disassembler. */
static bool llvm_target(size_t a)
{
	static const char *const part[] = { "TargetInfo", "TargetMC",
					    "Disassembler" };
	void (*init[3])(void);
	char name[64];
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "LLVMInitialize%s%s",
			 disasm_arches[a].target, part[i]);
		/* dlsym's void * to a function pointer: POSIX allows it */
		*(void **)&init[i] = llvm_sym(name);
		if (!init[i])
			return false;
	}
	for (i = 0; i < 3; i++)
		init[i]();
	return true;
}

static bool llvm_load(void)
{
	size_t a;

	if (llvm.tried)
		return llvm.dispose != NULL;
	llvm.tried = true;
	llvm.lib = dlopen(LLVM_SONAME, RTLD_NOW | RTLD_LOCAL);
	*(void **)&llvm.create = llvm_sym("LLVMCreateDisasm");
	*(void **)&llvm.options = llvm_sym("LLVMSetDisasmOptions");
	*(void **)&llvm.insn = llvm_sym("LLVMDisasmInstruction");
	*(void **)&llvm.dispose = llvm_sym("LLVMDisasmDispose");
	if (!llvm.create || !llvm.options || !llvm.insn || !llvm.dispose) {
		if (llvm.lib)
			dlclose(llvm.lib);
		memset(&llvm, 0, sizeof(llvm));
		llvm.tried = true;
		return false;
	}
	for (a = 0; a < NARCH; a++)
		llvm.ready[a] = llvm_target(a);
	return true;
}

bool disasm_available(void)
{
	return llvm_load();
}

static const struct disasm_arch *arch_of(unsigned machine, size_t *a)
{
	for (*a = 0; *a < NARCH; (*a)++)
		if (disasm_arches[*a].machine == machine)
			return &disasm_arches[*a];
	return NULL;
}

/*
 * LLVM's text, "\tmnemonic\toperands" (a prefix it cannot fold in adds
 * a tab: "\trep\t\tretq"), as the view prints it: the mnemonic padded
 * to 7, a space, the operands with tabs as single spaces.
 */
static void text_normalise(const char *in, const char *prefix, char *out,
			   size_t size)
{
	char mn[64] = "", ops[DISASM_TEXT] = "";
	size_t k = 0;

	while (*in == '\t' || *in == ' ')
		in++;
	while (*in && *in != '\t' && *in != ' ' && k < sizeof(mn) - 1)
		mn[k++] = *in++;
	mn[k] = '\0';
	for (k = 0; *in && k < sizeof(ops) - 1; in++) {
		if (*in == '\t')
			if (k == 0 || ops[k - 1] == ' ')
				continue;
		ops[k++] = *in == '\t' ? ' ' : *in;
	}
	while (k && ops[k - 1] == ' ')
		k--;
	ops[k] = '\0';
	if (prefix) {
		char both[sizeof(mn) + 16];

		snprintf(both, sizeof(both), "%s %s", prefix, mn);
		snprintf(out, size, "%-7s %s", both, ops);
	} else {
		snprintf(out, size, "%-7s %s", mn, ops);
	}
	for (char *e = out + strlen(out); e > out && e[-1] == ' '; )
		*--e = '\0';
}

/* x86 prefixes LLVM returns as an instruction of their own when what
 * follows does not take them: shown with that instruction, as objdump
 * shows `lock cmpxchg`. */
static bool lone_prefix(const char *text, unsigned size)
{
	static const char *const prefixes[] = { "lock", "rep", "repne",
		"repe", "data16", "notrack", "xacquire", "xrelease" };
	size_t i;

	while (*text == '\t')
		text++;
	for (i = 0; size == 1 && i < sizeof(prefixes) / sizeof(*prefixes);
	     i++)
		if (strcmp(text, prefixes[i]) == 0)
			return true;
	return false;
}

/* One row at code[0..size): an instruction (a lone prefix merged with
 * the next), or k undecodable bytes said so. */
static void decode_one(LLVMDisasmContextRef dc, const struct disasm_arch *ar,
		       uint8_t *code, size_t size, uint64_t addr,
		       struct disasm_insn *di)
{
	char raw[DISASM_TEXT], next[DISASM_TEXT], pfx[16];
	size_t len, k, m;
	int w;

	di->addr = addr;
	len = llvm.insn(dc, code, size, addr, raw, sizeof(raw));
	if (len && lone_prefix(raw, (unsigned)len) && len < size &&
	    (m = llvm.insn(dc, code + len, size - len, addr + len, next,
			   sizeof(next))) != 0 &&
	    !lone_prefix(next, (unsigned)m)) {
		snprintf(pfx, sizeof(pfx), "%s", raw + (raw[0] == '\t'));
		text_normalise(next, pfx, di->text, sizeof(di->text));
		di->size = (unsigned)(len + m);
		return;
	}
	if (len) {
		text_normalise(raw, NULL, di->text, sizeof(di->text));
		di->size = (unsigned)len;
		return;
	}
	k = ar->step < size ? ar->step : size;
	di->size = (unsigned)k;
	w = snprintf(di->text, sizeof(di->text), "(undecodable)");
	for (m = 0; m < k; m++)
		w += snprintf(di->text + w, sizeof(di->text) - (size_t)w,
			      " %02x", code[m]);
}

int disasm_code(unsigned machine, const uint8_t *code, size_t size,
		uint64_t addr, struct disasm_insn **out, size_t *n)
{
	const struct disasm_arch *ar;
	LLVMDisasmContextRef dc;
	size_t cap = 0, a;
	struct disasm_insn di;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!llvm_load())
		return errno = ENOTSUP, -1;
	ar = arch_of(machine, &a);
	if (!ar || !llvm.ready[a])
		return errno = ENOTSUP, -1;
	dc = llvm.create(ar->triple, NULL, 0, NULL, NULL);
	if (!dc)
		return errno = ENOMEM, -1;
	/* AT&T on x86, LLVM's default variant, as objdump and perf print */
	llvm.options(dc, LLVMDisassembler_Option_PrintImmHex);
	while (size && ret == 0) {
		/* LLVM's API takes the bytes as not const; it only reads */
		decode_one(dc, ar, (uint8_t *)(uintptr_t)code, size, addr, &di);
		code += di.size;
		size -= di.size;
		addr += di.size;
		if (ARRAY_GROW(*out, *n + 1, cap) != 0)
			ret = -1;
		else
			(*out)[(*n)++] = di;
	}
	llvm.dispose(dc);
	if (ret) {
		free(*out);
		*out = NULL;
		*n = 0;
		errno = ENOMEM;
	}
	return ret;
}
#else
bool disasm_available(void)
{
	return false;
}

int disasm_code(unsigned machine, const uint8_t *code, size_t size,
		uint64_t addr, struct disasm_insn **out, size_t *n)
{
	(void)machine;
	(void)code;
	(void)size;
	(void)addr;
	*out = NULL;
	*n = 0;
	errno = ENOTSUP;
	return -1;
}
#endif

const char *disasm_strerror(int err, unsigned machine)
{
	if (err == ENOMEM)
		return "out of memory disassembling the function";
#ifdef HAVE_LLVM
	if (!disasm_available())
		return "cannot load " LLVM_SONAME " (install LLVM's library "
		       "package, libllvm14 on Debian 12)";
#else
	if (!disasm_available())
		return "built without LLVM's disassembler (install "
		       "llvm-14-dev, configure pctools again)";
#endif
	if (machine != EM_X86_64 && machine != EM_AARCH64)
		return "the file is neither x86-64 nor arm64 code: no "
		       "instruction view for it";
	return "cannot disassemble the function";
}
