/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc.c - the processes a session follows: their mappings from
 * /proc/PID/maps or MMAP2 records, forks, execs and exits.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/proc.h"

/* Misses between re-reads of /proc/PID/maps grow to at most this. */
#define REREAD_MAX 4096

/* --- the table ------------------------------------------------------------ */

void proc_init(struct proc_table *t, struct files *files, const char *root,
	       unsigned flags)
{
	memset(t, 0, sizeof(*t));
	t->files = files;
	t->root = root;
	t->flags = flags;
}

static size_t pid_hash(pid_t pid)
{
	return hash_u64((uint64_t)(unsigned)pid);
}

static bool pid_eq(const void *item, const void *key)
{
	return ((const struct sym_proc *)item)->pid == *(const pid_t *)key;
}

struct sym_proc *proc_find(struct proc_table *t, pid_t pid)
{
	struct sym_proc *p;

	if (t->last && t->last->pid == pid)
		return t->last;
	p = hashtab_find(&t->procs, pid_hash(pid), pid_eq, &pid);
	if (p)
		t->last = p;
	return p;
}

struct sym_proc *proc_get(struct proc_table *t, pid_t pid)
{
	struct sym_proc *p = proc_find(t, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next_reread = 1;
	if (hashtab_add(&t->procs, pid_hash(pid), p) != 0) {
		free(p);
		return NULL;
	}
	return t->last = p;
}

void proc_walk(struct proc_table *t, void (*fn)(struct sym_proc *p, void *arg),
	       void *arg)
{
	struct sym_proc *p;
	size_t i = 0;

	while ((p = hashtab_next(&t->procs, &i)))
		fn(p, arg);
}

static void proc_set_program(struct sym_proc *p, struct dso *d)
{
	if (p->program)
		dso_put(p->program);
	p->program = d;
	if (d)
		dso_get(d);
}

static void proc_free(struct sym_proc *p)
{
	proc_set_program(p, NULL);
	maps_release(&p->maps);
	jitmap_free(p->jit);
	free(p);
}

/* Remember the program of p, which is about to be freed. */
static void proc_note_gone(struct proc_table *t, struct sym_proc *p)
{
	struct proc_gone *g = &t->gone[t->ngone % PROC_GONE_MAX];
	char *name;

	if (!p->program || !(name = strdup(dso_name(p->program))))
		return;
	free(g->program);
	g->pid = p->pid;
	g->program = name;
	t->ngone++;
}

struct drop_arg {
	struct proc_table *t;
	bool all;
};

static bool drop_dead(void *item, void *arg)
{
	struct drop_arg *a = arg;
	struct sym_proc *p = item;

	if (!a->all && !p->dead)
		return false;
	if (!a->all)
		proc_note_gone(a->t, p);
	proc_free(p);
	return true;
}

void proc_gc(struct proc_table *t)
{
	hashtab_remove_if(&t->procs, drop_dead,
			  &(struct drop_arg){ t, false });
	t->last = NULL;
}

void proc_free_all(struct proc_table *t)
{
	size_t i;

	hashtab_remove_if(&t->procs, drop_dead, &(struct drop_arg){ t, true });
	hashtab_release(&t->procs);
	t->last = NULL;
	for (i = 0; i < PROC_GONE_MAX; i++) {
		free(t->gone[i].program);
		t->gone[i].program = NULL;
	}
	t->ngone = 0;
}

const char *proc_program(struct proc_table *t, pid_t pid)
{
	struct sym_proc *p = proc_find(t, pid);
	unsigned i;

	if (p)
		return p->program ? dso_name(p->program) : NULL;
	/* the newest first: a pid may have been reused */
	for (i = 0; i < PROC_GONE_MAX && i < t->ngone; i++) {
		const struct proc_gone *g =
			&t->gone[(t->ngone - 1 - i) % PROC_GONE_MAX];

		if (g->pid == pid)
			return g->program;
	}
	return NULL;
}

size_t proc_count(const struct proc_table *t)
{
	return hashtab_count(&t->procs);
}

/* --- one process ---------------------------------------------------------- */

/* pid is a new image (exec) or a new process (pid reuse): forget the old
   mappings, JIT map and re-read back-off. */
static void proc_reset(struct sym_proc *p)
{
	proc_set_program(p, NULL);
	p->exec_seen = false;
	maps_release(&p->maps);
	jitmap_free(p->jit);
	p->jit = NULL;
	p->misses = 0;
	p->next_reread = 1;
	p->dead = false;
	p->mntns_known = false;
	p->ns_tgid = 0;
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
 * Whether p lives in another mount namespace than ours (a container):
 * the paths of its mappings then name files of its own, reached through
 * /proc/PID/root.  Found once per process; without /proc, or when its
 * namespace cannot be read, the same as ours.
 */
static bool proc_other_mntns(struct proc_table *t, struct sym_proc *p)
{
	char path[4096];
	struct stat ours, its;

	if (p->mntns_known)
		return p->mntns_other;
	p->mntns_known = true;
	p->mntns_other = false;
	if (t->flags & SYMBOLS_NO_PROC)
		return false;
	snprintf(path, sizeof(path), "%s/self/ns/mnt", t->root);
	if (stat(path, &ours) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/%d/ns/mnt", t->root, (int)p->pid);
	if (stat(path, &its) != 0)
		return false;
	p->mntns_other = its.st_ino != ours.st_ino ||
			 its.st_dev != ours.st_dev;
	return p->mntns_other;
}

const char *proc_path(struct proc_table *t, struct sym_proc *p,
		      const char *path, char *buf, size_t size)
{
	if (!proc_other_mntns(t, p) || path[0] != '/')
		return path;
	if ((size_t)snprintf(buf, size, "%s/%d/root%s", t->root, (int)p->pid,
			     path) >= size)
		return path;
	return buf;
}

int proc_ns_tgid(struct proc_table *t, struct sym_proc *p)
{
	char path[4096], line[256];
	FILE *f;

	if (p->ns_tgid)
		return p->ns_tgid;
	p->ns_tgid = p->pid;
	if (t->flags & SYMBOLS_NO_PROC)
		return p->ns_tgid;
	snprintf(path, sizeof(path), "%s/%d/status", t->root, (int)p->pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *last;
		long v;

		/* "NStgid:\t4242\t1": the last is the innermost namespace's */
		if (strncmp(line, "NStgid:", 7) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		last = strrchr(line, '\t');
		v = last ? strtol(last + 1, NULL, 10) : 0;
		if (v > 0 && v <= INT32_MAX)
			p->ns_tgid = (pid_t)v;
		break;
	}
	if (f)
		fclose(f);
	return p->ns_tgid;
}

/*
 * Whether the file at look (as p sees it) is the one m maps: the same
 * inode when the mapping says it, else the same build-id when the
 * record carried one, else (nothing to tell them apart) any file.
 */
static bool same_file(const char *look, const struct sym_mapping *m)
{
	uint8_t id[64];
	struct stat st;
	int n;

	if (stat(look, &st) != 0)
		return false;
	if (m->ino)
		return (uint64_t)st.st_ino == m->ino;
	if (!m->build_id_size)
		return true;
	n = dso_read_build_id(look, id, sizeof(id));
	return n > 0 && (size_t)n == m->build_id_size &&
	       memcmp(id, m->build_id, m->build_id_size) == 0;
}

/* A file that must be opened now: what look names vanishes with the
   process, which may exit before its first sample is resolved. */
static struct dso *file_now(struct proc_table *t, const char *name,
			    const char *look, const struct sym_mapping *m,
			    enum sym_cause bad)
{
	struct dso *d = files_get(t->files, name, look, m->ino, m->build_id,
				  m->build_id_size);

	if (d && dso_load(d) != 0 && dso_cause(d) == SYM_NO_FILE &&
	    bad != SYM_OK)
		dso_set_cause(d, bad);
	return d;
}

/*
 * The file of a mapping, checked against what was mapped (the mapping's
 * inode, or its build-id) and looked up as the process sees it (through
 * /proc/PID/root for another mount namespace).
 *
 * A path ending in " (deleted)" is deleted only when no file of that
 * name is the one mapped; a deleted file keeps the suffix in its name,
 * so that it is never taken for a live file at its old path.  A deleted
 * or replaced file is read from its old path when that is still the
 * mapped file (same inode, same build), else through
 * /proc/PID/map_files (the very inode the process maps) when we may,
 * and is otherwise unusable with that cause.
 */
static struct dso *proc_mapping_file(struct proc_table *t,
				     struct sym_proc *p,
				     const struct sym_mapping *m)
{
	char look[4096 + 64], stem[4096], stem_look[4096 + 64];
	char mf[4096 + 64];
	enum sym_cause bad = SYM_OK;
	const char *at = proc_path(t, p, m->path, look, sizeof(look)), *sat;
	bool other = at != m->path;
	struct stat st;
	struct dso *d;
	size_t n;

	/*
	 * The file a mapping of this name and inode was found to be (by
	 * the checks below, when the registry first met it) is that file
	 * still: no stat(2) per mapping of every process that maps libc.
	 */
	if (!other && m->ino && !ends_with(m->path, " (deleted)", &n) &&
	    (d = files_find(t->files, m->path, m->ino)))
		return d;
	if (ends_with(m->path, " (deleted)", &n)) {
		if (!same_file(at, m))
			bad = SYM_DELETED;
	} else if (m->ino && stat(at, &st) == 0 &&
		   (uint64_t)st.st_ino != m->ino) {
		bad = m->build_id_size && same_file(at, m) ? SYM_OK
							  : SYM_REPLACED;
	}
	if (bad == SYM_OK)
		return other ? file_now(t, m->path, at, m, SYM_OK)
			     : files_get(t->files, m->path, NULL, m->ino,
					 m->build_id, m->build_id_size);
	if (bad == SYM_DELETED && n < sizeof(stem)) {
		memcpy(stem, m->path, n);
		stem[n] = '\0';
		sat = proc_path(t, p, stem, stem_look, sizeof(stem_look));
		if ((m->ino || m->build_id_size) && same_file(sat, m))
			return file_now(t, m->path, sat, m, bad);
	}
	if ((size_t)snprintf(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64
			     "-%" PRIx64, t->root, (int)p->pid, m->start,
			     m->start + m->len) < sizeof(mf) &&
	    !(t->flags & SYMBOLS_NO_PROC) && access(mf, R_OK) == 0)
		return file_now(t, m->path, mf, m, bad);
	d = files_get(t->files, m->path, "", m->ino, NULL, 0);
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

int proc_mmap(struct proc_table *t, struct sym_proc *p,
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
		mp.dso = files_vdso(t->files);
	else if (mp.kind == MAPK_FILE)
		mp.dso = proc_mapping_file(t, p, m);
	if (mp.kind == MAPK_FILE && !mp.dso)
		return -1;
	if (mp.kind == MAPK_FILE && p->exec_seen) {
		proc_set_program(p, mp.dso);
		p->exec_seen = false;
	}
	if (mp.dso)
		dso_get(mp.dso);
	return maps_insert(&p->maps, &mp);
}

/*
 * The kernel writes a newline in a mapped file's name as "\\012" (the
 * only character /proc/PID/maps escapes; MMAP2 records carry the name
 * as it is): back to '\\n', in place.  A name that holds a backslash
 * and "012" itself reads the same: the kernel does not escape '\\'.
 */
static void unescape_newlines(char *p)
{
	char *w = p;

	while (*p) {
		if (p[0] == '\\' && p[1] == '0' && p[2] == '1' && p[3] == '2') {
			*w++ = '\n';
			p += 4;
		} else {
			*w++ = *p++;
		}
	}
	*w = '\0';
}

int symbols_parse_maps_line(char *line, struct sym_mapping *m)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char *path;
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
	path = pos ? line + pos : line + strlen(line);
	unescape_newlines(path);
	m->path = path;
	return 0;
}

int proc_read_maps(struct proc_table *t, struct sym_proc *p)
{
	char path[4096], *line = NULL;
	const struct map *mp;
	struct sym_mapping m;
	struct stat exe;
	size_t cap = 0;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%d/maps", t->root,
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
	/*
	 * A process that has exited and is not reaped yet (a command that
	 * ran 40 ms, read once it ended) lists no mapping: what its MMAP2
	 * records gave is all there is, and is kept: read, nothing replaced.
	 */
	if (getline(&line, &cap, f) <= 0) {
		free(line);
		fclose(f);
		return 0;
	}
	/* the program: the mapping of /proc/PID/exe's inode */
	snprintf(path, sizeof(path), "%s/%d/exe", t->root, (int)p->pid);
	if (stat(path, &exe) != 0)
		exe.st_ino = 0;
	maps_release(&p->maps);
	proc_set_program(p, NULL);
	p->exec_seen = false;
	do {
		if (symbols_parse_maps_line(line, &m) != 0 || !m.prot)
			continue;
		/* /proc lists every mapping: PROT_EXEC filters for us. */
		if (!(m.prot & PROT_EXEC))
			continue;
		proc_mmap(t, p, &m);
		if (!p->program && exe.st_ino && m.ino == (uint64_t)exe.st_ino &&
		    (mp = maps_find(&p->maps, m.start)) && mp->dso)
			proc_set_program(p, mp->dso);
	} while (getline(&line, &cap, f) > 0);
	free(line);
	fclose(f);
	return 0;
}

int proc_fork(struct proc_table *t, pid_t pid, pid_t ppid)
{
	struct sym_proc *parent, *p;

	if (pid == ppid)
		return 0;	/* a new thread shares its mappings */
	p = proc_find(t, pid);
	if (p)
		proc_reset(p);	/* pid reused: a new process */
	else if (!(p = proc_get(t, pid)))
		return -1;
	parent = proc_find(t, ppid);
	if (parent) {
		proc_set_program(p, parent->program);
		return maps_copy(&p->maps, &parent->maps);
	}
	return 0;
}

void proc_exec(struct sym_proc *p)
{
	/* The new image's mappings come next, as MMAP2 records: the
	   program's own first (load_elf_binary maps it before ld.so) */
	proc_reset(p);
	p->exec_seen = true;
}

void proc_exit(struct sym_proc *p)
{
	p->dead = true;
}

const struct map *proc_map_of(struct proc_table *t, struct sym_proc *p,
			      uint64_t ip)
{
	const struct map *mp = maps_find(&p->maps, ip);

	if (!mp && !p->dead && !(t->flags & SYMBOLS_NO_PROC) &&
	    ++p->misses >= p->next_reread) {
		p->misses = 0;
		if (p->next_reread < REREAD_MAX)
			p->next_reread *= 2;
		if (proc_read_maps(t, p) == 0)
			mp = maps_find(&p->maps, ip);
	}
	return mp;
}
