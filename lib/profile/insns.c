/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* insns.c - one function's samples per instruction (see insns.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "base/escape.h"
#include "profile/insns.h"
#include "profile/srclines.h"
#include "symbols/source.h"

/* The instruction of a that holds vaddr, or -1. */
static ssize_t insn_at(const struct insns *a, uint64_t vaddr)
{
	size_t i = addr_upper_bound(a->insn, a->ninsn, sizeof(*a->insn),
				    offsetof(struct disasm_insn, addr), vaddr);

	if (i == 0)
		return -1;
	i--;
	return vaddr - a->insn[i].addr < a->insn[i].size ? (ssize_t)i : -1;
}

static int row_add(struct insns *a, const struct insns_row *r)
{
	if (ARRAY_GROW(a->rows, a->n + 1, a->rows_alloc) != 0)
		return -1;
	a->rows[a->n++] = *r;
	return 0;
}

/* The rows: a header wherever the source line changes, then the insn. */
static int rows_make(struct insns *a, struct symbols *s, const char *dso,
		     const uint64_t *count)
{
	const char *file = NULL;
	int line = -1;
	size_t i;

	for (i = 0; i < a->ninsn; i++) {
		const char *f;
		int l;

		if (srcline_of(s, dso, a->insn[i].addr, &a->files, &f, &l))
			return -1;
		if (i == 0 || f != file || l != line) {
			file = f;
			line = l;
			if (row_add(a, &(struct insns_row){ .file = f,
							    .line = l }))
				return -1;
		}
		if (row_add(a, &(struct insns_row){ .insn = &a->insn[i],
						    .count = count[i] }))
			return -1;
		if (!a->rows[a->hottest].insn ||
		    count[i] > a->rows[a->hottest].count)
			a->hottest = a->n - 1;
	}
	return 0;
}

/* The headers' source text (none where the file cannot be read: the
   header keeps file:line). */
static int texts_read(struct insns *a, struct symbols *s, const char *dso)
{
	struct srcline_want *want = calloc(a->n + 1, sizeof(*want));
	size_t n = 0;
	int rc;

	if (!want)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		if (!a->rows[i].insn)
			want[n++] = (struct srcline_want){ a->rows[i].file,
							   a->rows[i].line,
							   &a->rows[i].text };
	rc = srclines_texts(s, dso, want, n);
	free(want);
	return rc;
}

int insns_build(struct symbols *s, const char *dso,
		const struct top_addr *addrs, size_t n, struct insns *a,
		enum sym_cause *cause)
{
	struct sym_code code;
	uint64_t *count = NULL, most = 0;
	size_t i, anchor = 0;
	unsigned machine;
	int err;

	memset(a, 0, sizeof(*a));
	*cause = SYM_OK;
	if (!n) {
		errno = ENOENT;
		return -1;
	}
	/* the function is the one that holds the most sampled address */
	for (i = 0; i < n; i++)
		if (addrs[i].count > most) {
			most = addrs[i].count;
			anchor = i;
		}
	if (symbols_code_file(s, dso, addrs[anchor].addr, &code) != 0) {
		*cause = code.cause;
		return -1;
	}
	a->start = code.start;
	a->size = code.size;
	a->truncated = code.truncated;
	a->machine = code.machine;
	err = disasm_code(code.machine, code.bytes, code.size, code.start,
			  &a->insn, &a->ninsn);
	sym_code_release(&code);
	if (err)
		goto fail;
	count = calloc(a->ninsn ? a->ninsn : 1, sizeof(*count));
	if (!count)
		goto fail;
	for (i = 0; i < n; i++) {
		ssize_t k = insn_at(a, addrs[i].addr);

		if (k < 0)
			a->outside += addrs[i].count;
		else
			count[k] += addrs[i].count;
		if (k >= 0)
			a->total += addrs[i].count;
	}
	if (rows_make(a, s, dso, count) != 0 || texts_read(a, s, dso) != 0)
		goto fail;
	free(count);
	return 0;
fail:
	err = errno;
	free(count);
	machine = a->machine;
	insns_release(a);
	a->machine = machine;
	errno = err;
	return -1;
}

const char *insns_strerror(int err, enum sym_cause cause,
			   const struct insns *a)
{
	switch (err) {
	case ENOEXEC:
		return "its code is in no executable section of the file "
		       "(data, or code made at run time): no instructions "
		       "to show";
	case ENOTSUP:
		return disasm_strerror(err, a->machine);
	case ENOENT:
		return symbols_cause_advice(cause);
	default:
		return strerror(err);
	}
}

void insns_release(struct insns *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->rows[i].text);
	free(a->rows);
	free(a->insn);
	strpool_release(&a->files);
	memset(a, 0, sizeof(*a));
}

const char *insns_header(void)
{
	return "   share samples   address:  instruction";
}

void insns_row_text(const struct insns *a, size_t i, char *buf, size_t size)
{
	const struct insns_row *r = &a->rows[i];
	char text[256], src[SOURCE_LINE_MAX];

	if (!r->insn) {
		const char *base = r->file ? strrchr(r->file, '/') : NULL;

		if (!r->file) {
			snprintf(buf, size, "%26s (no source line)", "");
			return;
		}
		esc_visible(text, sizeof(text), base ? base + 1 : r->file);
		if (!r->text) {
			snprintf(buf, size, "%26s %s:%d", "", text, r->line);
			return;
		}
		esc_visible(src, sizeof(src), r->text);
		snprintf(buf, size, "%26s %s:%d  %s", "", text, r->line, src);
		return;
	}
	if (!r->count) {
		snprintf(buf, size, " %7s %7s %9" PRIx64 ":  %s", "", "",
			 r->insn->addr, r->insn->text);
		return;
	}
	snprintf(buf, size, "%c%6.2f%% %7" PRIu64 " %9" PRIx64 ":  %s",
		 i == a->hottest ? '>' : ' ',
		 a->total ? 100.0 * (double)r->count / (double)a->total : 0.0,
		 r->count, r->insn->addr, r->insn->text);
}

int insns_print(const struct insns *a, const char *sym, const char *dso,
		FILE *out)
{
	char name[256], file[256], line[512];
	size_t i;

	esc_visible(name, sizeof(name), sym);
	esc_visible(file, sizeof(file), dso);
	fprintf(out, "Annotate: %s (%s), %" PRIu64 " samples%s\n%s\n%s\n",
		name, file, a->total,
		a->truncated ? " (only the first 256 KiB of it)" : "",
		INSNS_SKID_NOTE, insns_header());
	for (i = 0; i < a->n; i++) {
		insns_row_text(a, i, line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	if (a->outside)
		fprintf(out, "(%" PRIu64 " samples of %s at addresses outside "
			"its code here)\n", a->outside, name);
	return ferror(out) ? -1 : 0;
}
