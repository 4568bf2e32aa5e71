/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.h - run (or attach to) the measured work and collect its counts. */
#ifndef PCSTAT_RUN_H
#define PCSTAT_RUN_H

#include "pcstat.h"
#include "stat.h"

/* Block the signals pcstat waits for; call once, before any run. */
void run_signals_init(void);

/*
 * One measured run: fork the command (if any), open cs, count until the
 * command ends (or SIGINT, --timeout, --interval-count), read cs.  In
 * interval mode prints each interval itself (st is scratch space).
 * The caller owns cs afterwards (cset_release()).  Exits 127/126 with a
 * message when the command cannot be executed.
 */
void run_once(const struct config *cfg, struct cset *cs, struct stats *st,
	      struct run_result *res);

#endif
