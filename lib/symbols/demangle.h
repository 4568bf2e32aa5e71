/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* demangle.h - C++ (Itanium ABI) and Rust legacy symbol names, readable. */
#ifndef SYMBOLS_DEMANGLE_H
#define SYMBOLS_DEMANGLE_H

/*
 * The readable form of a mangled name, as a string the caller frees, or
 * NULL when name is not mangled (or cannot be demangled: use it as is).
 * C++ "_Z..." goes through libstdc++'s __cxa_demangle; Rust legacy names
 * ("_ZN...17h<16 hex>E") lose their trailing hash as rustfilt prints them.
 * Rust v0 ("_R...") names are not demangled (returned as NULL).
 */
char *demangle(const char *name);

#endif
