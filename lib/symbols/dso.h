/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dso.h - one ELF file (executable, library, vDSO) opened through libdwfl,
 * with a bounded cache of the addresses already looked up in it.
 * Private to lib/symbols.
 */
#ifndef SYMBOLS_DSO_H
#define SYMBOLS_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/symbols.h"

struct dso;

/*
 * A file known by name; nothing is read until the first lookup.  path is
 * what is shown; elf_path (NULL: path) what is opened, e.g. a -d file or
 * /proc/PID/map_files/... for a deleted binary.  When expect_build_id is
 * not NULL the file read must carry that build-id.  Returns NULL with
 * errno ENOMEM.
 */
struct dso *dso_new(const char *path, const char *elf_path, unsigned flags,
		    size_t cache_entries, const uint8_t *expect_build_id,
		    size_t expect_len);

/* The same for an ELF image in memory (the vDSO); data is copied. */
struct dso *dso_new_memory(const char *name, const void *data, size_t size,
			   unsigned flags, size_t cache_entries);

void dso_free(struct dso *d);

/* Open the file if not done yet.  Returns 0, or -1 and dso_cause() says
   why it is unusable. */
int dso_load(struct dso *d);

/* Mark d unusable for cause without reading it (a deleted file...). */
void dso_set_cause(struct dso *d, enum sym_cause cause);

/* SYM_OK, or why the file cannot be used (after dso_load). */
enum sym_cause dso_cause(const struct dso *d);

/* Shown name (the path given to dso_new). */
const char *dso_name(const struct dso *d);

/* The image of a dso_new_memory() file (size in *size), else NULL. */
const void *dso_image(const struct dso *d, size_t *size);

/* The path opened instead of the shown one, or NULL. */
const char *dso_elf_path(const struct dso *d);

/*
 * The inode the mapping named (0: unknown).  When it is known, dso_load()
 * refuses a file found at the path under another inode (the binary was
 * replaced since it was mapped): SYM_REPLACED, never a mis-resolution.
 */
void dso_set_inode(struct dso *d, uint64_t ino);
uint64_t dso_inode(const struct dso *d);

/* File offset (a mapping's pgoff + distance into it) to ELF vaddr, through
   the PT_LOAD headers.  Returns 0, or -1 when no segment holds it. */
int dso_offset_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr);

/*
 * Look up ELF vaddr addr: fills sym, off, file, line, n_inline, inl and
 * cause of *out (dso, dso_off and kernel are the caller's).  Returns 0
 * when a function was found, -1 otherwise.
 */
int dso_lookup(struct dso *d, uint64_t addr, struct sym_result *out);

/* The file's GNU build-id (loading it), or NULL.  Valid as long as d. */
const uint8_t *dso_build_id(struct dso *d, size_t *len);

/* Read the build-id of the ELF file at path into buf (at most 64 bytes).
   Returns its length, 0 when it has none, -1 with errno. */
int dso_read_build_id(const char *path, uint8_t *buf, size_t bufsz);

/* Whether the ELF file at path is a program (ET_EXEC, or a PIE: ET_DYN
   with DF_1_PIE) rather than a shared library: 1, 0, or -1 with errno. */
int dso_read_is_program(const char *path);

/* Lookups and hits of the cache, bytes it holds. */
void dso_cache_stats(const struct dso *d, uint64_t *lookups, uint64_t *hits,
		     size_t *bytes);

/* A number the session keeps with d (0 until set). */
int dso_tag(const struct dso *d);
void dso_set_tag(struct dso *d, int tag);

/*
 * Reference counts.  A file starts with none; each holder counts one:
 * every mapping that names it (maps.c takes one per map and drops it
 * with the map), the registry's own for the vDSO and for files resolved
 * by path (symbols_resolve_file).  dso_get() and dso_put() return the
 * new count; dso_put() never frees: a file without references is freed
 * by the registry's next files_gc() (symbols_gc), or with the session.
 */
unsigned dso_get(struct dso *d);
unsigned dso_put(struct dso *d);
unsigned dso_refs(const struct dso *d);

#endif
