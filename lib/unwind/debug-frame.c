/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * debug-frame.c - .debug_frame transcribed into .eh_frame form.
 *
 * libunwind reads .debug_frame only when it was built with
 * --enable-debug-frame (dwarf_find_debug_frame), which Debian's x86-64
 * build is not.  The two sections differ only in framing: a CIE's id is
 * 0xffffffff instead of 0, an FDE names its CIE by section offset instead
 * of by distance back, and version 4 CIEs carry address and segment
 * sizes.  So each usable CIE is copied with those fixed (CIEs first, so
 * that every FDE can point back), each FDE with its CIE pointer
 * rewritten, and a search table of one (INT32_MIN, fde offset) pair per
 * FDE is appended: libunwind then parses the copy as .eh_frame, through
 * a one-entry remote table (see unwind.c).  Addresses in a .debug_frame
 * FDE are absolute ELF vaddrs (the pointer encoding of a CIE without
 * augmentation); the caller relocates them with the load bias.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "unwind/unwind-elf.h"

#define DWARF64_ESCAPE 0xffffffffu
#define DEBUG_FRAME_CIE_ID 0xffffffffu

struct cie_map {
	uint64_t old_off;	/* in the section */
	uint32_t new_off;	/* in the copy */
};

struct out {
	uint8_t *buf;
	size_t len, alloc;
	struct cie_map *cie;
	size_t ncie, acie;
	size_t afde;
};

static int put(struct out *o, const void *p, size_t n)
{
	if (ARRAY_GROW(o->buf, o->len + n, o->alloc) != 0)
		return -1;
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return 0;
}

static int put32(struct out *o, uint32_t v)
{
	return put(o, &v, 4);
}

/* One CIE at sec[off], body of len bytes after the length field. */
static int cie_copy(struct out *o, const uint8_t *e, uint32_t len,
		    uint64_t off)
{
	const uint8_t *aug = e + 9, *end = e + 4 + len, *body;
	uint8_t version = e[8];
	uint32_t start = (uint32_t)o->len;

	/* id(4) version(1) and at least the empty augmentation string */
	if (len < 6 || (version != 1 && version != 3 && version != 4))
		return 0;
	body = memchr(aug, 0, (size_t)(end - aug));
	/* an augmentation could name encodings relative to the section */
	if (!body || body != aug)
		return 0;
	body++;
	if (version == 4) {
		if (end - body < 2 || body[0] != 8 || body[1] != 0)
			return 0;	/* 8-byte addresses, no segments */
		body += 2;
		version = 3;	/* v3 is v4 without those two bytes */
	}
	if (ARRAY_GROW(o->cie, o->ncie + 1, o->acie) != 0 ||
	    put32(o, (uint32_t)(4 + 1 + 1 + (size_t)(end - body))) != 0 ||
	    put32(o, 0) != 0 || put(o, &version, 1) != 0 ||
	    put(o, "", 1) != 0 || put(o, body, (size_t)(end - body)) != 0)
		return -1;
	o->cie[o->ncie++] = (struct cie_map){ off, start };
	return 0;
}

static const struct cie_map *cie_find(const struct out *o, uint64_t off)
{
	/* CIEs were copied in section order */
	size_t i = addr_lower_bound(o->cie, o->ncie, sizeof(*o->cie),
				    offsetof(struct cie_map, old_off), off);

	return i < o->ncie && o->cie[i].old_off == off ? &o->cie[i] : NULL;
}

static int fde_copy(struct out *o, struct uw_debug_frame *df,
		    const uint8_t *e, uint32_t len)
{
	const struct cie_map *c = cie_find(o, uw_rd32(e + 4));
	uint32_t pos = (uint32_t)o->len;
	uint64_t start, range;

	if (!c || len < 4 + 16)
		return 0;
	memcpy(&start, e + 8, 8);
	memcpy(&range, e + 16, 8);
	if (!range || start + range < start)
		return 0;
	if (ARRAY_GROW(df->fde, df->nfde + 1, o->afde) != 0 ||
	    put32(o, len) != 0 || put32(o, pos + 4 - c->new_off) != 0 ||
	    put(o, e + 8, len - 4) != 0)
		return -1;
	df->fde[df->nfde++] = (struct uw_dbg_fde){ start, start + range, pos };
	return 0;
}

/* Walk the entries; cies: copy the CIEs, else the FDEs. */
static int walk(struct out *o, struct uw_debug_frame *df, const uint8_t *sec,
		size_t size, int cies)
{
	size_t off = 0;

	while (size - off >= 8) {
		uint32_t len = uw_rd32(sec + off);
		int rc;

		if (len == DWARF64_ESCAPE || len > size - off - 4 || len < 4)
			break;	/* 64-bit DWARF or garbage: stop here */
		if ((uw_rd32(sec + off + 4) == DEBUG_FRAME_CIE_ID) == !!cies)
			rc = cies ? cie_copy(o, sec + off, len, off)
				  : fde_copy(o, df, sec + off, len);
		else
			rc = 0;
		if (rc != 0)
			return -1;
		off += 4 + (size_t)len;
	}
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct uw_dbg_fde *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

int uw_debug_frame_build(const uint8_t *sec, size_t size,
			 struct uw_debug_frame *df)
{
	struct out o = { 0 };
	size_t i;

	memset(df, 0, sizeof(*df));
	if (walk(&o, df, sec, size, 1) != 0 || walk(&o, df, sec, size, 0) != 0)
		goto fail;
	if (df->nfde > 1)	/* no FDE: no array either */
		qsort(df->fde, df->nfde, sizeof(*df->fde), cmp_start);
	/* the search table: one pair per FDE, found by our own search */
	for (i = 0; i < df->nfde; i++) {
		uint32_t fde = df->fde[i].entry;

		df->fde[i].entry = (uint32_t)o.len;
		if (put32(&o, (uint32_t)INT32_MIN) != 0 || put32(&o, fde) != 0)
			goto fail;
	}
	free(o.cie);
	df->buf = o.buf;
	df->size = o.len;
	return 0;
fail:
	free(o.cie);
	free(o.buf);
	uw_debug_frame_release(df);
	errno = ENOMEM;
	return -1;
}

void uw_debug_frame_release(struct uw_debug_frame *df)
{
	free(df->buf);
	free(df->fde);
	memset(df, 0, sizeof(*df));
}
