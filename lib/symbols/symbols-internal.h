/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbols-internal.h - what the files of lib/symbols share: the session,
 * its processes and its table of what could not be resolved.  Private.
 */
#ifndef SYMBOLS_INTERNAL_H
#define SYMBOLS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

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
extern const char *const unres_fixed_names[UNRES_FIXED];

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
	size_t ndbg, adbg;

	struct unres *unres;
	size_t nunres, aunres;

	uint64_t lookups;
};

/* symbols.c: the files the session knows, by path (and the vDSO). */
/* ino: the mapping's inode, 0 when unknown; files are shared by path
   and inode, so a binary replaced under its path is a new file. */
struct dso *symbols_file(struct symbols *s, const char *path,
			 const char *elf_path, uint64_t ino,
			 const uint8_t *build_id, size_t build_id_size);
struct dso *symbols_vdso(struct symbols *s);

/* unresolved.c: count a sample that could not be fully resolved. */
void unres_count(struct symbols *s, struct dso *d, int fixed,
		 enum sym_cause cause);

/* proc.c: the processes, by pid. */
struct sym_proc *proc_find(struct symbols *s, pid_t pid);
struct sym_proc *proc_new(struct symbols *s, pid_t pid);
void proc_free(struct sym_proc *p);
int proc_read_maps(struct symbols *s, struct sym_proc *p);

#endif
