/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* files.c - the session's file registry: shared by path and inode, freed
   when no mapping holds them; the vDSO and the -d debug files. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>

#include "base/array.h"
#include "base/regular-file.h"
#include "symbols/files.h"

void files_init(struct files *f, unsigned flags, size_t cache_entries)
{
	memset(f, 0, sizeof(*f));
	f->flags = flags;
	f->cache_entries = cache_entries;
}

static int files_add(struct files *f, struct dso *d)
{
	if (ARRAY_GROW(f->dso, f->n + 1, f->alloc) != 0)
		return -1;
	f->dso[f->n++] = d;
	return 0;
}

static const struct debug_file *debug_for(const struct files *f,
					  const char *path)
{
	struct stat st;
	size_t i;

	if (!f->ndbg || stat(path, &st) != 0)
		return NULL;
	for (i = 0; i < f->ndbg; i++)
		if (f->dbg[i].dev == st.st_dev && f->dbg[i].ino == st.st_ino)
			return &f->dbg[i];
	return NULL;
}

/*
 * Identity is the path that is opened; a file replaced on disk gets a
 * map_files path of its own and so never shares with the new one.
 */
struct dso *files_get(struct files *f, const char *path, const char *elf_path,
		      uint64_t ino, const uint8_t *build_id,
		      size_t build_id_size)
{
	const struct debug_file *dbg;
	struct dso *d;
	size_t i;

	for (i = 0; i < f->n; i++) {
		d = f->dso[i];
		if (strcmp(dso_name(d), path) == 0 &&
		    (!ino || !dso_inode(d) || dso_inode(d) == ino) &&
		    (elf_path == NULL) == (dso_elf_path(d) == NULL) &&
		    (!elf_path || strcmp(elf_path, dso_elf_path(d)) == 0))
			return d;
	}
	dbg = elf_path ? NULL : debug_for(f, path);
	if (dbg) {
		/* -d: read the debug file, checked against the binary's id */
		d = dso_new(path, dbg->path, f->flags, f->cache_entries,
			    dbg->idlen > 0 ? dbg->id : NULL,
			    dbg->idlen > 0 ? (size_t)dbg->idlen : 0);
	} else {
		d = dso_new(path, elf_path, f->flags, f->cache_entries,
			    build_id, build_id_size);
	}
	if (!d)
		return NULL;
	if (!elf_path)
		dso_set_inode(d, ino);
	if (files_add(f, d) != 0) {
		dso_free(d);
		return NULL;
	}
	return d;
}

struct dso *files_vdso(struct files *f)
{
	const Elf64_Ehdr *eh;
	size_t size;

	if (f->vdso_tried)
		return f->vdso;
	f->vdso_tried = true;
	eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* Section headers come last in the image. */
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size < sizeof(*eh) || size > (1 << 20))
		return NULL;
	f->vdso = dso_new_memory("[vdso]", eh, size, f->flags,
				 f->cache_entries);
	if (f->vdso && files_add(f, f->vdso) != 0) {
		dso_free(f->vdso);
		f->vdso = NULL;
	}
	if (f->vdso)
		dso_get(f->vdso);	/* the registry's own reference */
	return f->vdso;
}

int files_set_debug_file(struct files *f, const char *binary,
			 const char *debug_file)
{
	struct debug_file *df;
	struct stat st;
	int fd;

	if (stat(binary, &st) != 0)
		return -1;
	fd = regular_file_open(debug_file, 0, NULL);
	if (fd < 0)
		return -1;
	close(fd);
	if (ARRAY_GROW(f->dbg, f->ndbg + 1, f->adbg) != 0)
		return -1;
	df = &f->dbg[f->ndbg];
	memset(df, 0, sizeof(*df));
	df->dev = st.st_dev;
	df->ino = st.st_ino;
	df->path = strdup(debug_file);
	if (!df->path)
		return -1;
	df->idlen = dso_read_build_id(binary, df->id, sizeof(df->id));
	f->ndbg++;
	return 0;
}

static void files_drop(struct files *f, bool all)
{
	size_t i, j;

	for (i = j = 0; i < f->n; i++) {
		if (all || dso_refs(f->dso[i]) == 0)
			dso_free(f->dso[i]);
		else
			f->dso[j++] = f->dso[i];
	}
	f->n = j;
}

void files_gc(struct files *f)
{
	files_drop(f, false);
}

void files_release(struct files *f)
{
	size_t i;

	files_drop(f, true);
	free(f->dso);
	for (i = 0; i < f->ndbg; i++)
		free(f->dbg[i].path);
	free(f->dbg);
	files_init(f, f->flags, f->cache_entries);
}

void files_stats(const struct files *f, struct symbols_stats *st)
{
	size_t i;

	st->files_open += (unsigned)f->n;
	for (i = 0; i < f->n; i++) {
		uint64_t l, h;
		size_t b;

		dso_cache_stats(f->dso[i], &l, &h, &b);
		st->cache_hits += h;
		st->cache_bytes += b;
		st->files_loaded += l > 0;
	}
}
