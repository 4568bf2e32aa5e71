/* SPDX-License-Identifier: GPL-2.0-or-later */
/* die.c - one-line messages and exit codes for the tools. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"

const char *progname = "pctools";
static void (*cleanup)(void);

void die_cleanup(void (*fn)(void))
{
	cleanup = fn;
}

/* The message is out: do the tool's last duty, then exit. */
static void __attribute__((noreturn)) leave(int status)
{
	void (*fn)(void) = cleanup;

	cleanup = NULL;		/* a die() inside it exits at once */
	if (fn)
		fn();
	exit(status);
}

void set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	progname = slash ? slash + 1 : argv0;
}

static void vmessage(const char *fmt, va_list ap, const char *tail)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (tail)
		fprintf(stderr, ": %s", tail);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL);
	va_end(ap);
	leave(1);
}

void die_status(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL);
	va_end(ap);
	leave(status);
}

void die_errno(const char *fmt, ...)
{
	const char *err = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, err);
	va_end(ap);
	leave(1);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see '%s --help')\n", progname);
	va_end(ap);
	leave(2);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL);
	va_end(ap);
}
