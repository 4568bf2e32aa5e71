/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * demangle.c - demangling through libstdc++.
 *
 * libdw does not demangle.  elfutils' own tools link libstdc++ for
 * __cxa_demangle, and so do we: it is the reference implementation of the
 * Itanium ABI, present wherever a C++ program runs, and writing our own
 * would be thousands of lines of grammar to get subtly wrong.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

/* Rust legacy mangling ends its path with "17h" and 16 hex digits. */
static bool rust_legacy_hash(const char *s, size_t len)
{
	size_t i;

	/* "::h" + 16 hex at the end of the demangled form */
	if (len < 19 || memcmp(s + len - 19, "::h", 3) != 0)
		return false;
	for (i = len - 16; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

char *demangle(const char *name)
{
	int status = 0;
	char *out;
	size_t len;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return NULL;
	}
	len = strlen(out);
	if (rust_legacy_hash(out, len))
		out[len - 19] = '\0';
	return out;
}
