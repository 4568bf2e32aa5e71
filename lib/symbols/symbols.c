/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbols.c - the session: its files (files.c), processes (proc.c) and
 * the kernel's table, and resolving an address to function, file and line.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/optsz.h"
#include "symbols/source.h"
#include "symbols/symbols-internal.h"

/* --- the session --------------------------------------------------------- */

struct symbols *symbols_new(const struct symbols_opts *opts)
{
	const char *kallsyms;
	struct symbols *s;

	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (optsz_copy(&s->opts, sizeof(s->opts), opts) != 0) {
		free(s);
		return NULL;
	}
	s->proc_root = strdup(s->opts.proc ? s->opts.proc : "/proc");
	s->jit_dir = strdup(s->opts.jit_dir ? s->opts.jit_dir : "/tmp");
	kallsyms = s->opts.kallsyms;
	s->opts.kallsyms = NULL;	/* do not keep the caller's pointer */
	s->ks_cause = SYM_OK;
	files_init(&s->files, s->opts.flags, s->opts.cache_entries);
	proc_init(&s->procs, &s->files, s->proc_root, s->opts.flags);
	if (kallsyms) {
		s->opts.kallsyms = strdup(kallsyms);
		if (!s->opts.kallsyms)
			goto fail;
	}
	s->opts.proc = s->opts.jit_dir = NULL;
	if (!s->proc_root || !s->jit_dir || unres_init(s) != 0)
		goto fail;
	return s;
fail:
	symbols_free(s);
	errno = ENOMEM;
	return NULL;
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	proc_free_all(&s->procs);	/* drops the files' references */
	files_release(&s->files);
	kallsyms_free(s->ks);
	unres_release(s);
	free((char *)s->opts.kallsyms);
	free(s->proc_root);
	free(s->jit_dir);
	free(s);
}

int symbols_set_debug_file(struct symbols *s, const char *binary,
			   const char *debug_file)
{
	return files_set_debug_file(&s->files, binary, debug_file);
}

void symbols_gc(struct symbols *s)
{
	proc_gc(&s->procs);
	files_gc(&s->files);
}

/* --- processes ----------------------------------------------------------- */

int symbols_read_maps(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = proc_get(&s->procs, pid);

	return p ? proc_read_maps(&s->procs, p) : -1;
}

int symbols_mmap(struct symbols *s, pid_t pid, const struct sym_mapping *m)
{
	struct sym_proc *p = proc_get(&s->procs, pid);

	return p ? proc_mmap(&s->procs, p, m) : -1;
}

int symbols_fork(struct symbols *s, pid_t pid, pid_t ppid)
{
	return proc_fork(&s->procs, pid, ppid);
}

int symbols_exec(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = proc_get(&s->procs, pid);

	if (!p)
		return -1;
	proc_exec(p);
	return 0;
}

const char *symbols_program(struct symbols *s, pid_t pid)
{
	return proc_program(&s->procs, pid);
}

void symbols_exit(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = proc_find(&s->procs, pid);

	if (p)
		proc_exit(p);
}

/* --- resolving ----------------------------------------------------------------- */

int symbols_load_kernel(struct symbols *s)
{
	if (!s->ks_tried) {
		s->ks_tried = true;
		s->ks_cause = SYM_OK;
		s->ks = kallsyms_load_until(s->opts.kallsyms ?
					    s->opts.kallsyms : "/proc/kallsyms",
					    s->opts.stop);
		if (!s->ks && (errno == EMFILE || errno == ENFILE)) {
			s->ks_cause = SYM_NO_FD;
			s->ks_tried = false;	/* again at the next lookup */
		} else if (!s->ks && errno == EINTR) {
			s->ks_cause = SYM_NO_KALLSYMS;
			s->ks_tried = false;
		} else if (!s->ks && errno == ENOMEM) {
			s->ks_cause = SYM_NO_MEMORY;
			s->ks_tried = false;
		} else if (!s->ks)
			s->ks_cause = SYM_NO_KALLSYMS;
		else if (kallsyms_hidden(s->ks))
			s->ks_cause = SYM_KPTR_RESTRICT;
	}
	return s->ks_cause == SYM_OK ? 0 : -1;
}

static int resolve_kernel(struct symbols *s, uint64_t ip,
			  struct sym_result *out)
{
	const char *module = NULL;

	out->kernel = true;
	out->dso = "[kernel]";
	symbols_load_kernel(s);
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

/* The user whose perf-PID.map pid may trust, besides root: the owner of
   /proc/PID (the process's effective user), else ours. */
static uid_t jit_owner(const struct symbols *s, pid_t pid)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%d", s->proc_root, (int)pid);
	if (stat(path, &st) == 0)
		return st.st_uid;
	return geteuid();
}

/* A function of a JIT's perf-PID.map: 0, or -1 with out->cause.  The
   caller counts what stays unresolved. */
static int resolve_jit(struct symbols *s, struct sym_proc *p, uint64_t ip,
		       struct sym_result *out)
{
	char path[4096];

	out->dso = "[jit]";
	out->cause = SYM_JIT_NO_MAP;
	if (!p->jit) {
		/* as perf: the JIT names the map by its pid in its own pid
		   namespace, in the /tmp of its own mount namespace */
		char dir[4096];

		snprintf(path, sizeof(path), "%s/perf-%d.map",
			 proc_path(&s->procs, p, s->jit_dir, dir, sizeof(dir)),
			 proc_ns_tgid(&s->procs, p));
		p->jit = jitmap_new(path, jit_owner(s, p->pid));
	}
	if (p->jit)
		out->sym = jitmap_lookup(p->jit, ip, &out->off, &out->cause,
					 s->jit_bounded ? &s->jit_budget : NULL);
	if (out->sym) {
		out->cause = SYM_OK;
		return 0;
	}
	return -1;
}

void symbols_jit_budget(struct symbols *s, double ms)
{
	s->jit_bounded = ms >= 0;
	s->jit_budget = ms;
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

	p = proc_get(&s->procs, pid);
	if (!p) {
		out->dso = "[unknown]";
		out->cause = SYM_NO_MAP;
		return -1;
	}
	mp = proc_map_of(&s->procs, p, ip);
	if (!mp || mp->kind == MAPK_ANON) {
		ret = resolve_jit(s, p, ip, out);
		if (ret != 0 && !mp) {
			/* no mapping at all: not a JIT's fault */
			out->dso = "[unknown]";
			out->cause = SYM_NO_MAP;
			unres_count(s, NULL, UNRES_UNKNOWN, SYM_NO_MAP);
		} else if (ret != 0) {
			unres_count(s, NULL, UNRES_JIT, out->cause);
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
	p = proc_get(&s->procs, pid);
	if (!p)
		return -1;
	mp = proc_map_of(&s->procs, p, addr);
	if (!mp) {
		errno = ENOENT;
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
	d = files_get_seen(&s->files, path);	/* as symbols_code_file() */
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

int symbols_see_as(struct symbols *s, struct symbols *from,
		   const char *path)
{
	const struct dso *seen = files_find_seen(&from->files, path);
	struct dso *d;

	/* "": no way into the process was left; read the file here */
	if (!seen || !dso_elf_path(seen)[0])
		return 0;
	d = files_get(&s->files, path, dso_elf_path(seen), dso_inode(seen),
		      NULL, 0);
	if (!d)
		return -1;
	if (dso_refs(d) == 0)
		dso_get(d);	/* held by the session until symbols_free */
	return 0;
}

int symbols_source_lines(struct symbols *s, const char *dso,
			 const char *file, const int *want, size_t n,
			 char **text)
{
	char root[4096], at[8192];

	/* the target's own source first, then the one at that path here */
	if (file[0] == '/' &&
	    files_seen_root(&s->files, dso, root, sizeof(root)) == 0 &&
	    root[0] &&
	    (size_t)snprintf(at, sizeof(at), "%s%s", root, file) < sizeof(at) &&
	    source_lines(at, want, n, text) == 0)
		return 0;
	return source_lines(file, want, n, text);
}

enum sym_cause symbols_check_debug_file(struct symbols *s, const char *binary,
				       const char *debug_file)
{
	uint8_t want[64], got[64];
	enum sym_cause cause;
	struct stat st;
	struct dso *d;
	int nwant, ngot;

	if (stat(debug_file, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? SYM_NO_FILE
							  : SYM_PERMISSION;
	if (S_ISDIR(st.st_mode))
		return SYM_NO_FILE;
	/* the loader every lookup uses says whether it is a usable ELF */
	d = files_get(&s->files, debug_file, NULL, 0, NULL, 0);
	if (!d)
		return SYM_BAD_ELF;
	if (dso_refs(d) == 0)
		dso_get(d);	/* held by the session until symbols_free */
	cause = dso_load(d) == 0 ? SYM_OK : dso_cause(d);
	if (cause != SYM_OK && cause != SYM_STRIPPED)
		return cause;
	nwant = dso_read_build_id(binary, want, sizeof(want));
	ngot = dso_read_build_id(debug_file, got, sizeof(got));
	if (nwant > 0 && ngot > 0 &&
	    (nwant != ngot || memcmp(want, got, (size_t)ngot) != 0))
		return SYM_BUILD_ID_MISMATCH;
	return SYM_OK;
}

int symbols_build_id(struct symbols *s, const char *dso, uint8_t *id,
		     size_t size)
{
	const uint8_t *b;
	size_t i, len;

	for (i = 0; i < s->files.n; i++) {
		if (strcmp(dso_name(s->files.dso[i]), dso) != 0)
			continue;
		b = dso_build_id(s->files.dso[i], &len);
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

int symbols_is_program(struct symbols *s, const char *dso)
{
	size_t i;

	for (i = 0; s && i < s->files.n; i++)
		if (strcmp(dso_name(s->files.dso[i]), dso) == 0 &&
		    dso_elf_path(s->files.dso[i]))
			return dso_read_is_program(
				dso_elf_path(s->files.dso[i]));
	if (dso[0] != '/')
		return 0;
	return dso_read_is_program(dso);
}

void symbols_stats(const struct symbols *s, struct symbols_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->lookups = s->lookups;
	st->processes = (unsigned)proc_count(&s->procs);
	files_stats(&s->files, st);
}
