/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbols-internal.h - the session, as symbols.c (its calls) and
 * unresolved.c (its table of what could not be resolved) share it.
 * Private.
 */
#ifndef SYMBOLS_INTERNAL_H
#define SYMBOLS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbols/dso.h"
#include "symbols/files.h"
#include "symbols/kallsyms.h"
#include "symbols/proc.h"
#include "symbols/symbols.h"

struct unres {
	char *name;
	uint64_t count[SYM_CAUSE_MAX];
};

/* Fixed rows of the unresolved table for what is not a file. */
enum { UNRES_UNKNOWN, UNRES_KERNEL, UNRES_JIT, UNRES_FIXED };

struct symbols {
	struct symbols_opts opts;
	char *proc_root, *jit_dir;

	struct kallsyms *ks;
	bool ks_tried;
	enum sym_cause ks_cause;

	struct files files;		/* every file the session knows */
	struct proc_table procs;

	struct unres *unres;		/* UNRES_FIXED rows, then per file */
	size_t nunres, aunres;

	uint64_t lookups;
	double jit_budget;		/* ms of CPU left to read JIT maps */
	bool jit_bounded;		/* symbols_jit_budget() was called */
};

/* unresolved.c: the table of what could not be resolved.  unres_init()
   makes its fixed rows: 0, or -1 with errno ENOMEM. */
int unres_init(struct symbols *s);
void unres_release(struct symbols *s);
/* Count a sample that could not be fully resolved: in d's row, or in
   the fixed row when d is NULL. */
void unres_count(struct symbols *s, struct dso *d, int fixed,
		 enum sym_cause cause);

#endif
