/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * term.c - the terminal under kerneltop's screens: checked before the
 * session opens, set up, always given back (q, SIGINT, SIGTERM, SIGHUP,
 * fatal errors), and the lines the screens draw, cut to its width.
 */
#include "config.h"

#include <fcntl.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "term.h"

#include <term.h>	/* ncurses's, last: it defines "lines" and "columns" */
#include "util/die.h"

static SCREEN *term;
static FILE *tty_in;
static bool tty_utf8;		/* the terminal's locale is UTF-8 */

void term_restore(void)
{
	if (!term)
		return;
	endwin();
	delscreen(term);
	term = NULL;
	if (tty_in && tty_in != stdin)
		fclose(tty_in);
	tty_in = NULL;
}

void term_check(void)
{
	const char *name = getenv("TERM");
	char *cup;
	int err = 0, fd;

	if (!name || !*name)
		die("cannot use the terminal: TERM is %s (set TERM, e.g. "
		    "TERM=xterm, or use -b)", name ? "empty" : "unset");
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		if (err == 0)
			die("cannot use the terminal: TERM=%s is not in the "
			    "terminfo database (set TERM, e.g. TERM=xterm, "
			    "or use -b)", name);
		die("cannot use the terminal: no terminfo database (install "
		    "ncurses-base, or use -b)");
	}
	/* a table redrawn in place needs the cursor moved: TERM=dumb, a
	   printing terminal, would get a heap of lines */
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (cup == NULL || cup == (char *)-1)
		die("cannot use the terminal: TERM=%s cannot move the cursor "
		    "(set TERM to the terminal's type, e.g. TERM=xterm, or "
		    "use -b)", name);
	/* q and the other keys come from stdin or /dev/tty: with neither
	   (no controlling terminal) nothing but kill(1) would end us */
	if (!isatty(STDIN_FILENO)) {
		fd = open("/dev/tty", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("cannot read keys: standard input is not a "
			    "terminal and there is no controlling terminal "
			    "(run kerneltop from a terminal, or use -b)");
		close(fd);
	}
}

void term_init(void)
{
	/* the stop signals are caught (session_open()) before curses
	   starts, so that it leaves them to us */
	/* main() took LC_CTYPE from the environment: curses draws UTF-8
	   only in a UTF-8 locale; elsewhere term_line() escapes it */
	tty_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	/* keys come from the terminal even when stdin is redirected */
	tty_in = isatty(STDIN_FILENO) ? stdin : fopen("/dev/tty", "r");
	term = newterm(NULL, stdout, tty_in ? tty_in : stdin);
	if (!term)
		die("cannot use the terminal (TERM=%s)", getenv("TERM"));
	atexit(term_restore);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
}

int term_key_fd(void)
{
	return tty_in ? fileno(tty_in) : -1;
}

void term_line(int y, const char *s, attr_t attr)
{
	char ascii[4 * TERM_LINE];
	size_t n, w;

	if (y < 0 || y >= LINES)
		return;
	if (!tty_utf8) {
		esc_visible_ascii(ascii, sizeof(ascii), s);
		s = ascii;
	}
	/* cut by display width: a wide character at the edge would wrap
	   onto the next line */
	n = esc_fit(s, COLS > 0 ? (size_t)COLS : 0, &w);
	move(y, 0);
	clrtoeol();
	if (attr)
		attron(attr);
	addnstr(s, (int)n);
	if (attr & A_REVERSE) {		/* a bar the whole width */
		for (; w < (size_t)COLS; w++)
			addch(' ');
	}
	if (attr)
		attroff(attr);
}

bool term_too_small(void)
{
	char msg[96];

	if (COLS >= TUI_MIN_COLS && LINES >= TUI_MIN_LINES)
		return false;
	snprintf(msg, sizeof(msg), "terminal too small (%dx%d); need at "
		 "least %dx%d", COLS, LINES, TUI_MIN_COLS, TUI_MIN_LINES);
	erase();
	mvaddnstr(0, 0, msg, COLS);
	return true;
}

const char *term_padded(char *buf, size_t size, const char *s, size_t cols)
{
	size_t w = esc_width(s);

	snprintf(buf, size, "%s%*s", s, w < cols ? (int)(cols - w) : 0, "");
	return buf;
}

int term_wrapped(int y, int ymax, const char *lead, const char *text)
{
	int indent = (int)strlen(lead), room = COLS - indent;
	char line[TERM_LINE];
	bool first = true;

	if (room < 10)
		room = 10;
	while (*text && y < ymax) {
		size_t cut = esc_fit(text, (size_t)room, NULL), sp = cut;

		if (text[cut]) {	/* more to come: cut at the last space */
			while (sp && text[sp] != ' ')
				sp--;
			if (sp)
				cut = sp;
		}
		snprintf(line, sizeof(line), "%-*s%.*s", indent,
			 first ? lead : "", (int)cut, text);
		first = false;
		term_line(y++, line, 0);
		text += cut;
		while (*text == ' ')
			text++;
	}
	return y;
}
