/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exports.h - kerneltop's exports (exports.c): the chains written out.
 */
#ifndef KERNELTOP_EXPORTS_H
#define KERNELTOP_EXPORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

struct kt;

/* `S': the chains the table shows now as an SVG flame graph,
   ./kerneltop-DATE-TIME.svg; what was done, or why not, into msg. */
void kt_snapshot(struct kt *kt, enum kt_measure measure, char *msg,
		 size_t size);
/* --export-every: the interval's snapshots when due (last: now, the end
   of the run); -1 when one failed, msg then says it. */
int kt_exports_tick(struct kt *kt, bool last, char *msg, size_t size);
/* At exit: the last snapshot, and the exports of the command line, of
   every sample since the start; -1 when one failed (said on stderr). */
int kt_exports_write(struct kt *kt);

#endif
