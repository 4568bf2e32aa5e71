/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc.h - the processes a session follows, by pid: their mappings (from
 * /proc/PID/maps or MMAP2 records), forks, execs and exits, and their
 * JIT maps.  Private to lib/symbols.
 *
 * Never prints, never exits: NULL or -1 with errno.  The table owns its
 * processes; a struct sym_proc stays valid until proc_gc() (when it has
 * exited) or proc_free_all().  Files come from the registry the table
 * was given (files.h), which must outlive it.
 */
#ifndef SYMBOLS_PROC_H
#define SYMBOLS_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/hashtab.h"
#include "symbols/files.h"
#include "symbols/jitmap.h"
#include "symbols/maps.h"
#include "symbols/symbols.h"

struct sym_proc {
	pid_t pid;
	bool dead;
	unsigned misses, next_reread;	/* back-off for re-reading maps */
	struct maps maps;
	struct jitmap *jit;	/* perf-PID.map, opened on first need */
	struct dso *program;	/* its executable (a reference), or NULL */
	bool mntns_known, mntns_other;	/* in another mount namespace */
	pid_t ns_tgid;		/* its pid in its own pid namespace; 0:
				   not read yet */
	bool exec_seen;		/* an exec: the next file mapping of code
				   is the new program's */
};

/* The programs of processes freed by proc_gc(), the last few. */
#define PROC_GONE_MAX 16
struct proc_gone {
	pid_t pid;
	char *program;
};

struct proc_table {
	struct hashtab procs;	/* of struct sym_proc, by pid */
	struct sym_proc *last;	/* the last one found */
	struct files *files;
	const char *root;	/* "/proc", or a test's copy */
	unsigned flags;		/* SYMBOLS_NO_PROC: never read root */
	struct proc_gone gone[PROC_GONE_MAX];
	unsigned ngone;		/* added so far; gone[ngone % MAX] next */
};

/* An empty table; root is borrowed and must outlive it. */
void proc_init(struct proc_table *t, struct files *files, const char *root,
	       unsigned flags);

/* Lookup: process pid, or NULL. */
struct sym_proc *proc_find(struct proc_table *t, pid_t pid);
/* Process pid, made (with no mappings) when new; NULL with errno ENOMEM. */
struct sym_proc *proc_get(struct proc_table *t, pid_t pid);
/* Call fn on every process, in no particular order. */
void proc_walk(struct proc_table *t, void (*fn)(struct sym_proc *p, void *arg),
	       void *arg);
/* Free the processes that exited (proc_exit). */
void proc_gc(struct proc_table *t);
/* Free every process; the table is empty again. */
void proc_free_all(struct proc_table *t);
size_t proc_count(const struct proc_table *t);

/* The session's calls (symbols.h) on one process. */
int proc_mmap(struct proc_table *t, struct sym_proc *p,
	      const struct sym_mapping *m);
int proc_read_maps(struct proc_table *t, struct sym_proc *p);
int proc_fork(struct proc_table *t, pid_t pid, pid_t ppid);
void proc_exec(struct sym_proc *p);
void proc_exit(struct sym_proc *p);

/*
 * The mapping that holds ip, or NULL.  A miss on a live process may be
 * code we were not told of (no MMAP2 records on the legacy backend): its
 * maps are read again, backing off exponentially so that a stray address
 * cannot make every sample read /proc.
 */
const struct map *proc_map_of(struct proc_table *t, struct sym_proc *p,
			      uint64_t ip);

/*
 * path as process p sees it: through ROOT/PID/root when p lives in
 * another mount namespace (in buf), else path itself.
 */
const char *proc_path(struct proc_table *t, struct sym_proc *p,
		      const char *path, char *buf, size_t size);

/* p's pid in its own pid namespace (NStgid in /proc/PID/status): what
   it calls itself, in /tmp/perf-PID.map; its pid when the same. */
int proc_ns_tgid(struct proc_table *t, struct sym_proc *p);

/*
 * The file name of process pid's executable, as its mappings name it:
 * from /proc/PID/exe when its maps were read, else the first file
 * mapping of code after an exec; kept for the last PROC_GONE_MAX
 * processes that exited and were freed.  NULL when unknown.
 */
const char *proc_program(struct proc_table *t, pid_t pid);

#endif
