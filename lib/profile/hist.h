/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hist.h - a histogram of samples by (function, DSO): the "top functions"
 * table monitor prints on exit and kerneltop shows live.
 */
#ifndef PROFILE_HIST_H
#define PROFILE_HIST_H

#include <stddef.h>
#include <stdint.h>

struct hist;

struct hist_entry {
	const char *sym;	/* function, or "dso+0xoff"-style text */
	const char *dso;
	uint64_t count;
};

/* An empty histogram, or NULL with errno ENOMEM. */
struct hist *hist_new(void);
void hist_free(struct hist *h);

/*
 * Count weight more samples for (sym, dso); both strings are copied, so
 * they may die after the call.  Returns 0, or -1 with errno ENOMEM.
 */
int hist_add(struct hist *h, const char *sym, const char *dso,
	     uint64_t weight);

/* Sum of all weights added. */
uint64_t hist_total(const struct hist *h);

/*
 * The entries, largest count first (ties by name), in an array owned by h
 * that stays valid until the next hist_add or hist_free.  *n gets the
 * number of entries.  NULL with errno ENOMEM.
 */
const struct hist_entry *hist_sorted(struct hist *h, size_t *n);

#endif
