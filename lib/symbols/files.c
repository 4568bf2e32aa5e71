/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* files.c - the session's file registry: shared by path and inode, freed
   when no mapping holds them; the vDSO and the -d debug files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
	if (ARRAY_GROW(f->dso, f->n + 1, f->alloc) != 0 ||
	    ARRAY_GROW(f->idle, f->n + 1, f->ialloc) != 0)
		return -1;
	f->idle[f->n] = 0;
	f->dso[f->n++] = d;
	return 0;
}

/*
 * Whether d is the file asked for: the same name, inode and way to open
 * it; a file read through one process's map_files stands for the same
 * inode of any other (their map_files paths differ, the file does not).
 */
static bool files_same(struct dso *d, const char *path, const char *elf_path,
		       uint64_t ino)
{
	const char *de = dso_elf_path(d);

	if (strcmp(dso_name(d), path) != 0)
		return false;
	if (ino && dso_inode(d) && dso_inode(d) != ino)
		return false;
	if ((elf_path == NULL) != (de == NULL))
		return false;
	if (!elf_path || strcmp(elf_path, de) == 0)
		return true;
	return ino && dso_inode(d) == ino && *elf_path && *de;
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
		if (files_same(f->dso[i], path, elf_path, ino)) {
			f->idle[i] = 0;		/* wanted again */
			return f->dso[i];
		}
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
	dso_set_inode(d, ino);
	if (files_add(f, d) != 0) {
		dso_free(d);
		return NULL;
	}
	return d;
}

struct dso *files_find_seen(struct files *f, const char *path)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (dso_elf_path(f->dso[i]) &&
		    strcmp(dso_name(f->dso[i]), path) == 0) {
			f->idle[i] = 0;
			return f->dso[i];
		}
	return NULL;
}

struct dso *files_get_seen(struct files *f, const char *path)
{
	struct dso *d = files_find_seen(f, path);

	return d ? d : files_get(f, path, NULL, 0, NULL, 0);
}

int files_seen_root(struct files *f, const char *path, char *buf,
		    size_t size)
{
	const struct dso *d = files_find_seen(f, path);
	const char *e = d ? dso_elf_path(d) : NULL, *c;

	buf[0] = '\0';
	/* the first ".../PID/root/" or ".../PID/map_files/" */
	for (c = e ? strchr(e, '/') : NULL; c; c = strchr(c + 1, '/')) {
		size_t digits = strspn(c + 1, "0123456789");
		const char *rest = c + 1 + digits;

		if (!digits || (strncmp(rest, "/root/", 6) != 0 &&
				strncmp(rest, "/map_files/", 11) != 0))
			continue;
		if ((size_t)snprintf(buf, size, "%.*s/root", (int)(rest - e),
				     e) < size)
			return 0;
		buf[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

struct dso *files_find(struct files *f, const char *path, uint64_t ino)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!dso_elf_path(f->dso[i]) && dso_inode(f->dso[i]) == ino &&
		    strcmp(dso_name(f->dso[i]), path) == 0) {
			f->idle[i] = 0;
			return f->dso[i];
		}
	return NULL;
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

/* Free every file (all), or those marked to go (idle == UINT64_MAX). */
static void files_drop(struct files *f, bool all)
{
	size_t i, j;

	for (i = j = 0; i < f->n; i++) {
		if (all || f->idle[i] == UINT64_MAX) {
			dso_free(f->dso[i]);
			continue;
		}
		f->idle[j] = f->idle[i];
		f->dso[j++] = f->dso[i];
	}
	f->n = j;
}

/* Newest idle first. */
static int cmp_idle(const void *a, const void *b, void *arg)
{
	const uint64_t *idle = arg;
	uint64_t x = idle[*(const size_t *)a], y = idle[*(const size_t *)b];

	return (x < y) - (x > y);
}

void files_gc(struct files *f)
{
	size_t i, n = 0, *idx;

	f->gcs++;
	for (i = 0; i < f->n; i++) {
		if (dso_refs(f->dso[i]) != 0)
			f->idle[i] = 0;
		else if (!f->idle[i])
			f->idle[i] = f->gcs;
		n += f->idle[i] != 0;
	}
	if (n <= FILES_KEEP)
		return;
	/* the idle files, newest first: all but the first FILES_KEEP go
	   (without memory to choose, every idle file goes) */
	idx = malloc(n * sizeof(*idx));
	for (i = 0, n = 0; idx && i < f->n; i++)
		if (f->idle[i])
			idx[n++] = i;
	if (idx)
		qsort_r(idx, n, sizeof(*idx), cmp_idle, f->idle);
	for (i = 0; i < f->n && !idx; i++)
		if (f->idle[i])
			f->idle[i] = UINT64_MAX;
	for (i = FILES_KEEP; idx && i < n; i++)
		f->idle[idx[i]] = UINT64_MAX;
	free(idx);
	files_drop(f, false);
}

void files_release(struct files *f)
{
	size_t i;

	files_drop(f, true);
	free(f->dso);
	free(f->idle);
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
