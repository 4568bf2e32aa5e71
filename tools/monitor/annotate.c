/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * annotate.c - monitor --annotate SYM: the function's instructions with
 * the samples each took, after the run (lib/profile/insns), as perf
 * annotate --stdio prints them.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/escape.h"
#include "monitor.h"
#include "profile/insns.h"
#include "util/die.h"
#include "util/xmalloc.h"

/* The row of sym with the most samples (of every event), or NULL. */
static const struct top_row *sym_row(struct top *fns, const char *sym)
{
	const struct top_row *r;
	size_t n, i;

	r = top_rows(fns, &TOP_VIEW(.keys = TOP_KEY_SYM, .event = -1), &n);
	if (!r)
		die_nomem();
	for (i = 0; i < n; i++)
		if (r[i].sym && strcmp(r[i].sym, sym) == 0)
			return &r[i];
	return NULL;
}

int annotate_print(struct monitor *m, FILE *out)
{
	const struct top_row *r = sym_row(profile_top(m->prof), m->annotate);
	const struct top_addr *addrs;
	enum sym_cause cause;
	char name[256], dso[512];
	struct insns a;
	size_t n;

	esc_visible(name, sizeof(name), m->annotate);
	if (!r) {
		warn_msg("--annotate %s: no sample in a function of that name "
			 "(the summary lists those sampled)", name);
		return -1;
	}
	esc_visible(dso, sizeof(dso), r->dso);
	if (r->dso[0] == '[') {
		warn_msg("--annotate %s: its code in %s is not a file to read "
			 "(annotate a function of a program or library)",
			 name, dso);
		return -1;
	}
	addrs = top_addrs(profile_top(m->prof), r->sym, r->dso, &n);
	if (insns_build(m->sym, r->dso, addrs, n, &a, &cause) != 0) {
		if (errno == ENOMEM)
			die_nomem();
		if (errno == ENOENT)
			warn_msg("--annotate %s: cannot read its code in %s: %s",
				 name, dso, symbols_cause_advice(cause));
		else
			warn_msg("--annotate %s: %s", name,
				 insns_strerror(errno, cause, &a));
		return -1;
	}
	if (insns_print(&a, r->sym, r->dso, out) != 0) {
		insns_release(&a);
		return -1;
	}
	insns_release(&a);
	return 0;
}
