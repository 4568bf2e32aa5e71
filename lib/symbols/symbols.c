/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbols.c - the session: processes and their mappings, the files they
 * share, the kernel's table, and the count of what could not be resolved.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <elf.h>

#include "symbols/dso.h"
#include "symbols/jitmap.h"
#include "symbols/kallsyms.h"
#include "symbols/maps.h"
#include "symbols/symbols.h"

#define PROC_BUCKETS 1024
/* Misses between re-reads of /proc/PID/maps grow to at most this. */
#define REREAD_MAX 4096

struct sym_proc {
	pid_t pid;
	bool dead;
	bool maps_read;		/* /proc/PID/maps read at least once */
	unsigned misses, next_reread;	/* back-off for re-reading maps */
	struct maps maps;
	struct jitmap *jit;
	struct sym_proc *next;	/* hash chain */
};

struct unres {
	char *name;
	uint64_t count[SYM_CAUSE_MAX];
};

/* Fixed rows of the unresolved table for what is not a file. */
enum { UNRES_UNKNOWN, UNRES_KERNEL, UNRES_JIT, UNRES_FIXED };
static const char *const unres_fixed_names[UNRES_FIXED] = {
	[UNRES_UNKNOWN] = "[unknown]",
	[UNRES_KERNEL] = "[kernel]",
	[UNRES_JIT] = "[jit]",
};

struct debug_file {
	dev_t dev;
	ino_t ino;
	char *path;
	uint8_t id[64];
	int idlen;
};

struct symbols {
	struct symbols_opts opts;
	char *proc_root, *jit_dir;

	struct kallsyms *ks;
	bool ks_tried;
	enum sym_cause ks_cause;

	struct dso **dso;		/* every file the session knows */
	size_t ndso, adso;
	struct dso *vdso;
	bool vdso_tried;

	struct sym_proc *proc[PROC_BUCKETS];
	struct sym_proc *last_proc;
	unsigned nproc;

	struct debug_file *dbg;
	size_t ndbg;

	struct unres *unres;
	size_t nunres, aunres;

	uint64_t lookups;
};

/* --- causes: one table, walked by tests -------------------------------- */

static const struct {
	const char *name, *advice;
} causes[SYM_CAUSE_MAX] = {
	[SYM_OK] = { "ok", "resolved" },
	[SYM_NO_MAP] = { "no mapping",
		"the address lies in no mapping known for the process "
		"(it unmapped the code, or exited before its maps were read)" },
	[SYM_NO_SYMBOL] = { "no symbol",
		"no symbol of the file covers the address (code between "
		"functions, or a local symbol stripped from .symtab)" },
	[SYM_STRIPPED] = { "stripped",
		"the file has no .symtab: install its debug package "
		"(-dbgsym), set DEBUGINFOD_URLS, or pass an unstripped copy "
		"with -d" },
	[SYM_NO_DEBUGINFO] = { "no debuginfo",
		"no DWARF for file:line: rebuild with -g, install the "
		"-dbgsym package, or set DEBUGINFOD_URLS" },
	[SYM_BUILD_ID_MISMATCH] = { "build-id mismatch",
		"the debug file is not from the same build as the binary "
		"that ran: give the matching one" },
	[SYM_JIT_NO_MAP] = { "JIT without map",
		"anonymous executable memory: make the JIT write "
		"/tmp/perf-PID.map (e.g. node --perf-basic-prof, "
		"java -XX:+DumpPerfMapAtExit)" },
	[SYM_PERMISSION] = { "permission",
		"the file is not readable: run as its owner or as root" },
	[SYM_NO_FILE] = { "no file",
		"the mapped file does not exist (any more) at its path" },
	[SYM_DELETED] = { "deleted",
		"the binary was deleted after it was mapped, and "
		"/proc/PID/map_files was not readable: keep the file "
		"until sampling ends, or run as root" },
	[SYM_REPLACED] = { "replaced",
		"the path now holds another file than the one mapped "
		"(reinstalled or rebuilt): restart the program" },
	[SYM_BAD_ELF] = { "bad ELF",
		"not an ELF file, or truncated or corrupt" },
	[SYM_KPTR_RESTRICT] = { "kptr_restrict",
		"kernel addresses are hidden: sysctl kernel.kptr_restrict=0 "
		"(and run as root or with CAP_SYSLOG)" },
	[SYM_NO_KALLSYMS] = { "no kallsyms",
		"/proc/kallsyms cannot be read" },
};

const char *symbols_cause_name(enum sym_cause cause)
{
	if ((unsigned)cause >= SYM_CAUSE_MAX)
		return "?";
	return causes[cause].name;
}

const char *symbols_cause_advice(enum sym_cause cause)
{
	if ((unsigned)cause >= SYM_CAUSE_MAX)
		return "?";
	return causes[cause].advice;
}

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
	s->aunres = 16;
	s->unres = calloc(s->aunres, sizeof(*s->unres));
	if (!s->unres)
		goto fail;
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

static void proc_free(struct sym_proc *p)
{
	maps_release(&p->maps);
	jitmap_free(p->jit);
	free(p);
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

/* --- unresolved counts ----------------------------------------------------- */

/* The row of name, made on first use: a file freed by symbols_gc() and
   opened again keeps its row, so the table grows with distinct names only. */
static int unres_row(struct symbols *s, const char *name)
{
	struct unres *nu;
	size_t i;

	for (i = UNRES_FIXED; i < s->nunres; i++)
		if (strcmp(s->unres[i].name, name) == 0)
			return (int)i;

	if (s->nunres == s->aunres) {
		nu = realloc(s->unres, 2 * s->aunres * sizeof(*nu));
		if (!nu)
			return UNRES_UNKNOWN;
		s->unres = nu;
		s->aunres *= 2;
	}
	memset(&s->unres[s->nunres], 0, sizeof(*s->unres));
	s->unres[s->nunres].name = strdup(name);
	if (!s->unres[s->nunres].name)
		return UNRES_UNKNOWN;
	return (int)s->nunres++;
}

static void unres_count(struct symbols *s, struct dso *d, int fixed,
			enum sym_cause cause)
{
	int row = fixed;

	if (d) {
		/* tag is row + 1, so that 0 means "no row yet" */
		if (!dso_tag(d))
			dso_set_tag(d, unres_row(s, dso_name(d)) + 1);
		row = dso_tag(d) - 1;
	}
	s->unres[row].count[cause]++;
}

static int unres_cmp(const void *a, const void *b)
{
	const struct sym_unresolved *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->dso, y->dso);
}

size_t symbols_unresolved(const struct symbols *s, struct sym_unresolved *out,
			  size_t n)
{
	struct sym_unresolved *all;
	size_t i, c, total = 0;

	for (i = 0; i < s->nunres; i++)
		for (c = 1; c < SYM_CAUSE_MAX; c++)
			total += s->unres[i].count[c] != 0;
	if (!n || !total)
		return total;
	all = malloc(total * sizeof(*all));
	if (!all)
		return total;
	total = 0;
	for (i = 0; i < s->nunres; i++)
		for (c = 1; c < SYM_CAUSE_MAX; c++)
			if (s->unres[i].count[c])
				all[total++] = (struct sym_unresolved){
					s->unres[i].name, (enum sym_cause)c,
					s->unres[i].count[c] };
	qsort(all, total, sizeof(*all), unres_cmp);
	memcpy(out, all, (n < total ? n : total) * sizeof(*out));
	free(all);
	return total;
}

/* --- files ------------------------------------------------------------------ */

static int symbols_add_dso(struct symbols *s, struct dso *d)
{
	struct dso **nd;

	if (s->ndso == s->adso) {
		size_t a = s->adso ? 2 * s->adso : 64;

		nd = realloc(s->dso, a * sizeof(*nd));
		if (!nd)
			return -1;
		s->dso = nd;
		s->adso = a;
	}
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
static struct dso *symbols_file(struct symbols *s, const char *path,
				const char *elf_path,
				const uint8_t *build_id, size_t build_id_size)
{
	const struct debug_file *dbg;
	struct dso *d;
	size_t i;

	for (i = 0; i < s->ndso; i++) {
		d = s->dso[i];
		if (strcmp(dso_name(d), path) == 0 &&
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
	if (symbols_add_dso(s, d) != 0) {
		dso_free(d);
		return NULL;
	}
	return d;
}

/* The vDSO image of our own process: same kernel, same image. */
static struct dso *symbols_vdso(struct symbols *s)
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
	struct debug_file *nd, *df;
	struct stat st;
	int fd;

	if (stat(binary, &st) != 0)
		return -1;
	fd = open(debug_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	close(fd);
	nd = realloc(s->dbg, (s->ndbg + 1) * sizeof(*nd));
	if (!nd)
		return -1;
	s->dbg = nd;
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

/* --- processes ------------------------------------------------------------- */

static struct sym_proc *proc_find(struct symbols *s, pid_t pid)
{
	struct sym_proc *p;

	if (s->last_proc && s->last_proc->pid == pid)
		return s->last_proc;
	for (p = s->proc[(unsigned)pid % PROC_BUCKETS]; p; p = p->next)
		if (p->pid == pid)
			return s->last_proc = p;
	return NULL;
}

static struct sym_proc *proc_new(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = calloc(1, sizeof(*p));
	unsigned b = (unsigned)pid % PROC_BUCKETS;

	if (!p)
		return NULL;
	p->pid = pid;
	p->next_reread = 1;
	p->next = s->proc[b];
	s->proc[b] = p;
	s->nproc++;
	return s->last_proc = p;
}

/* pid is a new image (exec) or a new process (pid reuse): forget the old
   mappings, JIT map and re-read back-off. */
static void proc_reset(struct sym_proc *p)
{
	maps_release(&p->maps);
	jitmap_free(p->jit);
	p->jit = NULL;
	p->misses = 0;
	p->next_reread = 1;
	p->dead = false;
}

static bool ends_with(const char *s, const char *tail, size_t *stem)
{
	size_t n = strlen(s), t = strlen(tail);

	*stem = n;
	if (n < t || strcmp(s + n - t, tail) != 0)
		return false;
	*stem = n - t;
	return true;
}

/*
 * The file of a mapping, checked against what was mapped: a deleted or
 * replaced file is read through /proc/PID/map_files (the very inode the
 * process maps) when we may, and is otherwise unusable with that cause.
 */
static struct dso *proc_mapping_file(struct symbols *s, pid_t pid,
				     const struct sym_mapping *m)
{
	enum sym_cause bad = SYM_OK;
	char path[4096], mf[4096 + 64];
	struct stat st;
	struct dso *d;
	size_t stem;

	if (ends_with(m->path, " (deleted)", &stem)) {
		bad = SYM_DELETED;
	} else if (m->ino && stat(m->path, &st) == 0 && st.st_ino != m->ino) {
		bad = SYM_REPLACED;
	}
	if (stem >= sizeof(path))
		stem = sizeof(path) - 1;
	memcpy(path, m->path, stem);
	path[stem] = '\0';
	if (bad == SYM_OK)
		return symbols_file(s, path, NULL, m->build_id,
				    m->build_id_size);

	if ((size_t)snprintf(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64
			     "-%" PRIx64, s->proc_root, (int)pid, m->start,
			     m->start + m->len) < sizeof(mf) &&
	    !(s->opts.flags & SYMBOLS_NO_PROC) && access(mf, R_OK) == 0) {
		d = symbols_file(s, path, mf, m->build_id, m->build_id_size);
		/*
		 * Open it now: map_files/ vanishes with the process, which
		 * may exit before its first sample is resolved.
		 */
		if (d && dso_load(d) != 0 && dso_cause(d) == SYM_NO_FILE)
			dso_set_cause(d, bad);
		return d;
	}
	d = symbols_file(s, path, "", NULL, 0);
	if (d)
		dso_set_cause(d, bad);
	return d;
}

static enum map_kind mapping_kind(const char *path)
{
	if (strcmp(path, "[vdso]") == 0)
		return MAPK_VDSO;
	if (path[0] == '\0' || path[0] == '[' ||
	    strncmp(path, "//anon", 6) == 0)
		return MAPK_ANON;
	return MAPK_FILE;
}

static int proc_mmap(struct symbols *s, struct sym_proc *p,
		     const struct sym_mapping *m)
{
	struct map mp = { .start = m->start, .end = m->start + m->len,
			  .pgoff = m->pgoff };

	/* Only code is ever sampled; prot 0 is a plain MMAP (exec). */
	if (m->prot && !(m->prot & PROT_EXEC))
		return 0;
	if (m->len == 0 || mp.end < mp.start) {
		errno = EINVAL;
		return -1;
	}
	mp.kind = mapping_kind(m->path);
	if (mp.kind == MAPK_VDSO)
		mp.dso = symbols_vdso(s);
	else if (mp.kind == MAPK_FILE)
		mp.dso = proc_mapping_file(s, p->pid, m);
	if (mp.kind == MAPK_FILE && !mp.dso)
		return -1;
	if (mp.dso)
		dso_get(mp.dso);
	return maps_insert(&p->maps, &mp);
}

int symbols_parse_maps_line(char *line, struct sym_mapping *m)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perm[5] = "";
	int pos = 0;

	memset(m, 0, sizeof(*m));
	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end,
		   perm, &pgoff, &maj, &min, &ino, &pos) < 7 || end < start ||
	    strlen(perm) < 3) {
		errno = EINVAL;
		return -1;
	}
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (perm[0] == 'r' ? PROT_READ : 0) |
		  (perm[1] == 'w' ? PROT_WRITE : 0) |
		  (perm[2] == 'x' ? PROT_EXEC : 0);
	m->path = pos ? line + pos : line + strlen(line);
	return 0;
}

static int proc_read_maps(struct symbols *s, struct sym_proc *p)
{
	char path[4096], *line = NULL;
	struct sym_mapping m;
	size_t cap = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%d/maps", s->proc_root,
			     (int)p->pid) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			errno = ESRCH;
		return -1;
	}
	maps_release(&p->maps);
	p->maps_read = true;
	while (getline(&line, &cap, f) > 0) {
		if (symbols_parse_maps_line(line, &m) != 0 || !m.prot)
			continue;
		/* /proc lists every mapping: PROT_EXEC filters for us. */
		if (!(m.prot & PROT_EXEC))
			continue;
		proc_mmap(s, p, &m);
	}
	free(line);
	fclose(f);
	return 0;
}

int symbols_read_maps(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = proc_find(s, pid);

	if (!p && !(p = proc_new(s, pid)))
		return -1;
	return proc_read_maps(s, p);
}

int symbols_mmap(struct symbols *s, pid_t pid, const struct sym_mapping *m)
{
	struct sym_proc *p = proc_find(s, pid);

	if (!p && !(p = proc_new(s, pid)))
		return -1;
	return proc_mmap(s, p, m);
}

int symbols_fork(struct symbols *s, pid_t pid, pid_t ppid)
{
	struct sym_proc *parent = proc_find(s, ppid), *p;

	if (pid == ppid)
		return 0;	/* a new thread shares its mappings */
	p = proc_find(s, pid);
	if (p) {
		proc_reset(p);	/* pid reused: a new process */
	} else if (!(p = proc_new(s, pid))) {
		return -1;
	}
	if (parent)
		return maps_copy(&p->maps, &parent->maps);
	return 0;
}

int symbols_exec(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = proc_find(s, pid);

	if (!p && !(p = proc_new(s, pid)))
		return -1;
	proc_reset(p);
	/* The new image's mappings come next; do not read the old ones. */
	p->maps_read = true;
	return 0;
}

void symbols_exit(struct symbols *s, pid_t pid)
{
	struct sym_proc *p = proc_find(s, pid);

	if (p)
		p->dead = true;
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

	p = proc_find(s, pid);
	if (!p && !(p = proc_new(s, pid))) {
		out->dso = "[unknown]";
		out->cause = SYM_NO_MAP;
		return -1;
	}
	mp = maps_find(&p->maps, ip);
	/*
	 * A miss on a live process: it may have mapped code we were not
	 * told of (no MMAP2 records on the legacy backend).  Read its maps
	 * again, backing off exponentially so a stray address cannot make
	 * every sample read /proc.
	 */
	if (!mp && !p->dead && !(s->opts.flags & SYMBOLS_NO_PROC) &&
	    ++p->misses >= p->next_reread) {
		p->misses = 0;
		if (p->next_reread < REREAD_MAX)
			p->next_reread *= 2;
		if (proc_read_maps(s, p) == 0)
			mp = maps_find(&p->maps, ip);
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

int symbols_resolve_file(struct symbols *s, const char *path, uint64_t addr,
			 struct sym_result *out)
{
	struct dso *d;
	int ret;

	memset(out, 0, sizeof(*out));
	s->lookups++;
	d = symbols_file(s, path, NULL, NULL, 0);
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
