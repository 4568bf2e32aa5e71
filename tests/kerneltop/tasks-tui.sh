#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tasks-tui.sh - the task screen (`T') on a real terminal (a private tmux
# server, as tui.sh drives the others), on kt-helper's threads kt-alpha
# and kt-beta, which take turns at 2:1 of CPU time: T opens it with a row
# per thread, kt-alpha above kt-beta by %CPU; s cycles the sort column
# (the status line names it; by COMMAND the names ascend, r descends);
# / filters by name, u by user (nobody: no row; root: back); H rolls the
# threads up into the process; Enter zooms the profile into the
# highlighted thread (kt-beta: kt_beta's rows only) and Esc comes back
# to the table, unzoomed; q goes back to the profile, q again quits with
# the terminal as it was.  The task counters are kerneltop's perf_event
# descriptors beyond the profile's: opened with the screen, kept through
# the zoom, closed when it is left.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop tmux perf_event

H="$top_builddir/tests/kerneltop/kt-helper"

# trows: the task rows of the last capture (after the column header)
trows() {
	awk '/^ +PID +(TID|THR) +USER / { t = 1; next }
	     t && /^[ >]*[0-9]+ +[0-9]+ / { print }' tt.screen
}
# comms: their COMMAND column
comms() {
	trows | awk '{ print $NF }'
}
first_is() {
	[ "$(trows | awk 'NR == 1 { print $NF }')" = "$1" ]
}
sorted_up() {
	[ "$(comms | wc -l)" -ge 3 ] && comms | sort -c 2>/dev/null
}
sorted_down() {
	[ "$(comms | wc -l)" -ge 3 ] && comms | sort -r -c 2>/dev/null
}
only() {
	[ "$(comms | sort -u | tr '\n' ' ')" = "$1 " ]
}
poll() {
	local secs=$1
	shift
	retry "$secs" screen_then "$@"
}
screen_then() {
	screen tt > /dev/null
	"$@"
}

spawn_ready "$H" threads 0 || fail "threads helper did not start"
set -- $ready
tp=$1 ta=$2 tb=$3

# pefds: the perf_event descriptors kerneltop holds
pefds() {
	ls -l /proc/"$(cat "$tmpdir/tt.pid" 2>/dev/null)"/fd 2>/dev/null |
		grep -c 'perf_event'
}
fds_are() {
	[ "$(pefds)" -eq "$1" ]
}
fds_above() {
	[ "$(pefds)" -gt "$1" ]
}

kt_start tt 120 40 -d 0.5 -e cpu-clock -p "$tp"
wait_screen tt '^ *Overhead ' 5 || fail "no main screen: $(head -5 "$tmpdir/tt.screen")"
fd0=$(pefds)
[ "$fd0" -gt 0 ] || fail "no perf_event descriptor found in kerneltop"
keys tt T
if wait_screen tt '^kerneltop tasks: ' 5 && wait_screen tt '^ +PID +TID +USER +%CPU +CTXSW/s +MIGR/s +FAULTS/s' 3; then
	ok "T: the task table"
else
	fail "T: $(head -6 "$tmpdir/tt.screen")"
fi
# %CPU: kt-alpha (2/3 of the turns) above kt-beta
poll 10 first_is kt-alpha && comms | grep -qx kt-beta &&
	ok "by %CPU: kt-alpha first, kt-beta shown" || fail "by %CPU: $(trows | tr -s ' \n' ' ')"
retry 10 fds_above "$fd0" &&
	ok "the task counters: $(pefds) perf_event descriptors, $fd0 before" ||
	fail "no task counter opened: $(pefds) descriptors, $fd0 before"

# s: the next column shown each time, said on the status line; COMMAND
# is the last of the 13, or of the 8 without the hardware ones (no PMU:
# a column not shown is no order to pick)
keys tt s
wait_screen tt 'sort: CTXSW/s' 3 && ok "s: sort by CTXSW/s" || fail "s: '$(sed -n 3p "$tmpdir/tt.screen")'"
if grep -q 'hardware events not supported' "$tmpdir/tt.screen"; then
	keys tt s s s
	wait_screen tt 'sort: PID' 3 && ok "no PMU: s skips the hardware columns" ||
		fail "no PMU: s: '$(sed -n 3p "$tmpdir/tt.screen")' after FAULTS/s (want PID)"
	keys tt s s s
else
	i=2
	while [ $i -le 12 ]; do keys tt s; i=$((i + 1)); done
fi
wait_screen tt 'sort: COMMAND' 3 && poll 5 sorted_up &&
	ok "by COMMAND: $(comms | tr '\n' ' ')" || fail "by COMMAND: $(comms | tr '\n' ' ')"
keys tt r
poll 5 sorted_down && ok "r: reversed" || fail "r: $(comms | tr '\n' ' ')"
keys tt r

# / a name
keys tt / beta Enter
poll 5 only kt-beta && ok "/ beta: kt-beta alone" || fail "/ beta: $(comms | tr '\n' ' ')"
keys tt / Enter
poll 5 only "kt-alpha kt-beta kt-helper" || fail "/ cleared: $(comms | tr '\n' ' ')"
# u a user
keys tt u nobody Enter
poll 5 screen_has tt 'no task to show' && ok "u nobody: no row" || fail "u nobody: $(comms | tr '\n' ' ')"
keys tt u root Enter
poll 5 only "kt-alpha kt-beta kt-helper" && ok "u root: the rows back" || fail "u root: $(comms | tr '\n' ' ')"
keys tt u Enter

# H: a row per process, its threads in THR
keys tt H
proc_row() {
	trows | awk -v p="$tp" '$1 == p && $2 == 3 { ok = 1 } END { exit !(ok && NR == 1) }'
}
wait_screen tt '^ +PID +THR ' 3 && poll 5 proc_row &&
	ok "H: one row, pid $tp, 3 threads" || fail "H: $(trows | tr -s ' \n' ' ')"
keys tt H
wait_screen tt '^ +PID +TID ' 3 || fail "H again: $(sed -n 4p "$tmpdir/tt.screen")"

# Enter on kt-beta: the profile zoomed into it; Esc: back, unzoomed
keys tt / beta Enter
poll 5 only kt-beta || fail "/ beta again: $(comms | tr '\n' ' ')"
keys tt Enter
if wait_screen tt "thread: $tb \\(kt-beta\\)" 5 && wait_screen tt ' kt_beta ' 5; then
	screen tt | grep -q ' kt_alpha ' && fail "zoom: kt_alpha still shown" ||
		ok "Enter: the profile of thread $tb (kt-beta)"
else
	fail "Enter: $(head -6 "$tmpdir/tt.screen")"
fi
keys tt Escape
wait_screen tt '^kerneltop tasks: ' 3 && poll 5 only kt-beta &&
	ok "Esc: back to the task table" || fail "Esc: $(head -4 "$tmpdir/tt.screen")"
fds_above "$fd0" || fail "the task counters closed in the zoom: $(pefds) descriptors"
keys tt / Enter
keys tt q
wait_screen tt '^ *Overhead ' 3 && wait_screen_not tt 'thread: ' 3 &&
	ok "q: back to the profile, unzoomed" || fail "q: $(head -4 "$tmpdir/tt.screen")"
retry 10 fds_are "$fd0" &&
	ok "the task counters closed with the screen: $fd0 descriptors" ||
	fail "left the task screen: $(pefds) perf_event descriptors, $fd0 before"
# T again: counted afresh
keys tt T
wait_screen tt '^kerneltop tasks: ' 3 && poll 10 first_is kt-alpha &&
	retry 10 fds_above "$fd0" &&
	ok "T again: the table and its counters back" ||
	fail "T again: $(pefds) descriptors: $(head -6 "$tmpdir/tt.screen")"
keys tt q
wait_screen tt '^ *Overhead ' 3 || fail "q: $(head -4 "$tmpdir/tt.screen")"
keys tt q
rc=$(kt_wait_exit tt 10)
[ "$rc" = 0 ] && stty_same tt && ok "q: exit 0, stty -a unchanged" ||
	fail "quit: rc '$rc'"

exit $((nfail > 0))
