/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc.c - the processes a session follows: their mappings from
 * /proc/PID/maps or MMAP2 records, forks, execs and exits.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
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
static struct dso *proc_mapping_file(struct proc_table *t, pid_t pid,
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
		return files_get(t->files, path, NULL, m->ino, m->build_id,
				 m->build_id_size);

	if ((size_t)snprintf(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64
			     "-%" PRIx64, t->root, (int)pid, m->start,
			     m->start + m->len) < sizeof(mf) &&
	    !(t->flags & SYMBOLS_NO_PROC) && access(mf, R_OK) == 0) {
		d = files_get(t->files, path, mf, m->ino, m->build_id,
			      m->build_id_size);
		/*
		 * Open it now: map_files/ vanishes with the process, which
		 * may exit before its first sample is resolved.
		 */
		if (d && dso_load(d) != 0 && dso_cause(d) == SYM_NO_FILE)
			dso_set_cause(d, bad);
		return d;
	}
	d = files_get(t->files, path, "", m->ino, NULL, 0);
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
		mp.dso = proc_mapping_file(t, p->pid, m);
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
	/* the program: the mapping of /proc/PID/exe's inode */
	snprintf(path, sizeof(path), "%s/%d/exe", t->root, (int)p->pid);
	if (stat(path, &exe) != 0)
		exe.st_ino = 0;
	maps_release(&p->maps);
	proc_set_program(p, NULL);
	p->exec_seen = false;
	while (getline(&line, &cap, f) > 0) {
		if (symbols_parse_maps_line(line, &m) != 0 || !m.prot)
			continue;
		/* /proc lists every mapping: PROT_EXEC filters for us. */
		if (!(m.prot & PROT_EXEC))
			continue;
		proc_mmap(t, p, &m);
		if (!p->program && exe.st_ino && m.ino == (uint64_t)exe.st_ino &&
		    (mp = maps_find(&p->maps, m.start)) && mp->dso)
			proc_set_program(p, mp->dso);
	}
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
