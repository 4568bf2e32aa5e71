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

#include "symbols/symbols-internal.h"

void proc_free(struct sym_proc *p)
{
	maps_release(&p->maps);
	jitmap_free(p->jit);
	free(p);
}

/* --- processes ------------------------------------------------------------- */

struct sym_proc *proc_find(struct symbols *s, pid_t pid)
{
	struct sym_proc *p;

	if (s->last_proc && s->last_proc->pid == pid)
		return s->last_proc;
	for (p = s->proc[(unsigned)pid % PROC_BUCKETS]; p; p = p->next)
		if (p->pid == pid)
			return s->last_proc = p;
	return NULL;
}

struct sym_proc *proc_new(struct symbols *s, pid_t pid)
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
		return symbols_file(s, path, NULL, m->ino, m->build_id,
				    m->build_id_size);

	if ((size_t)snprintf(mf, sizeof(mf), "%s/%d/map_files/%" PRIx64
			     "-%" PRIx64, s->proc_root, (int)pid, m->start,
			     m->start + m->len) < sizeof(mf) &&
	    !(s->opts.flags & SYMBOLS_NO_PROC) && access(mf, R_OK) == 0) {
		d = symbols_file(s, path, mf, m->ino, m->build_id,
				 m->build_id_size);
		/*
		 * Open it now: map_files/ vanishes with the process, which
		 * may exit before its first sample is resolved.
		 */
		if (d && dso_load(d) != 0 && dso_cause(d) == SYM_NO_FILE)
			dso_set_cause(d, bad);
		return d;
	}
	d = symbols_file(s, path, "", m->ino, NULL, 0);
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

int proc_read_maps(struct symbols *s, struct sym_proc *p)
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

