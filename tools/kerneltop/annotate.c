/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * annotate.c - one symbol's samples per source line: the addresses the
 * model kept for it, each resolved to file:line through libdw, summed by
 * line, with the source text where the file can be read.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "annotate.h"
#include "frame.h"
#include "kt.h"
#include "options.h"
#include "view.h"
#include "profile/insns.h"
#include "util/xmalloc.h"

/* The stored copy of file (one per distinct name), or NULL for none. */
static const char *file_intern(struct annotation *a, const char *file)
{
	size_t i;

	if (!file)
		return NULL;
	for (i = 0; i < a->nfiles; i++)
		if (strcmp(a->files[i], file) == 0)
			return a->files[i];
	a->files = xrealloc(a->files, (a->nfiles + 1) * sizeof(*a->files));
	a->files[a->nfiles] = xstrdup(file);
	return a->files[a->nfiles++];
}

static void line_add(struct annotation *a, const char *file, int line,
		     uint64_t count)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->lines[i].file == file && a->lines[i].line == line) {
			a->lines[i].count += count;
			return;
		}
	a->lines = xrealloc(a->lines, (a->n + 1) * sizeof(*a->lines));
	a->lines[a->n++] = (struct annotate_line){ file, line, count, NULL };
}

static int cmp_line(const void *x, const void *y)
{
	const struct annotate_line *a = x, *b = y;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* The text of every line of file that a->lines names, as dso's process
   sees it (none where the file cannot be read). */
static void source_read(struct kt *kt, const char *dso, struct annotation *a,
			const char *file)
{
	int *want = xmalloc((a->n + 1) * sizeof(*want));
	char **text = xmalloc((a->n + 1) * sizeof(*text));
	size_t i, n = 0;

	for (i = 0; i < a->n; i++)
		if (a->lines[i].file == file && !a->lines[i].text)
			want[n++] = a->lines[i].line;
	if (symbols_source_lines(kt->sym_lines, dso, file, want, n,
				 text) == 0) {
		n = 0;
		for (i = 0; i < a->n; i++)
			if (a->lines[i].file == file && !a->lines[i].text)
				a->lines[i].text = text[n++];
	}
	free(want);
	free(text);
}

int annotate_build(struct kt *kt, const char *sym, const char *dso,
		   struct annotation *a)
{
	const struct top_addr *addrs;
	struct sym_result r;
	size_t n, i;

	memset(a, 0, sizeof(*a));
	if (!kt->sym_lines &&
	    !(kt->sym_lines = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_PROC))))
		return -1;
	/* lines and code from the file the sampled process mapped (in
	   another mount namespace: its own), not the one at dso here */
	if (dso[0] != '[' && symbols_see_as(kt->sym_lines, kt->sym, dso) != 0)
		return -1;
	/* sampled addresses are on-CPU samples, whatever the view */
	addrs = top_addrs(profile_top(kt->prof[KT_ON_CPU]), sym, dso, &n);
	for (i = 0; i < n; i++) {
		const char *file = NULL;
		int line = 0;

		if (dso[0] != '[' &&
		    symbols_resolve_file(kt->sym_lines, dso, addrs[i].addr, &r) == 0 &&
		    r.file) {
			file = file_intern(a, r.file);
			line = r.line;
		}
		line_add(a, file, line, addrs[i].count);
		a->total += addrs[i].count;
	}
	qsort(a->lines, a->n, sizeof(*a->lines), cmp_line);
	for (i = 0; i < a->nfiles; i++)
		source_read(kt, dso, a, a->files[i]);
	for (i = 0; i < a->n; i++)
		if (a->lines[i].count > a->lines[a->hottest].count)
			a->hottest = i;
	return 0;
}

void annotate_release(struct annotation *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->lines[i].text);
	for (i = 0; i < a->nfiles; i++)
		free(a->files[i]);
	free(a->lines);
	free(a->files);
	memset(a, 0, sizeof(*a));
}

const struct top_row *annotate_row(const struct kt_table *tb, const char *sym)
{
	size_t i;

	for (i = 0; i < tb->n; i++)
		if (tb->rows[i].sym && strcmp(tb->rows[i].sym, sym) == 0)
			return &tb->rows[i];
	return NULL;
}

/*
 * After the source lines, as perf top --stdio annotates: the function's
 * instructions and their samples, where LLVM's disassembler is there to read them
 * (a user function: kernel code is not read from a file here).
 */
static int insns_batch(struct kt *kt, const struct top_row *r, FILE *out)
{
	const struct top_addr *addrs;
	enum sym_cause cause = SYM_OK;
	struct insns in;
	size_t n;

	if (r->dso[0] == '[' || !disasm_available())
		return ferror(out) ? -1 : 0;
	addrs = top_addrs(profile_top(kt->prof[KT_ON_CPU]), r->sym, r->dso,
			  &n);
	if (insns_build(kt->sym_lines, r->dso, addrs, n, &in, &cause) != 0) {
		if (errno == ENOMEM)
			return -1;
		fprintf(out, "(no instructions: %s)\n\n",
			insns_strerror(errno, cause, &in));
		return ferror(out) ? -1 : 0;
	}
	insns_print(&in, r->sym, r->dso, out);
	fputc('\n', out);
	insns_release(&in);
	return ferror(out) ? -1 : 0;
}

int annotate_print(struct kt *kt, const struct kt_table *tb,
		   const char *sym, FILE *out)
{
	const struct top_row *r = annotate_row(tb, sym);
	char name[KT_LINE], dso[KT_LINE], file[KT_LINE], text[KT_LINE];
	struct annotation a;
	size_t i;

	esc_visible(name, sizeof(name), sym);
	if (!r) {
		fprintf(out, "Annotate: %s: no samples\n\n", name);
		return ferror(out) ? -1 : 0;
	}
	if (annotate_build(kt, r->sym, r->dso, &a) != 0)
		return -1;
	esc_visible(dso, sizeof(dso), r->dso);
	fprintf(out, "Annotate: %s (%s)\n %7s %7s  %-24s %s\n", name, dso,
		"share", "samples", "file:line", "source");
	for (i = 0; i < a.n; i++) {
		const struct annotate_line *l = &a.lines[i];
		const char *base = l->file ? strrchr(l->file, '/') : NULL;
		char where[KT_LINE];

		esc_visible(file, sizeof(file),
			    base ? base + 1 : l->file ? l->file : "??");
		esc_visible(text, sizeof(text), l->text ? l->text : "");
		snprintf(where, sizeof(where), "%s:%d", file, l->line);
		fprintf(out, "%c%6.2f%% %7" PRIu64 "  %-24s %s\n",
			i == a.hottest ? '>' : ' ',
			a.total ? 100.0 * (double)l->count / (double)a.total
				: 0.0, l->count, where, text);
	}
	fputc('\n', out);
	annotate_release(&a);
	return insns_batch(kt, r, out);
}
