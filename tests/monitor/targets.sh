#!/bin/sh
# targets.sh - the ways a target can be: a running thread that exits, a
# command that execs, a stripped binary (with and without -d), JIT code
# named by perf-PID.map, C++ names, SIGINT.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

H="$top_builddir/tests/monitor/mon-helper"

# wait_ready FILE: until the helper has printed its pid
wait_ready() {
	i=0
	while ! grep -q ready "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	awk '/ready/ { print $2; exit }' "$1"
}

# A running thread (the 2008 interface) that exits mid-run.
"$H" hot 700 2> ready1 &
hpid=$!
tid=$(wait_ready ready1)
"$MONITOR" -F 1000 "$tid" > out1 2> err1
rc=$?
wait $hpid
[ $rc -eq 0 ] && grep -q "^monitor: [0-9]* samples" err1 &&
	ok "thread exited: exit 0 with summary ($(grep -c '^[0-9]' out1) samples)" ||
	fail "thread that exits: rc $rc, $(tail -2 err1)"
grep -q ' hot_spin+0x' out1 || fail "no hot_spin from the running thread"

# exec mid-run: both images' functions, a clean summary
"$MONITOR" -F 1000 --summary -- "$H" exec 600 > out2 2> err2 ||
	fail "exec: monitor exited $?"
grep -q ' hot_spin ' out2 && grep -q ' after_exec_spin ' out2 &&
	ok "exec: functions before and after exec resolve" ||
	fail "exec: $(cat out2 | head -5)"

# stripped copy: dso+offset, no crash; -d with the unstripped binary fixes it
cp "$H" ./helper.stripped && strip ./helper.stripped
"$MONITOR" -u -F 1000 -- ./helper.stripped hot 300 > out3 2> err3 ||
	fail "stripped: monitor exited $?"
grep -q ' helper.stripped+0x[0-9a-f]* .*helper.stripped' out3 &&
	ok "stripped: dso+offset lines" || fail "stripped: $(head -2 out3)"
grep -q "unresolved: .* in .*helper.stripped: stripped" err3 ||
	fail "stripped: no unresolved report: $(tail -3 err3)"
"$MONITOR" -u -F 1000 -d "$H" -- ./helper.stripped hot 300 > out4 2> err4 ||
	fail "-d: monitor exited $?"
grep -q ' hot_spin+0x.* mon-helper.c:' out4 && ok "-d FILE: names and lines back" ||
	fail "-d: $(head -2 out4)"

# JIT with a perf-PID.map (x86-64 machine code in the helper)
if [ "$(uname -m)" = x86_64 ]; then
	"$MONITOR" -u -F 1000 --summary -- "$H" jit 300 > out5 2>&1
	grep -q ' jitted_spin .*\[jit\]' out5 && ok "JIT names from perf-PID.map" ||
		fail "JIT: $(head -4 out5)"
fi

# C++ names, demangled
"$MONITOR" -u -F 1000 --summary -- "$H" cxx 300 > out6 2>&1
grep -q 'mh::Engine::hot_spin(int)' out6 && ok "C++ name demangled" ||
	fail "C++: $(head -4 out6)"

# SIGINT: summary, exit 0
"$H" hot 5000 2> ready7 &
hpid=$!
tid=$(wait_ready ready7)
# (a background job of sh ignores SIGINT, and monitor keeps it ignored)
env --default-signal=INT "$MONITOR" -F 500 "$tid" > out7 2> err7 &
mpid=$!
wait_counting $mpid INT || fail "SIGINT: monitor not sampling after 10 s"
kill -INT $mpid
wait $mpid
rc=$?
kill $hpid; wait $hpid 2>/dev/null
[ $rc -eq 0 ] && grep -q "^monitor: [0-9]* samples" err7 &&
	ok "SIGINT: summary and exit 0" || fail "SIGINT: rc $rc, $(tail -2 err7)"

# the 2008 legacy call, only on a kernel with pctools' patch
if [ -e /sys/kernel/perf_counter/syscall_nr ]; then
	"$MONITOR" --legacy -c 100000 -e cpu-clock -- "$H" hot 300 > out8 2>&1 &&
	grep -q ' hot_spin+0x' out8 && ok "--legacy lines" || fail "--legacy: $(head -3 out8)"
else
	echo "note: no perf_counter_open here (unpatched kernel): --legacy not run"
fi
done_testing
