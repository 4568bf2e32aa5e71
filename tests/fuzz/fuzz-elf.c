/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-elf: ELF files with their DWARF, through symbols_resolve_file()
 * (libdwfl: symbol tables, lines, inlined frames, build-ids) and, where
 * libunwind is built in, lib/unwind's own reading of the unwinding
 * tables (.eh_frame_hdr, .debug_frame).  The input is the file; the
 * addresses looked up are those it names itself: its entry point, its
 * functions' starts, middles and ends, and points across its segments.
 */
#include "config.h"

#include <elf.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "symbols/symbols.h"
#ifdef HAVE_LIBUNWIND
#include "unwind/unwind-elf.h"
#endif
#include "fuzz.h"

#define MAX_LOOKUPS 128

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_dir("elf");
	/* never ask the network for debuginfo of a mutated file */
	unsetenv("DEBUGINFOD_URLS");
	elf_version(EV_CURRENT);
	return 0;
}

static void add(uint64_t *addr, size_t *n, uint64_t a)
{
	if (*n < MAX_LOOKUPS)
		addr[(*n)++] = a;
}

/* The addresses the file names: entry, functions, segments. */
static size_t addresses(const uint8_t *data, size_t size, uint64_t *addr)
{
	char *copy = malloc(size ? size : 1);
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t n = 0, nph;
	Elf *elf;

	FUZZ_CHECK(copy != NULL);
	memcpy(copy, data, size);
	elf = elf_memory(copy, size);
	if (elf && gelf_getehdr(elf, &eh)) {
		add(addr, &n, eh.e_entry);
		if (elf_getphdrnum(elf, &nph) == 0)
			for (size_t i = 0; i < nph && i < 16; i++) {
				GElf_Phdr ph;

				if (!gelf_getphdr(elf, (int)i, &ph) ||
				    ph.p_type != PT_LOAD)
					continue;
				for (uint64_t k = 0; k <= 4; k++)
					add(addr, &n, ph.p_vaddr +
					    ph.p_memsz / 4 * k);
			}
		while ((scn = elf_nextscn(elf, scn)) && n < MAX_LOOKUPS) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) ||
			    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
			    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
				continue;
			for (size_t i = 0; i < sh.sh_size / sh.sh_entsize &&
			     n < MAX_LOOKUPS; i++) {
				GElf_Sym sym;

				if (!gelf_getsym(d, (int)i, &sym) ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
					continue;
				add(addr, &n, sym.st_value);
				add(addr, &n, sym.st_value + sym.st_size / 2);
				add(addr, &n, sym.st_value + sym.st_size);
			}
		}
	}
	if (elf)
		elf_end(elf);
	free(copy);
	add(addr, &n, 0);
	return n;
}

static void check(const struct sym_result *r, int ret)
{
	FUZZ_CHECK(r->dso != NULL);
	FUZZ_CHECK((unsigned)r->cause < SYM_CAUSE_MAX);
	if (ret == 0)
		FUZZ_CHECK(r->sym != NULL);
	FUZZ_CHECK(r->line >= 0);
	FUZZ_CHECK(r->n_inline == 0 || r->inl != NULL);
	for (unsigned i = 0; i < r->n_inline; i++)
		FUZZ_CHECK(r->inl[i].line >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addr[MAX_LOOKUPS];
	size_t n = addresses(data, size, addr);
	const char *path = fuzz_file("file.elf", data, size);
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(
		.flags = SYMBOLS_NO_PROC, .kallsyms = "/nonexistent",
		.jit_dir = "/nonexistent"));
	uint8_t id[64];

	FUZZ_CHECK(s != NULL);
	for (size_t i = 0; i < n; i++) {
		struct sym_result r;

		check(&r, symbols_resolve_file(s, path, addr[i], &r));
	}
	FUZZ_CHECK(symbols_build_id(s, path, id, sizeof(id)) <= (int)sizeof(id));
	symbols_free(s);

#ifdef HAVE_LIBUNWIND
	{
		struct uw_elf *e = uw_elf_open("fuzz.elf", data, size, 0);

		for (size_t i = 0; e && i < n; i++) {
			uint64_t v;

			uw_elf_hdr_find(e, addr[i]);
			uw_elf_dbg_find(e, addr[i]);
			uw_elf_read(e, addr[i], &v);
		}
		uw_elf_close(e);
	}
#endif
	return 0;
}
