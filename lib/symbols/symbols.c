/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbols.c - the session: the files its processes share, the kernel's
 * table, and resolving an address to function, file and line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "symbols/symbols-internal.h"

/* --- the session --------------------------------------------------------- */

struct symbols *symbols_new(const struct symbols_opts *opts)
{
	struct symbols *s;
	size_t i;

	if (opts && opts->sz < offsetof(struct symbols_opts, cache_entries)) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (opts)
		memcpy(&s->opts, opts, opts->sz < sizeof(s->opts) ?
					       opts->sz : sizeof(s->opts));
	s->opts.sz = sizeof(s->opts);
	s->proc_root = strdup(s->opts.proc ? s->opts.proc : "/proc");
	s->jit_dir = strdup(s->opts.jit_dir ? s->opts.jit_dir : "/tmp");
	s->opts.kallsyms = NULL;	/* do not keep the caller's pointer */
	s->ks_cause = SYM_OK;
	if (opts && opts->kallsyms) {
		s->opts.kallsyms = strdup(opts->kallsyms);
		if (!s->opts.kallsyms)
			goto fail;
	}
	s->opts.proc = s->opts.jit_dir = NULL;
	if (!s->proc_root || !s->jit_dir)
		goto fail;
	if (ARRAY_GROW(s->unres, UNRES_FIXED, s->aunres) != 0)
		goto fail;
	memset(s->unres, 0, UNRES_FIXED * sizeof(*s->unres));
	for (i = 0; i < UNRES_FIXED; i++) {
		s->unres[i].name = strdup(unres_fixed_names[i]);
		if (!s->unres[i].name)
			goto fail;
		s->nunres++;
	}
	return s;
fail:
	symbols_free(s);
	errno = ENOMEM;
	return NULL;
}

/* Free every file no mapping holds any more. */
static void symbols_drop_files(struct symbols *s, bool all)
{
	size_t i, j;

	for (i = j = 0; i < s->ndso; i++) {
		if (all || dso_refs(s->dso[i]) == 0)
			dso_free(s->dso[i]);
		else
			s->dso[j++] = s->dso[i];
	}
	s->ndso = j;
}

void symbols_free(struct symbols *s)
{
	struct sym_proc *p, *next;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < PROC_BUCKETS; i++)
		for (p = s->proc[i]; p; p = next) {
			next = p->next;
			proc_free(p);
		}
	symbols_drop_files(s, true);
	free(s->dso);
	kallsyms_free(s->ks);
	for (i = 0; i < s->ndbg; i++)
		free(s->dbg[i].path);
	free(s->dbg);
	for (i = 0; i < s->nunres; i++)
		free(s->unres[i].name);
	free(s->unres);
	free((char *)s->opts.kallsyms);
	free(s->proc_root);
	free(s->jit_dir);
	free(s);
}

/* --- files ------------------------------------------------------------------ */

static int symbols_add_dso(struct symbols *s, struct dso *d)
{
	if (ARRAY_GROW(s->dso, s->ndso + 1, s->adso) != 0)
		return -1;
	s->dso[s->ndso++] = d;
	return 0;
}

static const struct debug_file *debug_for(const struct symbols *s,
					  const char *path)
{
	struct stat st;
	size_t i;

	if (!s->ndbg || stat(path, &st) != 0)
		return NULL;
	for (i = 0; i < s->ndbg; i++)
		if (s->dbg[i].dev == st.st_dev && s->dbg[i].ino == st.st_ino)
			return &s->dbg[i];
	return NULL;
}

/*
 * The shared file for (path, elf_path), created on first use.  Identity
 * is the path that is opened; a file replaced on disk gets a map_files
 * path of its own and so never shares with the new one.
 */
struct dso *symbols_file(struct symbols *s, const char *path,
			 const char *elf_path, uint64_t ino,
			 const uint8_t *build_id, size_t build_id_size)
{
	const struct debug_file *dbg;
	struct dso *d;
	size_t i;

	for (i = 0; i < s->ndso; i++) {
		d = s->dso[i];
		if (strcmp(dso_name(d), path) == 0 &&
		    (!ino || !dso_inode(d) || dso_inode(d) == ino) &&
		    (elf_path == NULL) == (dso_elf_path(d) == NULL) &&
		    (!elf_path || strcmp(elf_path, dso_elf_path(d)) == 0))
			return d;
	}
	dbg = elf_path ? NULL : debug_for(s, path);
	if (dbg) {
		/* -d: read the debug file, checked against the binary's id */
		d = dso_new(path, dbg->path, s->opts.flags,
			    s->opts.cache_entries,
			    dbg->idlen > 0 ? dbg->id : NULL,
			    dbg->idlen > 0 ? (size_t)dbg->idlen : 0);
	} else {
		d = dso_new(path, elf_path, s->opts.flags,
			    s->opts.cache_entries, build_id, build_id_size);
	}
	if (!d)
		return NULL;
	if (!elf_path)
		dso_set_inode(d, ino);
	if (symbols_add_dso(s, d) != 0) {
		dso_free(d);
		return NULL;
	}
	return d;
}

/* The vDSO image of our own process: same kernel, same image. */
struct dso *symbols_vdso(struct symbols *s)
{
	const Elf64_Ehdr *eh;
	size_t size;

	if (s->vdso_tried)
		return s->vdso;
	s->vdso_tried = true;
	eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* Section headers come last in the image. */
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size < sizeof(*eh) || size > (1 << 20))
		return NULL;
	s->vdso = dso_new_memory("[vdso]", eh, size, s->opts.flags,
				 s->opts.cache_entries);
	if (s->vdso && symbols_add_dso(s, s->vdso) != 0) {
		dso_free(s->vdso);
		s->vdso = NULL;
	}
	if (s->vdso)
		dso_get(s->vdso);	/* the session's own reference */
	return s->vdso;
}

int symbols_set_debug_file(struct symbols *s, const char *binary,
			   const char *debug_file)
{
	struct debug_file *df;
	struct stat st;
	int fd;

	if (stat(binary, &st) != 0)
		return -1;
	fd = open(debug_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	close(fd);
	if (ARRAY_GROW(s->dbg, s->ndbg + 1, s->adbg) != 0)
		return -1;
	df = &s->dbg[s->ndbg];
	memset(df, 0, sizeof(*df));
	df->dev = st.st_dev;
	df->ino = st.st_ino;
	df->path = strdup(debug_file);
	if (!df->path)
		return -1;
	df->idlen = dso_read_build_id(binary, df->id, sizeof(df->id));
	s->ndbg++;
	return 0;
}

void symbols_gc(struct symbols *s)
{
	struct sym_proc **pp, *p;
	size_t i;

	for (i = 0; i < PROC_BUCKETS; i++) {
		for (pp = &s->proc[i]; (p = *pp);) {
			if (!p->dead) {
				pp = &p->next;
				continue;
			}
			*pp = p->next;
			proc_free(p);
			s->nproc--;
		}
	}
	s->last_proc = NULL;
	symbols_drop_files(s, false);
}

/* --- resolving ----------------------------------------------------------------- */

static int resolve_kernel(struct symbols *s, uint64_t ip,
			  struct sym_result *out)
{
	const char *module = NULL;

	out->kernel = true;
	out->dso = "[kernel]";
	if (!s->ks_tried) {
		s->ks_tried = true;
		s->ks = kallsyms_load(s->opts.kallsyms ? s->opts.kallsyms
						       : "/proc/kallsyms");
		if (!s->ks)
			s->ks_cause = SYM_NO_KALLSYMS;
		else if (kallsyms_hidden(s->ks))
			s->ks_cause = SYM_KPTR_RESTRICT;
	}
	if (s->ks_cause != SYM_OK) {
		out->cause = s->ks_cause;
	} else {
		out->sym = kallsyms_lookup(s->ks, ip, &out->off, &module);
		out->cause = out->sym ? SYM_OK : SYM_NO_SYMBOL;
		out->dso = module ? module : "[kernel.kallsyms]";
	}
	if (out->cause != SYM_OK) {
		unres_count(s, NULL, UNRES_KERNEL, out->cause);
		return -1;
	}
	return 0;
}

static int resolve_jit(struct symbols *s, struct sym_proc *p, uint64_t ip,
		       struct sym_result *out)
{
	char path[4096];

	out->dso = "[jit]";
	if (!p->jit) {
		snprintf(path, sizeof(path), "%s/perf-%d.map", s->jit_dir,
			 (int)p->pid);
		p->jit = jitmap_new(path);
	}
	if (p->jit)
		out->sym = jitmap_lookup(p->jit, ip, &out->off);
	if (out->sym)
		return 0;
	out->cause = SYM_JIT_NO_MAP;
	unres_count(s, NULL, UNRES_JIT, out->cause);
	return -1;
}

/*
 * The process pid (made on first sight) and its mapping that holds ip,
 * or NULL.  A miss on a live process: it may have mapped code we were
 * not told of (no MMAP2 records on the legacy backend).  Read its maps
 * again, backing off exponentially so a stray address cannot make every
 * lookup read /proc.
 */
static const struct map *proc_map_at(struct symbols *s, pid_t pid,
				     uint64_t ip, struct sym_proc **pp)
{
	const struct map *mp;
	struct sym_proc *p;

	p = proc_find(s, pid);
	if (!p && !(p = proc_new(s, pid))) {
		*pp = NULL;
		return NULL;
	}
	*pp = p;
	mp = maps_find(&p->maps, ip);
	if (!mp && !p->dead && !(s->opts.flags & SYMBOLS_NO_PROC) &&
	    ++p->misses >= p->next_reread) {
		p->misses = 0;
		if (p->next_reread < REREAD_MAX)
			p->next_reread *= 2;
		if (proc_read_maps(s, p) == 0)
			mp = maps_find(&p->maps, ip);
	}
	return mp;
}

int symbols_resolve(struct symbols *s, pid_t pid, uint64_t ip, bool kernel,
		    struct sym_result *out)
{
	const struct map *mp;
	struct sym_proc *p;
	uint64_t vaddr;
	int ret;

	memset(out, 0, sizeof(*out));
	s->lookups++;
	if (kernel)
		return resolve_kernel(s, ip, out);

	mp = proc_map_at(s, pid, ip, &p);
	if (!p) {
		out->dso = "[unknown]";
		out->cause = SYM_NO_MAP;
		return -1;
	}
	if (!mp || mp->kind == MAPK_ANON) {
		ret = resolve_jit(s, p, ip, out);
		if (ret != 0 && !mp) {
			/* no mapping at all: not a JIT's fault */
			s->unres[UNRES_JIT].count[SYM_JIT_NO_MAP]--;
			out->dso = "[unknown]";
			out->cause = SYM_NO_MAP;
			unres_count(s, NULL, UNRES_UNKNOWN, SYM_NO_MAP);
		}
		return ret;
	}

	if (!mp->dso) {
		/* a vDSO we have no image of (our own process has none, as
		   under valgrind) */
		out->dso = "[vdso]";
		out->dso_off = ip - mp->start;
		out->cause = SYM_NO_FILE;
		unres_count(s, NULL, UNRES_UNKNOWN, out->cause);
		return -1;
	}
	out->dso = dso_name(mp->dso);
	if (dso_load(mp->dso) != 0) {
		out->cause = dso_cause(mp->dso);
		out->dso_off = ip - mp->start + mp->pgoff;
		unres_count(s, mp->dso, 0, out->cause);
		return -1;
	}
	if (dso_offset_to_vaddr(mp->dso, ip - mp->start + mp->pgoff,
				&vaddr) != 0)
		vaddr = ip - mp->start + mp->pgoff;
	out->dso_off = vaddr;
	ret = dso_lookup(mp->dso, vaddr, out);
	if (out->cause != SYM_OK)
		unres_count(s, mp->dso, 0, out->cause);
	return ret;
}

int symbols_map_lookup(struct symbols *s, pid_t pid, uint64_t addr,
		       struct sym_map *out)
{
	const struct map *mp;
	struct sym_proc *p;
	uint64_t vaddr;

	memset(out, 0, sizeof(*out));
	mp = proc_map_at(s, pid, addr, &p);
	if (!mp) {
		errno = p ? ENOENT : ENOMEM;
		return -1;
	}
	out->start = mp->start;
	out->end = mp->end;
	out->pgoff = mp->pgoff;
	if (mp->kind == MAPK_ANON) {
		out->name = "[jit]";
		out->cause = SYM_JIT_NO_MAP;
		return 0;
	}
	if (!mp->dso) {
		out->name = "[vdso]";
		out->cause = SYM_NO_FILE;
		return 0;
	}
	out->name = dso_name(mp->dso);
	out->ino = dso_inode(mp->dso);
	if (dso_load(mp->dso) != 0) {
		out->cause = dso_cause(mp->dso);
		return 0;
	}
	out->image = dso_image(mp->dso, &out->image_size);
	if (!out->image)
		out->elf_path = dso_elf_path(mp->dso) ? dso_elf_path(mp->dso)
						      : out->name;
	if (dso_offset_to_vaddr(mp->dso, mp->pgoff, &vaddr) == 0)
		out->bias = mp->start - vaddr;
	else
		out->bias = mp->start - mp->pgoff;
	return 0;
}

int symbols_resolve_file(struct symbols *s, const char *path, uint64_t addr,
			 struct sym_result *out)
{
	struct dso *d;
	int ret;

	memset(out, 0, sizeof(*out));
	s->lookups++;
	d = symbols_file(s, path, NULL, 0, NULL, 0);
	if (!d)
		return -1;
	if (dso_refs(d) == 0)
		dso_get(d);	/* held by the session until symbols_free */
	out->dso = dso_name(d);
	out->dso_off = addr;
	ret = dso_lookup(d, addr, out);
	if (out->cause != SYM_OK)
		unres_count(s, d, 0, out->cause);
	return ret;
}

int symbols_build_id(struct symbols *s, const char *dso, uint8_t *id,
		     size_t size)
{
	const uint8_t *b;
	size_t i, len;

	for (i = 0; i < s->ndso; i++) {
		if (strcmp(dso_name(s->dso[i]), dso) != 0)
			continue;
		b = dso_build_id(s->dso[i], &len);
		if (!b)
			return 0;
		len = len < size ? len : size;
		memcpy(id, b, len);
		return (int)len;
	}
	if (dso[0] != '/')
		return 0;
	return dso_read_build_id(dso, id, size);
}

void symbols_stats(const struct symbols *s, struct symbols_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	st->lookups = s->lookups;
	st->files_open = (unsigned)s->ndso;
	st->processes = s->nproc;
	for (i = 0; i < s->ndso; i++) {
		uint64_t l, h;
		size_t b;

		dso_cache_stats(s->dso[i], &l, &h, &b);
		st->cache_hits += h;
		st->cache_bytes += b;
		st->files_loaded += l > 0;
	}
}
