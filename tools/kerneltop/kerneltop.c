/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kerneltop.c - a constantly updated profile of the whole machine, or of
 * chosen tasks, by whatever a counter samples: the 2008 demo as a live,
 * symbolized ncurses TUI, or plain-text frames with -b.
 */
#include "config.h"

#include <locale.h>
#include <unistd.h>

#include "batch.h"
#include "exports.h"
#include "kt.h"
#include "options.h"
#include "session.h"
#include "term.h"
#include "tui.h"
#include "util/die.h"
#include "util/fd-limit.h"
#include "util/output.h"

int main(int argc, char **argv)
{
	struct kt kt = { .frames = 0 };
	int rc;

	set_progname(argv[0]);
	/* names in the target's UTF-8 drawn as text and cut by display
	   width (wcwidth); numbers keep the C locale's format */
	setlocale(LC_CTYPE, "");
	std_fds_guard();
	fd_limit_raise();
	std_fd_require(STDOUT_FILENO, "run kerneltop with its output on a "
		       "terminal, a file or a pipe");
	options_parse(&kt.opt, argc, argv);
	if (!kt.opt.batch)
		term_check();
	session_open(&kt);
	rc = kt.opt.batch ? batch_run(&kt) : tui_run(&kt);
	/* said once the terminal is restored */
	if (kt.failed[0]) {
		warn_msg("%s", kt.failed);
		rc = 1;
	}
	if (kt_exports_write(&kt) != 0)
		rc = 1;
	session_close(&kt);
	return rc;
}
