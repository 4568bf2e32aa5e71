/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dso-symtab.c - a file's functions as one table sorted by address, built
 * once: dwfl_module_addrinfo() scans the whole symbol table per call (86 us
 * per libc address), a binary search does not.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/addrsearch.h"
#include "symbols/dso-internal.h"

/* Order by start; at one address the global beats the weak and local. */
static int dso_sym_cmp(const void *a, const void *b)
{
	const struct dso_sym *x = a, *y = b;

	size_t ux, uy;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	/* then "abort" over "__GI_abort", as perf picks */
	ux = strspn(x->name, "_");
	uy = strspn(y->name, "_");
	if (ux != uy)
		return ux < uy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* End (module address) of section shndx of elf, or 0 when unknown. */
static uint64_t dso_section_end(Elf *elf, GElf_Word shndx, GElf_Addr bias)
{
	GElf_Shdr mem, *sh;
	Elf_Scn *scn;

	if (!elf || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
		return 0;
	scn = elf_getscn(elf, shndx);
	sh = scn ? gelf_getshdr(scn, &mem) : NULL;
	if (!sh || !(sh->sh_flags & SHF_ALLOC) ||
	    sh->sh_addr + sh->sh_size < sh->sh_addr)
		return 0;
	return sh->sh_addr + sh->sh_size + bias;
}

/*
 * An untyped symbol that names code: an assembly label such as ld.so's
 * _start and _dl_start_user, where every process begins.  perf takes
 * them (elf_sym__is_label) when they are in a code section, not hidden,
 * and not an ARM mapping symbol ($x, $d).
 */
static bool dso_code_label(const GElf_Sym *sym, const char *name, Elf *elf,
			   GElf_Word shndx)
{
	GElf_Shdr mem, *sh;
	Elf_Scn *scn;

	if (name[0] == '$' || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE ||
	    GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN ||
	    GELF_ST_VISIBILITY(sym->st_other) == STV_INTERNAL || !elf)
		return false;
	scn = elf_getscn(elf, shndx);
	sh = scn ? gelf_getshdr(scn, &mem) : NULL;
	return sh && (sh->sh_flags & SHF_EXECINSTR);
}

/*
 * libdwfl's dwfl_module_addrinfo scans the whole symbol table on every
 * call (tens of microseconds on libc); sort the functions once instead and
 * search them, as perf does.  Only when the table cannot be built do we
 * fall back to libdwfl's own lookup.
 */
void dso_build_symtab(struct dso *d)
{
	int i, n = dwfl_module_getsymtab(d->mod);
	size_t k = 0, j, nplt;
	uint64_t cover = 0;	/* end of the functions seen so far */

	d->sym_built = true;
	if (n <= 1)
		return;
	/* PLT stubs have no symbols: without names of their own, the
	   sizeless _init that ends .init just before .plt would claim them
	   ("_init+0x30") */
	nplt = dso_plt_count(d);
	if (nplt > SIZE_MAX / sizeof(*d->sym) - (size_t)n)
		return;
	d->sym = malloc(((size_t)n + nplt) * sizeof(*d->sym));
	if (!d->sym)
		return;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr, sbias = 0;
		GElf_Word shndx = SHN_UNDEF;
		Elf *selp = NULL;
		const char *name;
		int type, rank;

		name = dwfl_module_getsym_info(d->mod, i, &sym, &addr, &shndx,
					       &selp, &sbias);
		type = GELF_ST_TYPE(sym.st_info);
		if (!name || !sym.st_name || addr == 0 ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		if (type == STT_NOTYPE && dso_code_label(&sym, name, selp, shndx))
			rank = DSO_RANK_LABEL;
		else if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		else
			rank = GELF_ST_BIND(sym.st_info) == STB_GLOBAL ? 0 :
			       GELF_ST_BIND(sym.st_info) == STB_WEAK ? 1 : 2;
		d->sym[k++] = (struct dso_sym){ addr, sym.st_size,
			dso_section_end(selp, shndx, sbias), name, rank };
	}
	k += dso_plt_syms(d, d->sym + k, nplt);
	qsort(d->sym, k, sizeof(*d->sym), dso_sym_cmp);
	/*
	 * One symbol per address: the best-ranked alias, sorted first.  A
	 * label inside a function is a place in it, not a function: the
	 * function keeps its name there.
	 */
	for (j = 0, i = 0; (size_t)i < k; i++) {
		if (j && d->sym[j - 1].start == d->sym[i].start) {
			if (d->sym[i].size > d->sym[j - 1].size)
				d->sym[j - 1].size = d->sym[i].size;
			continue;
		}
		if (d->sym[i].rank == DSO_RANK_LABEL && d->sym[i].start < cover)
			continue;
		if (d->sym[i].rank != DSO_RANK_LABEL &&
		    d->sym[i].start + d->sym[i].size > cover)
			cover = d->sym[i].start + d->sym[i].size;
		d->sym[j++] = d->sym[i];
	}
	d->nsym = j;
}

/*
 * The symbol covering module address a: sized ones by their size,
 * sizeless ones up to the next symbol or the end of their section,
 * whichever comes first.  NULL when none does (so past the last symbol
 * of a file the answer is "no symbol", not the last function).
 */
const struct dso_sym *dso_sym_find(const struct dso *d, uint64_t a)
{
	size_t lo = addr_upper_bound(d->sym, d->nsym, sizeof(*d->sym),
				     offsetof(struct dso_sym, start), a);
	const struct dso_sym *s;

	if (lo == 0)
		return NULL;
	s = &d->sym[lo - 1];
	if (s->size)
		return a - s->start < s->size ? s : NULL;
	/* d->sym[lo], when there is one, starts above a */
	if (s->sec_end)
		return a < s->sec_end ? s : NULL;
	return lo < d->nsym ? s : NULL;
}
