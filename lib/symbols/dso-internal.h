/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dso-internal.h - the insides of struct dso, shared by dso.c (loading,
 * the lookup cache, inlines) and dso-symtab.c (the sorted function
 * table).  Private to lib/symbols.
 */
#ifndef SYMBOLS_DSO_INTERNAL_H
#define SYMBOLS_DSO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "base/hashtab.h"
#include "symbols/dso.h"
#include "symbols/inlines.h"

#define DSO_MAX_INLINE 8
#define DSO_MAX_LOADS 16

struct dso_load_seg {
	uint64_t offset, filesz, vaddr;
};

/* One cached answer, an item of dso.cache (keyed by addr). */
struct dso_cent {
	uint64_t addr;
	const char *sym, *file;
	uint64_t off;
	struct sym_inline *inl;
	int line;
	uint8_t n_inline;
	uint8_t cause;
};

/* An item of dso.dem: mangled name (pointer into libdw's strings) ->
   demangled, or itself */
/* A string made from one of libdw's (which lives as long as the Dwfl):
   a symbol's demangled name, a source file's path from the CU's
   directory. */
struct dso_dement {
	const char *mangled;	/* libdw's, the key (by pointer) */
	char *demangled;	/* NULL: use mangled as is */
};

/* One function symbol of the sorted table (module addresses). */
struct dso_sym {
	uint64_t start, size;
	uint64_t sec_end;	/* end of its section (0: unknown): a sizeless
				   symbol never reaches past it */
	const char *name;	/* libdw's string, or a PLT section's name */
	int rank;		/* 0 global, 1 weak, 2 local, 3 PLT,
				   DSO_RANK_LABEL: lower wins */
};

#define DSO_RANK_PLT 3		/* a PLT stub, or a PLT section's part */
#define DSO_RANK_LABEL 4	/* an untyped code label (assembly) */


struct dso {
	char *path, *elf_path;
	unsigned flags;
	unsigned refs;
	int tag;
	bool loaded;
	enum sym_cause cause;
	bool has_symtab, has_dwarf;

	void *image;		/* dso_new_memory(): our copy */
	size_t image_size;
	uint8_t *expect_id;
	size_t expect_len;
	uint64_t expect_ino;	/* the mapping's inode, 0 unknown */

	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;		/* module address = vaddr + bias */
	struct dso_load_seg seg[DSO_MAX_LOADS];
	unsigned nseg;

	struct dso_sym *sym;	/* sorted by start; NULL until first use */
	size_t nsym;
	bool sym_built;
	char **plt_names;	/* "malloc@plt": the stubs' names */
	size_t nplt_names;

	struct hashtab cache;	/* of struct dso_cent, at most cache_max */
	size_t cache_max;
	uint64_t lookups, hits;

	struct hashtab dem;	/* of struct dso_dement: names, paths */
	struct inlines inl;	/* the inline trees of the CUs looked up */
};

/* dso-symtab.c: build the table once (on first lookup), find in it. */
void dso_build_symtab(struct dso *d);
const struct dso_sym *dso_sym_find(const struct dso *d, uint64_t a);

/*
 * dso-plt.c: the symbols of the PLT stubs ("malloc@plt", names kept in
 * d->plt_names), at most room of them, into out; their count.
 * dso_plt_count() is an upper bound of what dso_plt_syms() may return.
 */
size_t dso_plt_syms(struct dso *d, struct dso_sym *out, size_t room);

/* The value of tag in elf's dynamic section: true and *val, or false
   when there is none. */
bool dso_dynamic_tag(Elf *elf, int64_t tag, uint64_t *val);
size_t dso_plt_count(struct dso *d);

/*
 * debuginfo.c: libdwfl's find_debuginfo callback -- the standard search,
 * but no debuginfod client (and none of its libraries loaded) unless
 * DEBUGINFOD_URLS is set.
 */
int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
		   GElf_Addr base, const char *file_name,
		   const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name);

#endif
