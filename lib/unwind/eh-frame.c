/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * eh-frame.c - the search table of .eh_frame_hdr, built from .eh_frame
 * itself for files linked without it.
 *
 * gcc passes --eh-frame-hdr to the linker for dynamic links only, so a
 * static binary carries .eh_frame (its code is built with asynchronous
 * unwind tables) but no PT_GNU_EH_FRAME, and libunwind finds no FDE for
 * any of its addresses: every chain ended at the sampled function.  The
 * table made here has .eh_frame_hdr's form -- (start - base, fde - base)
 * int32 pairs sorted by start, base being the section's vaddr -- and the
 * FDEs stay where they are, in the file's mapped segment, where their
 * pc-relative pointers mean what they say.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "unwind/unwind-elf.h"

/* DWARF pointer encodings (LSB Core, "DWARF Extensions"). */
enum {
	PE_ABSPTR = 0x00, PE_ULEB128 = 0x01, PE_UDATA2 = 0x02,
	PE_UDATA4 = 0x03, PE_UDATA8 = 0x04, PE_SLEB128 = 0x09,
	PE_SDATA2 = 0x0a, PE_SDATA4 = 0x0b, PE_SDATA8 = 0x0c,
	PE_PCREL = 0x10, PE_OMIT = 0xff,
};

struct cursor {
	const uint8_t *p, *end;
};

static int leb(struct cursor *c, uint64_t *v, int is_signed)
{
	unsigned shift = 0;
	uint8_t b;

	*v = 0;
	do {
		if (c->p >= c->end || shift >= 64)
			return -1;
		b = *c->p++;
		*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (is_signed && shift < 64 && (b & 0x40))
		*v |= ~0ull << shift;
	return 0;
}

/*
 * A pointer of encoding enc at c (vaddr: where it sits), absolute or
 * pc-relative; -1 for encodings an FDE's start never uses here
 * (datarel, textrel, funcrel, indirect).
 */
static int pointer(struct cursor *c, uint8_t enc, uint64_t vaddr,
		   uint64_t *v)
{
	size_t n;

	if (enc & 0x80 || (enc & 0x70) > PE_PCREL)
		return -1;
	switch (enc & 0x0f) {
	case PE_ABSPTR: case PE_UDATA8: case PE_SDATA8: n = 8; break;
	case PE_UDATA4: case PE_SDATA4: n = 4; break;
	case PE_UDATA2: case PE_SDATA2: n = 2; break;
	case PE_ULEB128:
		if (leb(c, v, 0) != 0)
			return -1;
		n = 0;
		break;
	case PE_SLEB128:
		if (leb(c, v, 1) != 0)
			return -1;
		n = 0;
		break;
	default:
		return -1;
	}
	if (n) {
		if ((size_t)(c->end - c->p) < n)
			return -1;
		*v = 0;
		memcpy(v, c->p, n);	/* little-endian, as the ELF checked */
		if ((enc & 0x0f) == PE_SDATA4)
			*v = (uint64_t)(int64_t)(int32_t)*v;
		else if ((enc & 0x0f) == PE_SDATA2)
			*v = (uint64_t)(int64_t)(int16_t)*v;
		c->p += n;
	}
	if ((enc & 0x70) == PE_PCREL)
		*v += vaddr;
	return 0;
}

/* The encoding of FDE start addresses a CIE gives (its 'R'), or -1. */
static int cie_fde_encoding(const uint8_t *sec, size_t size, size_t off,
			    uint64_t sec_vaddr)
{
	struct cursor c;
	const char *aug;
	uint64_t len, skip;
	uint8_t enc = PE_ABSPTR, version;

	if (off > size || size - off < 9)
		return -1;
	len = uw_rd32(sec + off);
	if (len < 5 || len > size - off - 4 ||
	    uw_rd32(sec + off + 4) != 0)
		return -1;
	c = (struct cursor){ sec + off + 9, sec + off + 4 + len };
	version = sec[off + 8];
	aug = (const char *)c.p;
	c.p = memchr(c.p, 0, (size_t)(c.end - c.p));
	if (!c.p || (version != 1 && version != 3))
		return -1;
	c.p++;
	if (leb(&c, &skip, 0) || leb(&c, &skip, 1))	/* code, data align */
		return -1;
	if (version == 1 ? c.p++ >= c.end : leb(&c, &skip, 0) != 0)
		return -1;			/* return register */
	if (aug[0] != 'z')
		return aug[0] ? -1 : enc;
	if (leb(&c, &skip, 0) != 0)
		return -1;
	for (aug++; *aug; aug++) {
		uint64_t v;

		if (c.p >= c.end)
			return -1;
		switch (*aug) {
		case 'R':
			enc = *c.p++;
			break;
		case 'L':
			c.p++;
			break;
		case 'P': {
			uint8_t penc = *c.p++;

			if (pointer(&c, penc & 0x7f, sec_vaddr +
				    (uint64_t)(c.p - sec), &v) != 0)
				return -1;
			break;
		}
		case 'S': case 'B':
			break;
		default:
			return -1;	/* unknown: its data cannot be skipped */
		}
	}
	return enc;
}

static int cmp_pair(const void *a, const void *b)
{
	const int32_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

int uw_eh_frame_table(const uint8_t *sec, size_t size, uint64_t sec_vaddr,
		      int32_t **table, size_t *n)
{
	int32_t *t = NULL;
	size_t off = 0, nt = 0, alloc = 0;
	size_t cie_off = SIZE_MAX;
	int enc = -1;

	*table = NULL;
	*n = 0;
	while (size - off >= 8) {
		uint32_t len = uw_rd32(sec + off);
		uint32_t id;

		if (len == 0 || len == 0xffffffffu || len > size - off - 4 ||
		    len < 4 || (off & 3))
			break;	/* terminator, 64-bit DWARF or garbage */
		id = uw_rd32(sec + off + 4);
		if (id != 0 && id <= off + 4) {
			struct cursor c = { sec + off + 8, sec + off + 4 + len };
			uint64_t start;
			int64_t rs, rf;

			if (off + 4 - id != cie_off) {
				cie_off = off + 4 - id;
				enc = cie_fde_encoding(sec, size, cie_off,
						       sec_vaddr);
			}
			if (enc >= 0 && enc != PE_OMIT &&
			    pointer(&c, (uint8_t)enc, sec_vaddr + off + 8,
				    &start) == 0 && start) {
				rs = (int64_t)(start - sec_vaddr);
				rf = (int64_t)off;
				if (rs == (int32_t)rs && rf == (int32_t)rf) {
					if (ARRAY_GROW(t, 2 * nt + 2, alloc)) {
						free(t);
						errno = ENOMEM;
						return -1;
					}
					t[2 * nt] = (int32_t)rs;
					t[2 * nt + 1] = (int32_t)rf;
					nt++;
				}
			}
		}
		off += 4 + (size_t)len;
	}
	if (nt > 1)
		qsort(t, nt, 2 * sizeof(*t), cmp_pair);
	*table = t;
	*n = nt;
	return 0;
}
