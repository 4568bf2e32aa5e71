/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * files.h - the files a session knows (struct dso), shared by every
 * process that maps them: found by path and inode, created on first use,
 * freed by files_gc() once no mapping holds them.  The vDSO image and the
 * -d debug files live here too.  Private to lib/symbols.
 *
 * Never prints, never exits: NULL or -1 with errno.  A struct dso handed
 * out belongs to the registry; a caller that keeps it takes a reference
 * (dso_get) and drops it (dso_put), and it lives until the next
 * files_gc() after its last reference is gone.
 */
#ifndef SYMBOLS_FILES_H
#define SYMBOLS_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbols/dso.h"

/* -d: read path instead of the binary at (dev, ino). */
struct debug_file {
	dev_t dev;
	ino_t ino;
	char *path;
	uint8_t id[64];
	int idlen;
};

/*
 * Files no mapping holds any more are kept, the FILES_KEEP that went
 * idle last, so that a program run again and again (a build's compilers,
 * a shell loop) finds its files and their tables already read.
 */
#define FILES_KEEP 64

struct files {
	unsigned flags;			/* SYMBOLS_* for every dso_new */
	size_t cache_entries;
	struct dso **dso;
	uint64_t *idle;			/* per file: when files_gc() first
					   found it unheld (0: held) */
	size_t n, alloc, ialloc;
	uint64_t gcs;			/* files_gc() calls so far */
	struct dso *vdso;
	bool vdso_tried;
	struct debug_file *dbg;
	size_t ndbg, adbg;
};

/* An empty registry whose files get flags and cache_entries. */
void files_init(struct files *f, unsigned flags, size_t cache_entries);

/*
 * The file for (path, elf_path), created on first use: elf_path (NULL:
 * path) is what is opened, path what is shown.  ino is the mapping's inode
 * (0: unknown); files are shared by path and inode, so a binary replaced
 * under its path is a new file.  A file read through a process's
 * /proc/PID/map_files (deleted, or in another mount namespace) is shared
 * with the other processes that map the same inode under the same name,
 * whatever elf_path each gives.  A -d debug file registered for path's
 * inode is used in its place.  NULL with errno ENOMEM.
 */
struct dso *files_get(struct files *f, const char *path, const char *elf_path,
		      uint64_t ino, const uint8_t *build_id,
		      size_t build_id_size);

/*
 * The file of that name and inode opened by its path (no elf_path), if
 * the registry has it; NULL otherwise.  Nothing is created.
 */
struct dso *files_find(struct files *f, const char *path, uint64_t ino);

/*
 * A file of that name that was opened through a process (its elf_path
 * is /proc/PID/root/... or /proc/PID/map_files/...: a process of another
 * mount namespace, or a file deleted or replaced since), as the samples
 * saw it; NULL when none was.  Nothing is created.
 */
struct dso *files_find_seen(struct files *f, const char *path);

/* The file path names for a lookup by path: the one the samples'
   process mapped (files_find_seen), else the one at path here
   (files_get).  NULL with errno ENOMEM. */
struct dso *files_get_seen(struct files *f, const char *path);

/*
 * The root of the process through which the file of that name was seen
 * (files_find_seen: "/proc/PID/root"), the directory its other paths
 * (its source files) are read from: 0 and buf empty when none was
 * (read them here), -1 with errno ENAMETOOLONG when buf is too small.
 */
int files_seen_root(struct files *f, const char *path, char *buf,
		    size_t size);

/* The vDSO image of our own process (same kernel, same image), or NULL.
   The registry keeps a reference of its own: never freed by files_gc(). */
struct dso *files_vdso(struct files *f);

/* symbols_set_debug_file(), which see. */
int files_set_debug_file(struct files *f, const char *binary,
			 const char *debug_file);

/* Free the files without references, but the FILES_KEEP that lost
   their last one latest. */
void files_gc(struct files *f);

/* Free every file and the registry's storage; f is empty again. */
void files_release(struct files *f);

/* Add the files' counters (files_open, files_loaded, cache_hits,
   cache_bytes) to *st. */
void files_stats(const struct files *f, struct symbols_stats *st);

#endif
