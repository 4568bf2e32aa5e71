/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind-elf.h - one ELF file's unwinding tables, read from a read-only
 * mapping of the file (or the vDSO image lib/symbols holds): its PT_LOAD
 * segments, the binary search table of .eh_frame_hdr, and .debug_frame
 * transcribed into .eh_frame form (debug-frame.c).  Private to
 * lib/unwind.
 *
 * Never prints or exits.  A file that changes size while it is mapped
 * can fault on access (SIGBUS), as with every mmap reader (libelf, perf).
 */
#ifndef UNWIND_ELF_H
#define UNWIND_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UW_MAX_LOADS 16

struct uw_seg {
	uint64_t vaddr, filesz, offset;
};

/* .debug_frame in .eh_frame form: CIEs, then FDEs, then a search table
   of (INT32_MIN, fde offset) pairs, all relative to the buffer start. */
struct uw_dbg_fde {
	uint64_t start, end;	/* ELF vaddrs the FDE covers */
	uint32_t entry;		/* offset of its table pair in buf */
};

struct uw_debug_frame {
	uint8_t *buf;
	size_t size;
	struct uw_dbg_fde *fde;	/* sorted by start */
	size_t nfde;
};

struct uw_elf {
	char *path;		/* what was opened ("[vdso]" for an image) */
	uint64_t ino;		/* the mapping's inode (0: unknown) */
	const uint8_t *data;	/* the whole file */
	size_t size;
	bool mapped;		/* data is our mmap (else lib/symbols') */

	struct uw_seg seg[UW_MAX_LOADS];
	unsigned nseg;
	uint64_t vmin, vmax;	/* the span of the PT_LOAD segments */

	/* .eh_frame_hdr: its vaddr and its sorted table of int32 pairs */
	uint64_t hdr_vaddr, table_vaddr;
	const int32_t *table;	/* 2 * nfde values, inside data */
	size_t nfde;
	int32_t *own_table;	/* no .eh_frame_hdr: the table built from
				   .eh_frame (eh-frame.c), relative to its
				   vaddr (hdr_vaddr); table is this */

	struct uw_debug_frame dbg;	/* nfde 0 when none */
	uint64_t synth;		/* where dbg.buf appears to libunwind */

	unsigned gen;		/* the unwinder's generation at last use */
};

/*
 * Open the ELF file at path (image NULL) or the image of size bytes
 * (kept by the caller for as long as the uw_elf).  Returns the file or
 * NULL with errno (ENOEXEC for what is not a 64-bit ELF of this machine).
 */
struct uw_elf *uw_elf_open(const char *path, const void *image, size_t size,
			   uint64_t ino);
void uw_elf_close(struct uw_elf *e);

/*
 * Read the 8 bytes at ELF vaddr as the file holds them (what a PT_LOAD
 * segment maps there).  Returns 0, or -1 when no segment's file bytes
 * hold them.
 */
int uw_elf_read(const struct uw_elf *e, uint64_t vaddr, uint64_t *val);

/*
 * The .eh_frame_hdr table entry whose FDE may cover vaddr: its index, or
 * -1 when the file has no table or vaddr lies before every entry.
 */
long uw_elf_hdr_find(const struct uw_elf *e, uint64_t vaddr);

/*
 * The transcribed .debug_frame FDE covering vaddr, or NULL.
 */
const struct uw_dbg_fde *uw_elf_dbg_find(const struct uw_elf *e,
					 uint64_t vaddr);

/* A 32-bit value of a frame section at p, which need not be aligned
   (the sections are little-endian, as the ELF header was checked). */
static inline uint32_t uw_rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* debug-frame.c: transcribe a .debug_frame section (64-bit addresses,
   little-endian) into *out.  Entries it cannot carry over (64-bit DWARF,
   CIEs with an augmentation) are left out.  Returns 0 (an empty result
   for a section with nothing usable), or -1 with errno ENOMEM. */
int uw_debug_frame_build(const uint8_t *sec, size_t size,
			 struct uw_debug_frame *out);
void uw_debug_frame_release(struct uw_debug_frame *df);

/* eh-frame.c: .eh_frame_hdr's search table for an .eh_frame section of
   size bytes at sec_vaddr: *n (start - sec_vaddr, fde offset) int32
   pairs sorted by start, in *table (malloc'd; NULL when none).  FDEs it
   cannot read are left out.  Returns 0, or -1 with errno ENOMEM. */
int uw_eh_frame_table(const uint8_t *sec, size_t size, uint64_t sec_vaddr,
		      int32_t **table, size_t *n);

#endif
