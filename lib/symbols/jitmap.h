/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jitmap.h - /tmp/perf-PID.map, the symbol file JITs write for perf:
 * one "START SIZE name" line (hex) per generated function.
 */
#ifndef SYMBOLS_JITMAP_H
#define SYMBOLS_JITMAP_H

#include <stdint.h>

struct jitmap;

/* A map for path, read on first lookup; NULL with errno ENOMEM. */
struct jitmap *jitmap_new(const char *path);
void jitmap_free(struct jitmap *jm);

/*
 * The function covering addr, with *off = addr - start, or NULL.  On a
 * miss the lines appended since the last read are parsed (JITs append),
 * at most once per growth; a last line still without its newline waits,
 * and lines longer than 4 KiB are skipped.  A file that shrank or was
 * replaced is read again from the start.  The string lives until such a
 * fresh start, or jitmap_free.
 */
const char *jitmap_lookup(struct jitmap *jm, uint64_t addr, uint64_t *off);

#endif
