/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export-folded.c - folded stacks, one line per distinct path of
 * functions, root first: "main;a;b;hot 3".  The format FlameGraph's
 * flamegraph.pl and inferno read; kernel functions end in "_[k]" and JIT
 * code in "_[j]", the annotations their --color=java knows.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/escape.h"
#include "profile/export-internal.h"

/* A name on one line, with no ';' (the separator): shown as ':'. */
static int put_name(FILE *f, const struct stk_func *fn)
{
	char small[512], *buf = small, *p;
	size_t n = esc_visible(small, sizeof(small), fn->name);

	if (n >= sizeof(small)) {
		buf = malloc(n + 1);
		if (!buf)
			return -1;
		esc_visible(buf, n + 1, fn->name);
	}
	for (p = buf; (p = strchr(p, ';')); p++)
		*p = ':';
	fputs(buf, f);
	if (buf != small)
		free(buf);
	if (fn->mode == 'k' && !export_func_offcpu(fn))
		fputs("_[k]", f);
	else if (fn->jit)
		fputs("_[j]", f);
	return 0;
}

int export_folded(FILE *f, struct stacks *s, const struct export_meta *m)
{
	const struct stk_node *nd;
	uint32_t *path = NULL, at;
	size_t n, apath = 0;

	(void)m;
	nd = stacks_tree(s, STK_TREE_ROOT, 0, &n);
	if (!nd)
		return -1;
	/* depth first, children in order: the path to each node is kept */
	at = n > 1 ? nd[0].child : STK_NONE;
	while (at != STK_NONE) {
		uint32_t d = nd[at].depth, i;

		if (ARRAY_GROW(path, d, apath) != 0)
			goto fail;
		path[d - 1] = at;
		if (nd[at].self) {
			for (i = 0; i < d; i++) {
				if (i)
					fputc(';', f);
				if (put_name(f, stacks_func(s, nd[path[i]].func)))
					goto fail;
			}
			fprintf(f, " %" PRIu64 "\n", nd[at].self);
		}
		at = stacks_tree_next(nd, at);
	}
	free(path);
	return 0;
fail:
	free(path);
	return -1;
}
