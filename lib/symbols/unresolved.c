/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unresolved.c - why an address could not be resolved: the table of
 * causes with their advice, and the per-file counts tools report.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "symbols/symbols-internal.h"

static const char *const unres_fixed_names[UNRES_FIXED] = {
	[UNRES_UNKNOWN] = "[unknown]",
	[UNRES_KERNEL] = "[kernel]",
	[UNRES_JIT] = "[jit]",
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
	[SYM_JIT_MAP_DIR] = { "JIT map is a directory",
		"/tmp/perf-PID.map is a directory, not the JIT's symbol "
		"file: remove it" },
	[SYM_JIT_MAP_NOT_FILE] = { "JIT map not a regular file",
		"/tmp/perf-PID.map is a FIFO, device, socket or symbolic "
		"link, which anyone could plant in /tmp: not read; remove it" },
	[SYM_JIT_MAP_UNTRUSTED] = { "JIT map not trusted",
		"/tmp/perf-PID.map is owned by neither the process's user "
		"nor root, so anyone could have written it: ignored, as perf "
		"does; remove it" },
	[SYM_JIT_LINE_TOO_LONG] = { "map line too long",
		"lines of /tmp/perf-PID.map longer than 4 KiB were skipped "
		"(and counted): make the JIT write shorter names" },
	[SYM_NO_FD] = { "too many open files",
		"no file descriptor was left to read the file (each counter "
		"takes one): raise the limit with 'ulimit -n'" },
	[SYM_NO_MEMORY] = { "out of memory",
		"no memory was left to load the file's symbols: raise "
		"'ulimit -v', or free memory" },
	[SYM_PATH_TOO_LONG] = { "path too long",
		"the file's path is longer than the system allows (PATH_MAX, "
		"ENAMETOOLONG): run the program from a shorter path" },
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

/* --- unresolved counts ----------------------------------------------------- */

int unres_init(struct symbols *s)
{
	size_t i;

	if (ARRAY_GROW(s->unres, UNRES_FIXED, s->aunres) != 0)
		return -1;
	memset(s->unres, 0, UNRES_FIXED * sizeof(*s->unres));
	for (i = 0; i < UNRES_FIXED; i++) {
		s->unres[i].name = strdup(unres_fixed_names[i]);
		if (!s->unres[i].name)
			return -1;
		s->nunres++;
	}
	return 0;
}

void unres_release(struct symbols *s)
{
	size_t i;

	for (i = 0; i < s->nunres; i++)
		free(s->unres[i].name);
	free(s->unres);
	s->unres = NULL;
	s->nunres = s->aunres = 0;
}

/* The row of name, made on first use: a file freed by symbols_gc() and
   opened again keeps its row, so the table grows with distinct names only. */
static int unres_row(struct symbols *s, const char *name)
{
	size_t i;

	for (i = UNRES_FIXED; i < s->nunres; i++)
		if (strcmp(s->unres[i].name, name) == 0)
			return (int)i;

	if (ARRAY_GROW(s->unres, s->nunres + 1, s->aunres) != 0)
		return UNRES_UNKNOWN;
	memset(&s->unres[s->nunres], 0, sizeof(*s->unres));
	s->unres[s->nunres].name = strdup(name);
	if (!s->unres[s->nunres].name)
		return UNRES_UNKNOWN;
	return (int)s->nunres++;
}

void unres_count(struct symbols *s, struct dso *d, int fixed,
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

