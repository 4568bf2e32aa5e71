/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * demangle.c - demangling through GNU's demangler.
 *
 * libdw does not demangle.  Writing our own would be thousands of lines
 * of grammar to get subtly wrong: we take the reference implementation of
 * the Itanium ABI, libiberty's cp-demangle.c, linked statically -- the
 * same code libstdc++ builds its __cxa_demangle from, so the names are
 * the same, without loading libstdc++ into every sampler -- or, where
 * libiberty is missing, libstdc++'s __cxa_demangle itself.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"

#ifdef HAVE_LIBIBERTY_DEMANGLE
#include <libiberty/demangle.h>

/* The options __cxa_demangle gives the same code (cp-demangle.c). */
static char *cxx_demangle(const char *name)
{
	return cplus_demangle_v3(name, DMGL_PARAMS | DMGL_TYPES);
}
#else
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
			    int *status);

static char *cxx_demangle(const char *name)
{
	int status = 0;
	char *out = __cxa_demangle(name, NULL, NULL, &status);

	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}
#endif

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
	char *out;
	size_t len;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	out = cxx_demangle(name);
	if (!out)
		return NULL;
	len = strlen(out);
	if (rust_legacy_hash(out, len))
		out[len - 19] = '\0';
	return out;
}
