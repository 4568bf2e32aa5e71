/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dso-code.c - the machine code of one function of a file, copied out of
 * the section that holds it, for a disassembler.  The file is untrusted:
 * every range is checked against the section's data, and a function is
 * copied up to SYMBOLS_CODE_MAX bytes at most.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols-internal.h"
#include "symbols/dso-internal.h"
#include "symbols/files.h"

/*
 * The executable section of elf that holds module address a (bias:
 * module address - vaddr), with bytes in the file (not a .debug file's
 * NOBITS copy), or NULL.
 */
static Elf_Scn *code_section(Elf *elf, GElf_Addr bias, uint64_t a,
			     GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		if (sh->sh_type != SHT_PROGBITS ||
		    !(sh->sh_flags & SHF_EXECINSTR))
			continue;
		if (a - bias >= sh->sh_addr &&
		    a - bias - sh->sh_addr < sh->sh_size)
			return scn;
	}
	return NULL;
}

static int dso_code(struct dso *d, uint64_t addr, struct sym_code *out)
{
	uint64_t a = addr + d->bias, start, size, skip;
	const struct dso_sym *ds;
	GElf_Ehdr ehmem, *eh;
	GElf_Addr bias;
	GElf_Shdr sh;
	Elf_Data *data;
	Elf_Scn *scn;
	Elf *elf;

	if (dso_load(d) != 0) {
		out->cause = dso_cause(d);
		errno = ENOENT;
		return -1;
	}
	if (!d->sym_built)
		dso_build_symtab(d);
	ds = d->sym ? dso_sym_find(d, a) : NULL;
	elf = dwfl_module_getelf(d->mod, &bias);
	eh = elf ? gelf_getehdr(elf, &ehmem) : NULL;
	if (!ds || !eh) {
		out->cause = d->has_symtab ? SYM_NO_SYMBOL : SYM_STRIPPED;
		errno = ENOENT;
		return -1;
	}
	scn = code_section(elf, bias, ds->start, &sh);
	if (!scn) {	/* code in .data, or a symbol that is not code */
		errno = ENOEXEC;
		return -1;
	}
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf) {
		out->cause = SYM_BAD_ELF;
		errno = ENOENT;
		return -1;
	}
	/* a sizeless symbol runs to the end of its section, bounded below */
	start = ds->start - bias;
	skip = start - sh.sh_addr;
	size = ds->size ? ds->size : sh.sh_size - skip;
	if (size > sh.sh_size - skip)
		size = sh.sh_size - skip;
	if (skip > data->d_size)
		size = 0;
	else if (size > data->d_size - skip)
		size = data->d_size - skip;
	out->truncated = size > SYMBOLS_CODE_MAX;
	if (out->truncated)
		size = SYMBOLS_CODE_MAX;
	if (!size) {
		out->cause = SYM_BAD_ELF;
		errno = ENOENT;
		return -1;
	}
	out->bytes = malloc(size);
	if (!out->bytes) {
		out->cause = SYM_NO_MEMORY;
		return -1;
	}
	memcpy(out->bytes, (const char *)data->d_buf + skip, size);
	out->start = start;
	out->size = size;
	out->machine = eh->e_machine;
	out->cause = SYM_OK;
	return 0;
}

int symbols_code_file(struct symbols *s, const char *path, uint64_t addr,
		      struct sym_code *out)
{
	struct dso *d;

	memset(out, 0, sizeof(*out));
	/* the file the samples' process mapped (another mount namespace:
	   its own file at that path), else the one at path here */
	d = files_get_seen(&s->files, path);
	if (!d) {
		out->cause = SYM_NO_MEMORY;
		return -1;
	}
	if (dso_refs(d) == 0)
		dso_get(d);	/* held by the session until symbols_free */
	return dso_code(d, addr, out);
}

void sym_code_release(struct sym_code *c)
{
	free(c->bytes);
	memset(c, 0, sizeof(*c));
}
