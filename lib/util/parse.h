/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h - strict number parsing for option arguments. */
#ifndef UTIL_PARSE_H
#define UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Parse all of str as a decimal (leading zeros are not octal: "010" is
 * ten) or 0x hex unsigned number within
 * [min, max].  Returns true and *out, or false for anything else
 * (empty, sign, trailing junk, out of range).
 */
bool parse_u64(const char *str, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Parse all of str as a decimal fraction ("2", "0.5", ".5") within [min,
 * max]: digits and at most one '.', whatever the locale; no sign,
 * exponent, hex, blank, "inf" or "nan".  Returns true and *out, or false.
 */
bool parse_fraction(const char *str, double min, double max, double *out);

/* The same for int. */
bool parse_int(const char *str, int min, int max, int *out);

/*
 * Append id to the array *ids of *n entries unless it is there already:
 * a target named twice (-p X,X) is one target, counted once.  Returns
 * whether it was added.  Memory runs out: die.
 */
bool ids_add_once(pid_t **ids, size_t *n, pid_t id);

#endif
