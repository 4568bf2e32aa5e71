/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.c - the curses side of kerneltop: the terminal set up and always
 * given back (q, SIGINT, SIGTERM, SIGHUP, fatal errors), the loop that
 * samples, refreshes and reads keys, and the table of screens.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "tui.h"

#include <term.h>	/* after tui.h: it defines "lines" and "columns" */
#include "util/die.h"

static const struct screen_ops screens[SCREEN_MAX] = {
	[SCREEN_MAIN] = { view_main_draw, view_main_key },
	[SCREEN_HELP] = { view_help_draw, view_help_key },
	[SCREEN_THREADS] = { view_threads_draw, view_threads_key },
	[SCREEN_ANNOTATE] = { view_annotate_draw, view_annotate_key },
	[SCREEN_HEALTH] = { view_health_draw, view_health_key },
	[SCREEN_CALLTREE] = { view_calltree_draw, view_calltree_key },
};

static SCREEN *term;
static FILE *tty_in;
static bool tty_utf8;		/* the terminal's locale is UTF-8 */

/* Give the terminal back; safe to call twice (atexit after a die()). */
static void tui_restore(void)
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

void tui_check_terminal(void)
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

static void tui_init(void)
{
	/* the stop signals are caught (session_open()) before curses
	   starts, so that it leaves them to us */
	/* main() took LC_CTYPE from the environment: curses draws UTF-8
	   only in a UTF-8 locale; elsewhere tui_line() escapes it */
	tty_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	/* keys come from the terminal even when stdin is redirected */
	tty_in = isatty(STDIN_FILENO) ? stdin : fopen("/dev/tty", "r");
	term = newterm(NULL, stdout, tty_in ? tty_in : stdin);
	if (!term)
		die("cannot use the terminal (TERM=%s)", getenv("TERM"));
	atexit(tui_restore);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
}

void tui_line(int y, const char *s, attr_t attr)
{
	char ascii[4 * KT_LINE];
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

bool tui_too_small(void)
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

bool tui_navigate(int ch, size_t *sel, size_t n, size_t page)
{
	size_t last = n ? n - 1 : 0;

	switch (ch) {
	case KEY_UP: case 'k':
		if (*sel > 0)
			(*sel)--;
		break;
	case KEY_DOWN: case 'j':
		if (*sel < last)
			(*sel)++;
		break;
	case KEY_PPAGE:
		*sel = *sel > page ? *sel - page : 0;
		break;
	case KEY_NPAGE:
		*sel = *sel + page < last ? *sel + page : last;
		break;
	case KEY_HOME: case 'g':
		*sel = 0;
		break;
	case KEY_END: case 'G':
		*sel = last;
		break;
	default:
		return false;
	}
	return true;
}

void tui_scroll(size_t *sel, size_t *first, size_t n, size_t page)
{
	if (*sel >= n)
		*sel = n ? n - 1 : 0;
	if (page == 0)
		page = 1;
	if (*sel < *first)
		*first = *sel;
	else if (*sel >= *first + page)
		*first = *sel - page + 1;
}

static void draw(struct tui *t)
{
	erase();
	if (!tui_too_small())
		screens[t->screen].draw(t);
	refresh();
}

/* Keys waiting, each to the screen showing; true when any came. */
static bool read_keys(struct tui *t)
{
	bool any = false;
	int ch;

	while (!t->quit && (ch = getch()) != ERR) {
		any = true;
		if (ch == KEY_RESIZE)
			continue;	/* the redraw below fits the new size */
		screens[t->screen].key(t, ch);
	}
	return any;
}

int tui_run(struct kt *kt)
{
	struct tui t = { .kt = kt };
	double start, next, last, last_draw;
	struct pollfd pfd;
	bool behind = false;

	tui_init();
	start = last = last_draw = now_s();
	next = start + kt->opt.delay;
	pfd.fd = tty_in ? fileno(tty_in) : -1;
	pfd.events = POLLIN;
	draw(&t);
	while (!t.quit && !kt_stop) {
		double now = now_s(), wait = next - now;
		bool redraw;

		if (wait > 0.1)
			wait = 0.1;
		/* behind: keys are looked at, and what is left read, at once */
		if (wait < 0 || behind)
			wait = 0;
		if (poll(&pfd, 1, behind ? 0 : (int)(wait * 1000) + 1) < 0 &&
		    errno != EINTR)
			die_errno("cannot wait for keys");
		redraw = read_keys(&t);
		if (t.quit || kt_stop)
			break;
		behind = session_drain(kt);
		behind |= session_background(kt);
		now = now_s();
		if (now >= next) {
			session_tick(kt, now - last);
			last = now;
			if (!kt->paused) {	/* paused: sampling goes on */
				draw(&t);
				last_draw = now;
			}
			redraw = false;
			/* a target that has ended leaves its last table */
			if (!kt->ended)
				session_age(kt);
			next += kt->opt.delay;
			if (next < now)
				next = now + kt->opt.delay;
		} else if (kt->frames == 0 && now - last_draw >= 0.1) {
			/* the first frame fills as the samples arrive */
			session_tick(kt, now - last);
			last = now;
			redraw = true;
		}
		if (redraw) {
			draw(&t);
			last_draw = now;
		}
	}
	annotate_release(&t.ann);
	free(t.cg_open);
	free(t.cg_vis);
	tui_restore();
	if (kt->ended)
		warn_msg("%s", kt->ended_msg);
	session_lost_say(kt);
	return 0;
}
