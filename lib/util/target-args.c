/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target-args.c - -p/-t and -C, checked alike in every tool. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysapi/sysapi.h>

#include "base/strbuf.h"
#include "util/die.h"
#include "util/parse.h"
#include "util/target-args.h"
#include "util/xmalloc.h"

void target_arg_ids(const char *arg, char opt, pid_t **ids, size_t *n)
{
	const char *what = opt == 't' ? "thread" : "process";
	char *copy = xstrdup(arg), *tok, *save = NULL;
	size_t before = *n;
	int id;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!parse_int(tok, 1, INT32_MAX, &id))
			usage_error("-%c needs %s ids, not '%s'", opt, what,
				    tok);
		ids_add_once(ids, n, id);
	}
	free(copy);
	if (*n == before)
		usage_error("-%c needs %s ids, e.g. 123,456", opt, what);
}

void target_arg_cpus(const char *arg, int **cpus, size_t *n)
{
	int *online = NULL, *list = NULL, nlist, nonline, i, j;
	char names[256] = "";
	size_t len = 0;

	nlist = pc_cpulist_parse(arg, &list, NULL);
	if (nlist <= 0)
		usage_error("-C needs a CPU list such as 0-3,5, not '%s'", arg);
	nonline = pc_cpus_online(&online);
	for (i = 0; i < nlist; i++) {
		for (j = 0; j < nonline && online[j] != list[i]; j++)
			;
		if (j < nonline)
			continue;
		for (j = 0; j < nonline; j++)
			str_append(names, sizeof(names), &len, "%s%d",
				   j ? "," : "", online[j]);
		die_status(2, "CPU %d is not online (online CPUs: %s)",
			   list[i], names);
	}
	free(online);
	free(*cpus);
	*cpus = list;
	*n = (size_t)nlist;
}
