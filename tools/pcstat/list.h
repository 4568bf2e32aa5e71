/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.h - `pcstat list` / `pcstat -e list`. */
#ifndef PCSTAT_LIST_H
#define PCSTAT_LIST_H

#include <stdio.h>

#include <sysapi/sysapi.h>

/* Print every named event with its type and whether it opens here. */
void list_events(FILE *f);

#endif
