/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind-elf.c - an ELF file's PT_LOAD segments and unwinding tables,
 * read from a read-only mapping of the file (see unwind-elf.h).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/addrsearch.h"
#include "base/regular-file.h"
#include "unwind/unwind-elf.h"

#if defined(__x86_64__)
#define UW_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define UW_MACHINE EM_AARCH64
#else
#define UW_MACHINE EM_NONE
#endif

/* DWARF pointer encodings .eh_frame_hdr uses (LSB Core, "DWARF
   Extensions"). */
enum {
	PE_UDATA4 = 0x03, PE_SDATA4 = 0x0b, PE_UDATA8 = 0x04,
	PE_SDATA8 = 0x0c, PE_DATAREL_SDATA4 = 0x3b, PE_OMIT = 0xff,
};

/* A pointer to n bytes at offset off of the file, or NULL. */
static const void *at(const struct uw_elf *e, uint64_t off, uint64_t n)
{
	if (off > e->size || n > e->size - off)
		return NULL;
	return e->data + off;
}

/*
 * A table of n entries of size bytes at offset off, or NULL: also when
 * it is not aligned for its entries (as a well-formed file's are), which
 * are then read as the structs they are.
 */
static const void *at_table(const struct uw_elf *e, uint64_t off, unsigned n,
			    uint64_t size, size_t align)
{
	const uint8_t *p = at(e, off, n * size);

	if ((uintptr_t)p & (align - 1))
		return NULL;
	return p;
}

static int map_file(struct uw_elf *e, const char *path)
{
	struct stat st;
	void *p;
	/* a path from the target's mappings: never block on a FIFO */
	int fd = regular_file_open(path, 0, &st);

	if (fd < 0)
		return -1;
	if (st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		errno = ENOEXEC;
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	e->data = p;
	e->size = (size_t)st.st_size;
	e->mapped = true;
	return 0;
}

/* The PT_LOAD segments and the .eh_frame_hdr table (PT_GNU_EH_FRAME). */
static int read_phdrs(struct uw_elf *e, const Elf64_Ehdr *eh)
{
	const Elf64_Phdr *ph;
	const Elf64_Phdr *hdr = NULL;
	unsigned i;

	if (eh->e_phentsize != sizeof(*ph))
		return -1;
	ph = at_table(e, eh->e_phoff, eh->e_phnum, sizeof(*ph),
		      _Alignof(Elf64_Phdr));
	if (!ph)
		return -1;
	e->vmin = UINT64_MAX;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_GNU_EH_FRAME)
			hdr = &ph[i];
		if (ph[i].p_type != PT_LOAD || e->nseg == UW_MAX_LOADS)
			continue;
		e->seg[e->nseg++] = (struct uw_seg){ ph[i].p_vaddr,
						     ph[i].p_filesz,
						     ph[i].p_offset };
		if (ph[i].p_vaddr < e->vmin)
			e->vmin = ph[i].p_vaddr;
		if (ph[i].p_vaddr + ph[i].p_memsz > e->vmax)
			e->vmax = ph[i].p_vaddr + ph[i].p_memsz;
	}
	if (!e->nseg)
		return -1;
	if (hdr) {
		const uint8_t *h = at(e, hdr->p_offset, hdr->p_filesz), *p;
		uint64_t count = 0;

		/* version 1; the eh_frame pointer (skipped), the count, and a
		   table of datarel sdata4 pairs that can be searched */
		if (!h || hdr->p_filesz < 12 || h[0] != 1 ||
		    h[3] != PE_DATAREL_SDATA4)
			return 0;
		p = h + 4;
		switch (h[1]) {
		case PE_OMIT: break;
		case PE_UDATA8: case PE_SDATA8: p += 8; break;
		default: p += 4; break;
		}
		switch (h[2]) {
		case PE_UDATA4: case PE_SDATA4: {
			uint32_t c;

			memcpy(&c, p, 4);
			count = c;
			p += 4;
			break;
		}
		case PE_UDATA8: case PE_SDATA8:
			memcpy(&count, p, 8);
			p += 8;
			break;
		default:
			return 0;
		}
		if ((uint64_t)(p - h) > hdr->p_filesz ||
		    count > (hdr->p_filesz - (uint64_t)(p - h)) / 8 ||
		    ((uintptr_t)p & 3))
			return 0;
		e->hdr_vaddr = hdr->p_vaddr;
		e->table_vaddr = hdr->p_vaddr + (uint64_t)(p - h);
		e->table = (const int32_t *)(const void *)p;
		e->nfde = count;
	}
	return 0;
}

/*
 * A section by name (section headers), NULL when there is none.  Its
 * bytes are checked to lie in the file.
 */
static const Elf64_Shdr *section(const struct uw_elf *e, const Elf64_Ehdr *eh,
				 const char *name)
{
	const Elf64_Shdr *sh, *strs;
	const char *names;
	unsigned i;

	if (!eh->e_shoff || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = at_table(e, eh->e_shoff, eh->e_shnum, sizeof(*sh),
		      _Alignof(Elf64_Shdr));
	if (!sh)
		return NULL;
	strs = &sh[eh->e_shstrndx];
	names = at(e, strs->sh_offset, strs->sh_size);
	if (!names || !strs->sh_size || names[strs->sh_size - 1])
		return NULL;
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_name < strs->sh_size &&
		    strcmp(names + sh[i].sh_name, name) == 0 &&
		    sh[i].sh_type != SHT_NOBITS &&
		    at(e, sh[i].sh_offset, sh[i].sh_size))
			return &sh[i];
	return NULL;
}

/*
 * No .eh_frame_hdr (a static link): the search table from .eh_frame,
 * whose FDEs libunwind reads where the file maps them.
 */
static int read_eh_frame(struct uw_elf *e, const Elf64_Ehdr *eh)
{
	const Elf64_Shdr *sh = section(e, eh, ".eh_frame");
	size_t n;

	if (!sh || !(sh->sh_flags & SHF_ALLOC) ||
	    uw_elf_read(e, sh->sh_addr, &(uint64_t){ 0 }) != 0)
		return 0;	/* not in a segment: libunwind cannot read it */
	if (uw_eh_frame_table(at(e, sh->sh_offset, sh->sh_size),
			      sh->sh_size, sh->sh_addr, &e->own_table,
			      &n) != 0)
		return -1;
	if (n) {
		e->hdr_vaddr = sh->sh_addr;
		e->table = e->own_table;
		e->nfde = n;
	}
	return 0;
}

/* .debug_frame, when the file has one. */
static int read_debug_frame(struct uw_elf *e, const Elf64_Ehdr *eh)
{
	const Elf64_Shdr *sh = section(e, eh, ".debug_frame");

	if (!sh)
		return 0;
	return uw_debug_frame_build(at(e, sh->sh_offset, sh->sh_size),
				    sh->sh_size, &e->dbg);
}

struct uw_elf *uw_elf_open(const char *path, const void *image, size_t size,
			   uint64_t ino)
{
	struct uw_elf *e = calloc(1, sizeof(*e));
	const Elf64_Ehdr *eh;
	int err = ENOEXEC;

	if (!e)
		return NULL;
	e->ino = ino;
	e->path = strdup(path);
	if (!e->path) {
		err = ENOMEM;
		goto fail;
	}
	if (image) {
		e->data = image;
		e->size = size;
	} else if (map_file(e, path) != 0) {
		err = errno;
		goto fail;
	}
	eh = at(e, 0, sizeof(*eh));
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != UW_MACHINE || read_phdrs(e, eh) != 0)
		goto fail;
	/* .eh_frame_hdr is what compilers emit; .debug_frame is for the
	   code built without it (-fno-asynchronous-unwind-tables), which
	   may sit beside code that has it */
	if (read_debug_frame(e, eh) != 0 ||
	    (!e->nfde && read_eh_frame(e, eh) != 0)) {
		err = errno;
		goto fail;
	}
	return e;
fail:
	uw_elf_close(e);
	errno = err;
	return NULL;
}

void uw_elf_close(struct uw_elf *e)
{
	if (!e)
		return;
	if (e->mapped)
		munmap((void *)e->data, e->size);
	uw_debug_frame_release(&e->dbg);
	free(e->own_table);
	free(e->path);
	free(e);
}

int uw_elf_read(const struct uw_elf *e, uint64_t vaddr, uint64_t *val)
{
	unsigned i;

	for (i = 0; i < e->nseg; i++) {
		const struct uw_seg *s = &e->seg[i];
		uint64_t off, n;

		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->filesz)
			continue;
		/* libunwind reads aligned words: the last may run past the
		   segment's file bytes, which read as the zeros of .bss */
		off = s->offset + (vaddr - s->vaddr);
		n = s->filesz - (vaddr - s->vaddr);
		if (n > 8)
			n = 8;
		if (!at(e, off, n))
			return -1;
		*val = 0;
		memcpy(val, e->data + off, n);
		return 0;
	}
	return -1;
}

struct hdr_search {
	const int32_t *table;
	int64_t rel;
};

/* Whether table entry i starts at or before the address sought. */
static bool hdr_starts_before(const void *arg, size_t i)
{
	const struct hdr_search *s = arg;

	return s->table[2 * i] <= s->rel;
}

long uw_elf_hdr_find(const struct uw_elf *e, uint64_t vaddr)
{
	/* entries are (start - hdr, fde - hdr), sorted by start */
	struct hdr_search s = { e->table, (int64_t)(vaddr - e->hdr_vaddr) };
	size_t lo = partition_point(e->nfde, hdr_starts_before, &s);

	return lo ? (long)lo - 1 : -1;
}

const struct uw_dbg_fde *uw_elf_dbg_find(const struct uw_elf *e,
					 uint64_t vaddr)
{
	size_t i = addr_upper_bound(e->dbg.fde, e->dbg.nfde,
				    sizeof(*e->dbg.fde),
				    offsetof(struct uw_dbg_fde, start), vaddr);

	if (i == 0 || vaddr >= e->dbg.fde[i - 1].end)
		return NULL;
	return &e->dbg.fde[i - 1];
}
