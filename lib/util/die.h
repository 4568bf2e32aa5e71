/* SPDX-License-Identifier: GPL-2.0-or-later */
/* die.h - messages and exits for tools: "prog: what is wrong (fix)". */
#ifndef UTIL_DIE_H
#define UTIL_DIE_H

#include <stdarg.h>
#include <stddef.h>

/* Set once from main(); messages start with it. */
extern const char *progname;
void set_progname(const char *argv0);

/* Print "progname: message" to stderr and exit 1. */
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* "progname: message" plus ": strerror(errno)", exit 1; for ENOMEM,
   ": out of memory" and as_limit_advice() in parentheses. */
void die_errno(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* A usage error: "progname: message (see 'progname --help')", exit 2. */
void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* Like die() with an explicit exit status. */
void die_status(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/*
 * fn runs once, before die(), die_errno(), die_status() or usage_error()
 * exits: the tool's last duty on failure (spawn_end_started(): a command
 * it started is not left running).  One at a time; NULL removes it.
 */
void die_cleanup(void (*fn)(void));

/*
 * "the address space is limited to N KiB: raise 'ulimit -v'" in buf when
 * 'ulimit -v' holds a limit (then the limit, not the machine, is what an
 * ENOMEM ran out of); NULL when there is none.
 */
const char *as_limit_advice(char *buf, size_t size);

/* "progname: message" to stderr, and go on. */
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
