/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * esc-print.h - write outside strings (names, paths) to a stream through
 * lib/base's escapers, for tools.  Memory runs out: die.
 */
#ifndef UTIL_ESC_PRINT_H
#define UTIL_ESC_PRINT_H

#include <stdio.h>

/* s as a JSON string body (no quotes): base/escape.h's esc_json(). */
void esc_print_json(FILE *f, const char *s);

/*
 * s with control and invalid bytes shown as \xNN: esc_visible().  Every
 * byte of a target (symbol, comm, path) that a tool shows to a person
 * goes through here, or through esc_visible() itself.
 */
void esc_print_visible(FILE *f, const char *s);

/* The same, padded with spaces to width bytes as printf's %*s pads:
   right-aligned for width > 0, left-aligned for width < 0. */
void esc_print_visible_pad(FILE *f, const char *s, int width);

/*
 * s as one field of a CSV line whose fields are separated by sep: shown
 * as esc_visible() shows it (no line break survives), and enclosed in
 * double quotes with each of its own doubled (RFC 4180) when it holds
 * sep or a double quote.
 */
void esc_print_csv(FILE *f, const char *s, const char *sep);

#endif
