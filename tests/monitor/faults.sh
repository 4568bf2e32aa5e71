#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# faults.sh - monitor's fault catalogue: how monitor fails, one row per
# bad input or fault, {exit status, message pattern, the fault}.  Read the
# table as documentation (monitor(1), DIAGNOSTICS, points here).
. "$top_srcdir/tests/test-subr.sh"
need perf_event root setpriv

H="$top_builddir/tests/monitor/mon-helper"
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
# every run bounded: a hang shows as status 124
mon() { timeout -k 5 60 "$MONITOR" "$@"; }

# A JIT without its map: the test writes, or plants, /tmp/perf-PID.map.
spawn_ready "$H" jitbare 600000 || fail "no JIT helper"
set -- $ready
jp=$1 jaddr=$2
map=/tmp/perf-$jp.map
at_exit "rm -rf $map"
# a second one, run by nobody
spawn_ready $nobody "$H" jitbare 600000 || fail "no JIT helper as nobody"
set -- $ready
np=$1 naddr=$2
at_exit "rm -rf /tmp/perf-$np.map"

# plant KIND: what anyone may have put at $map before the JIT wrote it
plant() {
	rm -rf "$map"
	case $1 in
	fifo) mkfifo "$map" ;;
	zero) ln -s /dev/zero "$map" ;;
	dir) mkdir "$map" ;;
	nobody) echo "$jaddr 10 planted_by_nobody" > "$map"
		chown 65534:65534 "$map" ;;
	long) { printf '%s 10 ' "$jaddr"
		head -c 5000 /dev/zero | tr '\0' x; echo; } > "$map" ;;
	good) echo "$jaddr 10 jitted_spin" > "$map" ;;
	evil) printf '%s 10 ev\033[31mil\377\a\n' "$jaddr" > "$map" ;;
	esac
	chmod a+r "$map" 2>/dev/null
	return 0
}
jit() { mon -u -F 2000 -n 40 --summary "$jp"; }

fault_table <<'TABLE'
# status | message (ERE)                                    | fault
# 1. files any local user can plant in /tmp are untrusted
0 | jitted_spin +\[jit\]                                    | plant good; jit
0 | [0-9]+ in \[jit\]: JIT map not a regular file          | plant fifo; jit
0 | [0-9]+ in \[jit\]: JIT map not a regular file          | plant zero; jit
0 | [0-9]+ in \[jit\]: JIT map is a directory              | plant dir; jit
0 | [0-9]+ in \[jit\]: JIT map not trusted                 | plant nobody; jit
0 | [0-9]+ in \[jit\]: map line too long                   | plant long; jit
0 | jitted_spin +\[jit\]  | echo "$naddr 10 jitted_spin" > /tmp/perf-$np.map; chown 65534 /tmp/perf-$np.map; mon -u -F 2000 -n 40 --summary $np

# 2. no byte of a target reaches a terminal as a control sequence
0 | ev\\x1b\[31mil\\xff\\x07 +\[jit\]            | plant evil; jit | visible
0 | ev\\x1b\[31mil\\xff\\x07\+0x[0-9a-f]+ +\[jit\] | plant evil; mon -u -F 2000 -n 40 $jp 2>&1 | visible
0 | "sym":"ev\\u001b\[31mil\\ufffd\\u0007"       | plant evil; mon -u -F 2000 -n 40 --json $jp | json_lines

# 3. output that cannot be written is an error
1 | cannot write to standard output: No space left on device | mon -n 5 -F 1000 -- "$H" hot 2000 > /dev/full
1 | cannot write to standard output: No space left on device | mon --summary -n 5 -F 1000 -- "$H" hot 2000 > /dev/full
1 | standard output is closed: the samples would be lost      | mon -n 5 -- "$H" hot 2000 >&-
1 | ^exit 1$                          | said 'mon -n 5 -F 1000 -- "$H" hot 2000 2>/dev/full > /dev/null'
1 | ^exit 1$                          | said 'mon -n 5 -F 1000 -- "$H" hot 2000 2>&- > /dev/null'
0 | ^exit 0$                          | said 'mon --summary -n 5 -F 1000 -- "$H" hot 2000 2>&- > /dev/null'
0 | ^exit 0$                          | trap '' PIPE; { mon -F 1000 -- "$H" hot 3000; echo "exit $?" > rc; } | head -1 > /dev/null; cat rc
TABLE

done_testing
