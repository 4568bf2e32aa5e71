/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h - strict number parsing for option arguments. */
#ifndef UTIL_PARSE_H
#define UTIL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Parse all of str as a decimal (or 0x hex) unsigned number within
 * [min, max].  Returns true and *out, or false for anything else
 * (empty, sign, trailing junk, out of range).
 */
bool parse_u64(const char *str, uint64_t min, uint64_t max, uint64_t *out);

/* The same for int. */
bool parse_int(const char *str, int min, int max, int *out);

#endif
