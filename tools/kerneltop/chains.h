/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chains.h - a row's call graph as perf top --stdio prints it
 * (chains.c).
 */
#ifndef KERNELTOP_CHAINS_H
#define KERNELTOP_CHAINS_H

#include <stdio.h>

#include "profile/top.h"

struct kt;
struct kt_table;

/* chains.c: under row r of table tb, its call graph as perf top
   --stdio prints it (--call-graph's print type, threshold, limit and
   order); nothing without -g, or for a row that is no function. */
void chains_print(const struct kt *kt, const struct kt_table *tb,
		  const struct top_row *r, FILE *out);

#endif
