/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kerneltop.c - a constantly updated profile of the whole machine, or of
 * chosen tasks, by whatever a counter samples: the 2008 demo as a live,
 * symbolized ncurses TUI, or plain-text frames with -b.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "kerneltop.h"
#include "util/die.h"

/*
 * A standard descriptor that is closed would be handed to the first
 * counter we open, and output meant for the terminal would go there.
 */
static void check_std_fds(void)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0)
		die("standard output is closed (run kerneltop with its output "
		    "on a terminal, a file or a pipe)");
	if (fcntl(STDERR_FILENO, F_GETFD) < 0 ||
	    fcntl(STDIN_FILENO, F_GETFD) < 0) {
		int fd = open("/dev/null", O_RDWR);

		/* fill the closed slots, so no counter lands there */
		while (fd >= 0 && fd <= STDERR_FILENO)
			fd = dup(fd);
	}
}

int main(int argc, char **argv)
{
	struct kt kt = { .frames = 0 };
	int rc;

	set_progname(argv[0]);
	check_std_fds();
	options_parse(&kt.opt, argc, argv);
	if (!kt.opt.batch)
		tui_check_terminal();
	session_open(&kt);
	rc = kt.opt.batch ? batch_run(&kt) : tui_run(&kt);
	if (kt_exports_write(&kt) != 0)
		rc = 1;
	session_close(&kt);
	return rc;
}
