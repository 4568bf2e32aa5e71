/* SPDX-License-Identifier: GPL-2.0-or-later */
/* die.c - one-line messages and exit codes for the tools. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/escape.h"
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

/*
 * "progname: message[: tail][suffix]" on one line of stderr.  The message
 * holds what the user typed and names from outside (an argument, a
 * command, a path): it goes through the one sanitiser, so that no byte
 * of it acts on the terminal and a newline in an argument cannot make a
 * second line.
 */
static void vmessage(const char *fmt, va_list ap, const char *tail,
		     const char *suffix)
{
	char small[512], *msg = small, *vis;
	va_list aq;
	int n;

	fflush(stdout);
	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1)) != NULL)
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	else if (msg == NULL)
		msg = small;		/* cut, but said */
	if (n < 0)
		small[0] = '\0';
	/* each byte at most four: \xNN */
	vis = malloc(strlen(msg) * 4 + 1);
	if (vis)
		esc_visible(vis, strlen(msg) * 4 + 1, msg);
	else
		for (char *p = msg; *p; p++)	/* no memory: still one line */
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
	fprintf(stderr, "%s: %s", progname, vis ? vis : msg);
	if (tail)
		fprintf(stderr, ": %s", tail);
	fprintf(stderr, "%s\n", suffix ? suffix : "");
	free(vis);
	if (msg != small)
		free(msg);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL, NULL);
	va_end(ap);
	leave(1);
}

void die_status(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL, NULL);
	va_end(ap);
	leave(status);
}

const char *as_limit_advice(char *buf, size_t size)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return NULL;
	snprintf(buf, size, "the address space is limited to %llu KiB: "
		 "raise 'ulimit -v'", (unsigned long long)rl.rlim_cur / 1024);
	return buf;
}

void die_errno(const char *fmt, ...)
{
	const char *err = strerror(errno);
	char nomem[128], lim[96];
	va_list ap;

	if (errno == ENOMEM) {
		const char *adv = as_limit_advice(lim, sizeof(lim));

		snprintf(nomem, sizeof(nomem), "out of memory%s%s%s",
			 adv ? " (" : "", adv ? adv : "", adv ? ")" : "");
		err = nomem;
	}
	va_start(ap, fmt);
	vmessage(fmt, ap, err, NULL);
	va_end(ap);
	leave(1);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;
	char see[64];

	snprintf(see, sizeof(see), " (see '%s --help')", progname);
	va_start(ap, fmt);
	vmessage(fmt, ap, NULL, see);
	va_end(ap);
	leave(2);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, NULL, NULL);
	va_end(ap);
}
