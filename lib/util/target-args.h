/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target-args.h - what a tool watches, as its command line names it:
 * -p/-t lists of ids and -C lists of CPUs, one rule and one message each
 * for every tool (pcstat, kerneltop).  For tools: these exit on bad input.
 */
#ifndef UTIL_TARGET_ARGS_H
#define UTIL_TARGET_ARGS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * -p or -t (opt): "ID[,ID...]" appended to *ids (*n of them), each id
 * once however often it is named.  Anything but positive decimal ids,
 * or no id at all, exits 2: "-p needs process ids, not 'x'" (thread ids
 * for -t), with usage_error()'s pointer to --help.  Memory runs out:
 * die.
 */
void target_arg_ids(const char *arg, char opt, pid_t **ids, size_t *n);

/*
 * -C: "0,2-3" into a malloc'd array of CPUs in *cpus (the list it held
 * is freed: the last -C counts, as perf's), their number in *n.  A
 * malformed list exits 2 ("-C needs a CPU list such as 0-3,5"), and so
 * does a CPU that is not online, naming those that are.
 */
void target_arg_cpus(const char *arg, int **cpus, size_t *n);

#endif
