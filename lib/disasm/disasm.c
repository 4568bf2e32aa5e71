/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* disasm.c - capstone behind disasm.h; a stub without it. */
#include "config.h"

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
bool disasm_available(void)
{
	return true;
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
	if (machine == EM_X86_64) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
			return errno = ENOMEM, -1;
		cs_option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	} else if (machine == EM_AARCH64) {
		if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &h) != CS_ERR_OK)
			return errno = ENOMEM, -1;
	} else {
		return errno = ENOTSUP, -1;
	}
	insn = cs_malloc(h);
	if (!insn) {
		cs_close(&h);
		return errno = ENOMEM, -1;
	}
	while (size && ret == 0) {
		const uint8_t *at = code;

		if (cs_disasm_iter(h, &code, &size, &addr, insn)) {
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
	cs_free(insn, 1);
	cs_close(&h);
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
	if (!disasm_available())
		return "built without capstone (install libcapstone-dev, "
		       "configure pctools again)";
	if (machine != EM_X86_64 && machine != EM_AARCH64)
		return "the file is neither x86-64 nor arm64 code: no "
		       "instruction view for it";
	return "cannot disassemble the function";
}
