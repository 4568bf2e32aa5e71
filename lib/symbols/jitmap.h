/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jitmap.h - /tmp/perf-PID.map, the symbol file JITs write for perf:
 * one "START SIZE name" line (hex) per generated function.
 */
#ifndef SYMBOLS_JITMAP_H
#define SYMBOLS_JITMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbols/symbols.h"

struct jitmap;

/*
 * A map for path, read on first lookup; NULL with errno ENOMEM.  The file
 * is trusted only when root or owner (the process's user) owns it.
 */
struct jitmap *jitmap_new(const char *path, uid_t owner);
void jitmap_free(struct jitmap *jm);

/*
 * The function covering addr, with *off = addr - start, or NULL with
 * *cause (cause may be NULL) saying why: SYM_JIT_NO_MAP (no file),
 * SYM_JIT_MAP_DIR, SYM_JIT_MAP_NOT_FILE (a FIFO, device, socket or
 * symbolic link: opened without blocking and never read),
 * SYM_JIT_MAP_UNTRUSTED (owned by another user), SYM_PERMISSION,
 * SYM_JIT_LINE_TOO_LONG (no function covers addr, and lines were skipped
 * for their length), or SYM_NO_SYMBOL.
 *
 * On a miss the lines appended since the last read are parsed (JITs
 * append), at most once per growth and 4 MiB per call, and within
 * *budget_ms of this thread's CPU time when budget_ms is not NULL (what
 * the read spent is taken off it; none left: nothing is read); a read
 * cut short goes on at the next miss, and its lines are found once 4 MiB
 * of them or the end of the file are read.  A last line still without
 * its newline waits, and lines longer than 4 KiB are skipped and
 * counted.  A file that shrank or was replaced is read again from the
 * start; one replaced by a file that is refused is forgotten.  The string
 * lives until such a fresh start, or jitmap_free.
 */
const char *jitmap_lookup(struct jitmap *jm, uint64_t addr, uint64_t *off,
			  enum sym_cause *cause, double *budget_ms);

/* Lines skipped so far for being longer than 4 KiB. */
size_t jitmap_long_lines(const struct jitmap *jm);

#endif
