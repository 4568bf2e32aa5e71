/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-output.c - output that cannot be written is an error, and a pipe
 * whose reader has gone is told apart from it, however the failure came:
 * at our fflush(), or earlier, inside a printf that filled the buffer
 * (glibc then drops the data and keeps no errno).  Each case runs in a
 * child, since a failing check exits.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/die.h"
#include "util/output.h"
#include "../check.h"

enum how { QUIET, CHECK_ONLY, NOTED };

/*
 * Write len bytes to a stream on target ("pipe-gone": a pipe whose
 * reader is closed; "full": /dev/full), then ask output_reader_gone()
 * (QUIET) or output_check() (CHECK_ONLY; NOTED: after output_note()).  Returns the child's exit
 * status: 0 when the reader was reported gone, 3 when all was written,
 * 1 when the check died; its message goes into err.
 */
static int run(const char *target, size_t len, enum how how, char *err,
	       size_t errsz)
{
	int e[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(e) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		FILE *f;
		char *buf = malloc(len + 1);
		int p[2];

		dup2(e[1], STDERR_FILENO);
		close(e[0]);
		signal(SIGPIPE, SIG_IGN);
		if (strcmp(target, "full") == 0) {
			f = fopen("/dev/full", "w");
		} else {
			if (pipe(p) != 0)
				_exit(9);
			close(p[0]);
			f = fdopen(p[1], "w");
		}
		if (!f || !buf)
			_exit(9);
		setvbuf(f, NULL, _IOFBF, 4096);
		memset(buf, 'x', len);
		buf[len] = '\0';
		fputs(buf, f);		/* > 4096: flushed inside, and fails */
		if (how == NOTED)
			output_note(f);
		if (how == QUIET)
			_exit(output_reader_gone(f, "the pipe") ? 0 : 3);
		output_check(f, "the pipe");
		_exit(3);
	}
	close(e[1]);
	err[0] = '\0';
	for (size_t have = 0; have < errsz - 1; have += (size_t)n) {
		n = read(e[0], err + have, errsz - 1 - have);
		if (n <= 0)
			break;
		err[have + (size_t)n] = '\0';
	}
	close(e[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	static const struct {
		const char *target;
		size_t len;
		enum how how;
		int want;		/* exit status */
		const char *msg;	/* in the message; NULL: none */
	} cases[] = {
		/* the failed write at our fflush() */
		{ "pipe-gone", 100, QUIET, 0, NULL },
		/* inside fputs, the data dropped: only ferror() is left */
		{ "pipe-gone", 10000, QUIET, 0, NULL },
		{ "pipe-gone", 100, CHECK_ONLY, 1, "the pipe: Broken pipe" },
		{ "pipe-gone", 10000, CHECK_ONLY, 1, "the pipe: Broken pipe" },
		/* a full disk is an error either way */
		{ "full", 100, QUIET, 1, "No space left on device" },
		{ "full", 10000, QUIET, 1, "cannot write to the pipe" },
		{ "full", 100, CHECK_ONLY, 1, "No space left on device" },
		/* the errno of a failure inside fputs, kept by output_note */
		{ "full", 10000, NOTED, 1, "the pipe: No space left on device" },
		{ "pipe-gone", 10000, NOTED, 1, "the pipe: Broken pipe" },
	};
	char err[512];

	set_progname("test-output");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = run(cases[i].target, cases[i].len, cases[i].how,
			      err, sizeof(err));

		CHECK(got == cases[i].want, "%s, %zu bytes, %s: exit %d, want "
		      "%d (%s)", cases[i].target, cases[i].len,
		      cases[i].how == QUIET ? "reader_gone" :
		      cases[i].how == NOTED ? "noted, check" : "check", got,
		      cases[i].want, err);
		if (cases[i].msg)
			CHECK(strstr(err, cases[i].msg) != NULL,
			      "%s, %zu bytes: message '%s', want '%s'",
			      cases[i].target, cases[i].len, err,
			      cases[i].msg);
		else
			CHECK(err[0] == '\0', "%s, %zu bytes: said '%s'",
			      cases[i].target, cases[i].len, err);
	}
	return check_done();
}
