/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-keys.h - the -s trace keys (trace-keys.c).
 */
#ifndef KERNELTOP_TRACE_KEYS_H
#define KERNELTOP_TRACE_KEYS_H

#include <stddef.h>

#include <sysapi/sysapi.h>

struct kt;

/* trace-keys.c: the -s trace keys' columns from the events' formats
   (the samples then carry their records), and a sample's key text. */
void trace_keys_setup(struct kt *kt);
const char *trace_keys_text(struct kt *kt, const struct pc_sample *s,
			    unsigned event, char *buf, size_t size);

#endif
