/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dso-plt.c - names for PLT stubs, as perf and objdump give them:
 * "malloc@plt".  A stub has no symbol; what it jumps through does: the
 * GOT slot a relocation fills with the function's address.
 *
 * x86-64: every stub of .plt, .plt.sec and .plt.got jumps through its
 * slot, "jmp *disp32(%rip)" (ff 25, perhaps after endbr64 or a bnd
 * prefix); the slot is the offset of a JUMP_SLOT relocation (.rela.plt)
 * or of a GLOB_DAT one (.rela.dyn, for .plt.got).  The .plt of an IBT
 * layout holds no jump, only "push $index" (68 imm32): the index is the
 * .rela.plt entry.  arm64: the stubs of .plt follow a 32-byte header,
 * 16 bytes each, in .rela.plt's order.  An IRELATIVE relocation has no
 * symbol: "*ABS*+0xADDEND@plt", as perf names it.  A stub that cannot be
 * named (the header, a layout we do not know) keeps its section's name.
 *
 * Everything is read from the file and checked against its bounds: a
 * slot, an index or a symbol that is not there leaves the stub unnamed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/addrsearch.h"
#include "symbols/dso-internal.h"

static const char *const plt_sections[] = { ".plt", ".plt.sec", ".plt.got" };

/* Which of plt_sections section sh is (code with that name), or NULL. */
static const char *plt_section(Elf *elf, size_t shstrndx,
			       const GElf_Shdr *sh)
{
	const char *name;
	size_t i;

	if (!sh || sh->sh_type != SHT_PROGBITS || !sh->sh_size ||
	    !(sh->sh_flags & SHF_EXECINSTR))
		return NULL;
	name = elf_strptr(elf, shstrndx, sh->sh_name);
	for (i = 0; name && i < sizeof(plt_sections) / sizeof(plt_sections[0]);
	     i++)
		if (!strcmp(name, plt_sections[i]))
			return plt_sections[i];
	return NULL;
}

/* scn's bytes when the file holds all sh_size of them, else NULL: a
   section's stubs are read (and counted) only then. */
static Elf_Data *plt_bytes(Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);

	return data && data->d_size >= sh->sh_size ? data : NULL;
}

#ifndef R_X86_64_IRELATIVE
#define R_X86_64_IRELATIVE 37
#endif
#ifndef R_AARCH64_IRELATIVE
#define R_AARCH64_IRELATIVE 1032
#endif
#ifndef R_AARCH64_GLOB_DAT
#define R_AARCH64_GLOB_DAT 1025
#endif

/* A relocation that fills a GOT slot. */
struct plt_rel {
	uint64_t slot;		/* r_offset */
	const char *sym;	/* its symbol's name, NULL for IRELATIVE */
	int64_t addend;
};

struct plt_rels {
	struct plt_rel *r;	/* by slot */
	size_t n;
	uint64_t *order;	/* the slot of each .rela.plt entry, by
				   index: the stubs' order */
	size_t norder;
};

static int rel_cmp(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	return (x->slot > y->slot) - (x->slot < y->slot);
}

bool dso_dynamic_tag(Elf *elf, int64_t tag, uint64_t *val)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		Elf_Data *data;
		size_t i, n;

		if (!sh || sh->sh_type != SHT_DYNAMIC || !sh->sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = data ? data->d_size / sh->sh_entsize : 0;
		for (i = 0; i < n; i++) {
			GElf_Dyn dmem, *dyn = gelf_getdyn(data, (int)i, &dmem);

			if (!dyn || dyn->d_tag == DT_NULL)
				break;
			if (dyn->d_tag == tag) {
				*val = dyn->d_un.d_val;
				return true;
			}
		}
	}
	return false;
}

/*
 * DT_RELACOUNT: how many R_*_RELATIVE relocations lead .rela.dyn (the
 * linker sorts them first); 0 when the file does not say.
 */
static size_t plt_relacount(Elf *elf)
{
	uint64_t n;

	return dso_dynamic_tag(elf, DT_RELACOUNT, &n) ? (size_t)n : 0;
}

/*
 * The relocations of .rela.plt, and with dyn (a .plt.got to name) the
 * GLOB_DAT ones of .rela.dyn, with their symbols.  .rela.dyn can be
 * megabytes (libLLVM: 8 MB, 335,619 RELATIVE relocations first): only
 * what follows its RELATIVE ones is read, only GLOB_DAT and IRELATIVE
 * entries are named, so that the file's pages stay where they are.
 */
static int plt_rels_read(Elf *elf, size_t shstrndx, unsigned irel,
			 unsigned glob_dat, bool dyn, struct plt_rels *pr)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	memset(pr, 0, sizeof(*pr));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem), lmem, *lsh;
		Elf_Scn *link;
		Elf_Data *data, *syms;
		const char *name;
		bool plt;
		size_t i, n;

		if (!sh || sh->sh_type != SHT_RELA || !sh->sh_entsize)
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (!name || (strcmp(name, ".rela.plt") &&
			      strcmp(name, ".rela.dyn")))
			continue;
		plt = !strcmp(name, ".rela.plt");
		if (!plt && !dyn)
			continue;
		link = elf_getscn(elf, sh->sh_link);
		lsh = link ? gelf_getshdr(link, &lmem) : NULL;
		data = elf_getdata(scn, NULL);
		syms = link ? elf_getdata(link, NULL) : NULL;
		if (!data || !lsh)
			continue;
		n = sh->sh_size / sh->sh_entsize;
		if (plt && !pr->order) {
			pr->order = calloc(n + 1, sizeof(*pr->order));
			if (!pr->order)
				return -1;
		}
		for (i = plt ? 0 : plt_relacount(elf); i < n; i++) {
			GElf_Rela rmem, *r = gelf_getrela(data, (int)i, &rmem);
			GElf_Sym smem, *sym = NULL;
			size_t si;

			if (!r)
				break;
			if (plt && pr->order && pr->norder == i)
				pr->order[pr->norder++] = r->r_offset;
			if (!plt && GELF_R_TYPE(r->r_info) != glob_dat &&
			    GELF_R_TYPE(r->r_info) != irel)
				continue;
			si = GELF_R_SYM(r->r_info);
			if (si && syms)
				sym = gelf_getsym(syms, (int)si, &smem);
			if (si && !sym)
				continue;
			if (!si && GELF_R_TYPE(r->r_info) != irel)
				continue;
			if (pr->n == cap) {
				struct plt_rel *m = realloc(pr->r, (cap ? 2 * cap
								   : 64) *
							    sizeof(*m));

				if (!m)
					return -1;
				pr->r = m;
				cap = cap ? 2 * cap : 64;
			}
			pr->r[pr->n] = (struct plt_rel){
				r->r_offset,
				sym ? elf_strptr(elf, lsh->sh_link, sym->st_name)
				    : NULL,
				r->r_addend };
			if (sym && !pr->r[pr->n].sym)
				continue;
			pr->n++;
		}
	}
	if (pr->n > 1)		/* r is NULL while n is 0 */
		qsort(pr->r, pr->n, sizeof(*pr->r), rel_cmp);
	return 0;
}

static const struct plt_rel *rel_at(const struct plt_rels *pr, uint64_t slot)
{
	size_t lo = addr_lower_bound(pr->r, pr->n, sizeof(*pr->r),
				     offsetof(struct plt_rel, slot), slot);

	return lo < pr->n && pr->r[lo].slot == slot ? &pr->r[lo] : NULL;
}

/* "name@plt" of rel, kept by d; NULL on ENOMEM. */
static const char *plt_name(struct dso *d, const struct plt_rel *rel)
{
	char buf[512], **names;

	if (rel->sym)
		snprintf(buf, sizeof(buf), "%s@plt", rel->sym);
	else
		snprintf(buf, sizeof(buf), "*ABS*+0x%llx@plt",
			 (unsigned long long)rel->addend);
	names = realloc(d->plt_names, (d->nplt_names + 1) * sizeof(*names));
	if (!names)
		return NULL;
	d->plt_names = names;
	names[d->nplt_names] = strdup(buf);
	return names[d->nplt_names] ? names[d->nplt_names++] : NULL;
}

/*
 * The relocation of the x86-64 stub at addr (len bytes at p): the slot
 * of its "jmp *disp32(%rip)", or the .rela.plt index of its "push".
 */
static const struct plt_rel *x86_stub_rel(const struct plt_rels *pr,
					  const uint8_t *p, size_t len,
					  uint64_t addr)
{
	size_t i;
	int32_t v;

	for (i = 0; i + 6 <= len; i++) {
		if (p[i] != 0xff || p[i + 1] != 0x25)
			continue;
		memcpy(&v, p + i + 2, 4);
		return rel_at(pr, addr + i + 6 + (uint64_t)(int64_t)v);
	}
	for (i = 0; i + 5 <= len; i++) {
		if (p[i] != 0x68)
			continue;
		memcpy(&v, p + i + 1, 4);
		if (v < 0 || (size_t)v >= pr->norder)
			return NULL;
		return rel_at(pr, pr->order[v]);
	}
	return NULL;
}

size_t dso_plt_syms(struct dso *d, struct dso_sym *out, size_t room)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(d->mod, &bias);
	GElf_Ehdr emem, *eh = elf ? gelf_getehdr(elf, &emem) : NULL;
	struct plt_rels pr = { 0 };
	Elf_Scn *scn = NULL;
	size_t shstrndx, k = 0;
	unsigned irel, glob_dat;
	bool plt_got = false;

	if (!eh || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	irel = eh->e_machine == EM_AARCH64 ? R_AARCH64_IRELATIVE
					   : R_X86_64_IRELATIVE;
	glob_dat = eh->e_machine == EM_AARCH64 ? R_AARCH64_GLOB_DAT
					       : R_X86_64_GLOB_DAT;
	/* .rela.dyn matters to .plt.got's stubs alone */
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name)
				      : NULL;

		plt_got |= name && !strcmp(name, ".plt.got");
	}
	if ((eh->e_machine == EM_X86_64 || eh->e_machine == EM_AARCH64) &&
	    plt_rels_read(elf, shstrndx, irel, glob_dat, plt_got, &pr) != 0)
		pr.n = pr.norder = 0;
	while (k < room && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *section;
		Elf_Data *data;
		uint64_t ent, off, head = 0;

		section = plt_section(elf, shstrndx, sh);
		if (!section)
			continue;
		data = plt_bytes(scn, sh);
		ent = sh->sh_entsize == 8 || sh->sh_entsize == 16 ?
		      sh->sh_entsize : 16;
		if (eh->e_machine == EM_AARCH64) {
			ent = 16;
			head = !strcmp(section, ".plt") ? 32 : 0;
		}
		if (!data || !pr.n ||
		    (eh->e_machine != EM_X86_64 &&
		     eh->e_machine != EM_AARCH64)) {
			/* no stubs known: the section is one symbol */
			out[k++] = (struct dso_sym){ sh->sh_addr + bias,
				sh->sh_size, sh->sh_addr + sh->sh_size + bias,
				section, DSO_RANK_PLT };
			continue;
		}
		if (head)
			out[k++] = (struct dso_sym){ sh->sh_addr + bias, head,
				sh->sh_addr + sh->sh_size + bias, section,
				DSO_RANK_PLT };
		for (off = head; off < sh->sh_size && k < room; off += ent) {
			uint64_t len = sh->sh_size - off < ent ?
				       sh->sh_size - off : ent;
			const struct plt_rel *rel = NULL;
			const char *sym = NULL;

			if (eh->e_machine == EM_X86_64)
				rel = x86_stub_rel(&pr,
						   (const uint8_t *)data->d_buf +
						   off, len, sh->sh_addr + off);
			else if ((off - head) / ent < pr.norder)
				rel = rel_at(&pr, pr.order[(off - head) / ent]);
			if (rel)
				sym = plt_name(d, rel);
			out[k++] = (struct dso_sym){ sh->sh_addr + off + bias,
				len, sh->sh_addr + sh->sh_size + bias,
				sym ? sym : section, DSO_RANK_PLT };
		}
	}
	free(pr.r);
	free(pr.order);
	return k;
}

size_t dso_plt_count(struct dso *d)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(d->mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (!plt_section(elf, shstrndx, sh))
			continue;
		/*
		 * As dso_plt_syms: a stub per 8 bytes at most (and the
		 * header) where the section's bytes are in the file, one
		 * symbol where they are not.  Its sh_size alone is the
		 * file's word: a mutated one asked for 2^50 symbols.
		 */
		n += plt_bytes(scn, sh) ? sh->sh_size / 8 + 2 : 1;
	}
	return n;
}
