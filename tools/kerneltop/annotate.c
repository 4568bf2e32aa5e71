/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * annotate.c - one symbol's samples per source line (lib/profile's
 * srclines) and per instruction (insns), from the addresses the on-CPU
 * profile kept for it: --sym-annotate's text, the annotate screen's
 * model.
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
#include "profile/srclines.h"
#include "util/xmalloc.h"

int annotate_build(struct kt *kt, const char *sym, const char *dso,
		   struct srclines *a)
{
	const struct top_addr *addrs;
	size_t n;

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
	return srclines_build(kt->sym_lines, dso, addrs, n, a);
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
	char name[KT_LINE], dso[KT_LINE], line[KT_LINE];
	struct srclines a;

	esc_visible(name, sizeof(name), sym);
	if (!r) {
		fprintf(out, "Annotate: %s: no samples\n\n", name);
		return ferror(out) ? -1 : 0;
	}
	if (annotate_build(kt, r->sym, r->dso, &a) != 0)
		return -1;
	esc_visible(dso, sizeof(dso), r->dso);
	fprintf(out, "Annotate: %s (%s)\n%s\n", name, dso, srclines_header());
	for (size_t i = 0; i < a.n; i++) {
		srclines_row_text(&a, i, line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	fputc('\n', out);
	srclines_release(&a);
	return insns_batch(kt, r, out);
}
