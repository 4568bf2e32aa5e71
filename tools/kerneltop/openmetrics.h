/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openmetrics.h - kerneltop --openmetrics (openmetrics.c).
 */
#ifndef KERNELTOP_OPENMETRICS_H
#define KERNELTOP_OPENMETRICS_H

struct kt;

/* openmetrics.c: --openmetrics FILE rewritten with the figures of the
   refresh.  Returns 0, or -1 with errno. */
int kt_openmetrics_write(struct kt *kt);

#endif
