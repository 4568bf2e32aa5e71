/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rings.h - why the sample rings could not be mapped, in words, for the
 * tools that sample (monitor, kerneltop): one text for both.
 */
#ifndef SAMPLING_CLI_RINGS_H
#define SAMPLING_CLI_RINGS_H

#include <stddef.h>

/*
 * Explain err, from mapping a ring (the feed's errno when it failed with
 * no counter to blame), into buf: strerror(err), then what is wrong and
 * the fix.  EPERM: over the locked-memory limit, what
 * kernel.perf_event_mlock_kb gives each user per CPU and 'ulimit -l'
 * beyond it (not perf_event_paranoid: the counters opened); ENOMEM: the
 * address space, 'ulimit -v'.  Returns buf.
 */
const char *rings_strerror(int err, char *buf, size_t size);

#endif
