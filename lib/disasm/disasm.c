/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * disasm.c - capstone behind disasm.h; a stub without it.
 *
 * capstone is dlopen()ed at the first disassembly, not linked: its 6.6 MB
 * (every architecture's tables) would be mapped into every sampler run,
 * and a run under `ulimit -v` that never annotates could not start.
 */
#include "config.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CAPSTONE
#include <capstone/capstone.h>
#endif

#include "base/array.h"
#include "disasm/disasm.h"

#ifdef HAVE_CAPSTONE
/* The library's calls, once loaded (not thread-safe on the first use). */
static struct {
	bool tried;
	void *lib;
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *h);
	cs_err (*option)(csh h, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh h);
	bool (*iter)(csh h, const uint8_t **code, size_t *size,
		     uint64_t *addr, cs_insn *insn);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *h);
} cs;

static void *cs_sym(const char *name)
{
	return cs.lib ? dlsym(cs.lib, name) : NULL;
}

static bool cs_load(void)
{
	if (cs.tried)
		return cs.close != NULL;
	cs.tried = true;
	cs.lib = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	/* dlsym's void * to a function pointer: POSIX allows it */
	*(void **)&cs.open = cs_sym("cs_open");
	*(void **)&cs.option = cs_sym("cs_option");
	*(void **)&cs.malloc = cs_sym("cs_malloc");
	*(void **)&cs.iter = cs_sym("cs_disasm_iter");
	*(void **)&cs.free = cs_sym("cs_free");
	*(void **)&cs.close = cs_sym("cs_close");
	if (!cs.open || !cs.option || !cs.malloc || !cs.iter || !cs.free ||
	    !cs.close) {
		if (cs.lib)
			dlclose(cs.lib);
		memset(&cs, 0, sizeof(cs));
		cs.tried = true;
		return false;
	}
	return true;
}

bool disasm_available(void)
{
	return cs_load();
}

static int insn_add(struct disasm_insn **out, size_t *n, size_t *cap,
		    const struct disasm_insn *in)
{
	if (ARRAY_GROW(*out, *n + 1, *cap) != 0)
		return -1;
	(*out)[(*n)++] = *in;
	return 0;
}

int disasm_code(unsigned machine, const uint8_t *code, size_t size,
		uint64_t addr, struct disasm_insn **out, size_t *n)
{
	size_t cap = 0, step = machine == EM_AARCH64 ? 4 : 1;
	struct disasm_insn di;
	cs_insn *insn;
	csh h;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!cs_load())
		return errno = ENOTSUP, -1;
	if (machine == EM_X86_64) {
		if (cs.open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
			return errno = ENOMEM, -1;
		cs.option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	} else if (machine == EM_AARCH64) {
		if (cs.open(CS_ARCH_ARM64, CS_MODE_ARM, &h) != CS_ERR_OK)
			return errno = ENOMEM, -1;
	} else {
		return errno = ENOTSUP, -1;
	}
	insn = cs.malloc(h);
	if (!insn) {
		cs.close(&h);
		return errno = ENOMEM, -1;
	}
	while (size && ret == 0) {
		const uint8_t *at = code;

		if (cs.iter(h, &code, &size, &addr, insn)) {
			di.addr = insn->address;
			di.size = insn->size;
			snprintf(di.text, sizeof(di.text), "%-7s %s",
				 insn->mnemonic, insn->op_str);
		} else {
			/* no instruction here: say the bytes, go on after */
			size_t k = step < size ? step : size;

			di.addr = addr;
			di.size = (unsigned)k;
			snprintf(di.text, sizeof(di.text), ".byte   0x%02x",
				 at[0]);
			code += k;
			size -= k;
			addr += k;
		}
		/* capstone's text ends in spaces when there are no operands */
		for (char *e = di.text + strlen(di.text);
		     e > di.text && e[-1] == ' '; )
			*--e = '\0';
		ret = insn_add(out, n, &cap, &di);
	}
	cs.free(insn, 1);
	cs.close(&h);
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
#ifdef HAVE_CAPSTONE
	if (!disasm_available())
		return "cannot load " CAPSTONE_SONAME " (install the capstone "
		       "library package, libcapstone4 on Debian 12)";
#else
	if (!disasm_available())
		return "built without capstone (install libcapstone-dev, "
		       "configure pctools again)";
#endif
	if (machine != EM_X86_64 && machine != EM_AARCH64)
		return "the file is neither x86-64 nor arm64 code: no "
		       "instruction view for it";
	return "cannot disassemble the function";
}
