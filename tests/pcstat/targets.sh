#!/bin/sh
# -p on a running helper, -a for a duration, -C 0, -I with a known count.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

"$helpers/spin" 3000 > /dev/null &
spin=$!
wait_exec $spin spin || fail "spin did not start"
# Ground truth: the helper's CPU time from /proc/PID/schedstat (ns)
# around the run.  The count can miss only what the helper ran while
# pcstat started and stopped, which is at most pcstat's wall time beyond
# its 500 ms window -- however loaded the machine.
cpu_ns() { cut -d' ' -f1 /proc/$spin/schedstat; }
t0=$(date +%s%N) b=$(cpu_ns)
"$PCSTAT" -x, -e task-clock -p $spin --timeout 500 2> p.csv
a=$(cpu_ns) t1=$(date +%s%N)
tc=$(awk -F, '{ print $1 }' p.csv)
check "-p: task-clock $tc ms of the helper's $(( (a - b) / 1000000 )) ms of CPU, $(( (t1 - t0) / 1000000 )) ms wall" \
	awk -v t="$tc" -v d="$(( a - b ))" -v w="$(( t1 - t0 ))" 'BEGIN {
		d /= 1e6; w /= 1e6
		exit !(t > 0 && t <= d + 1 && t >= d - (w - 500) - 5) }'
"$PCSTAT" --per-thread -x, -e task-clock -p $spin --timeout 200 2> pt.csv
check "--per-thread names comm-tid" grep -q "^spin-$spin," pt.csv
kill $spin 2>/dev/null; wait $spin 2>/dev/null

ncpu=$(getconf _NPROCESSORS_ONLN)
# Against the time pcstat counted (duration_time), not the 300 ms asked
# for: at a load of 14 the wake-up after --timeout came 50 ms late.
"$PCSTAT" -x, -a -e cpu-clock,duration_time --timeout 300 2> a.csv
cc=$(awk -F, '$3 == "cpu-clock" { print $1 }' a.csv)
dt=$(awk -F, '$3 == "duration_time" { print $1 / 1e6 }' a.csv)
check "-a: cpu-clock $cc ms = $ncpu CPUs x $dt ms counted within 10%" \
	within "$cc" "$(awk -v n=$ncpu -v d="$dt" 'BEGIN { print n * d }')" 10
check "-a --timeout 300: counted $dt ms, at least 300" \
	awk -v d="$dt" 'BEGIN { exit !(d >= 300) }'
"$PCSTAT" -x, -a -A -e cpu-clock --timeout 200 2> aa.csv
check "-a -A: one line per CPU" test "$(grep -c '^CPU' aa.csv)" -eq "$ncpu"
"$PCSTAT" -x, -C 0 -e cpu-clock --timeout 200 2> c0.csv
# cpu-clock on one CPU counts the time counted: compare it with the run
# time the kernel reports (field 4, ns), which is at least the timeout
# (a loaded machine may wake pcstat late: 224 ms for 200 was seen).
c0=$(awk -F, '{ print $1 }' c0.csv) c0run=$(awk -F, '{ print $4 / 1e6 }' c0.csv)
check "-C 0: cpu-clock $c0 ms in $c0run ms counted within 10%" within "$c0" "$c0run" 10
check "-C 0 --timeout 200: counted $c0run ms, at least 200" \
	awk -v d="$c0run" 'BEGIN { exit !(d >= 199) }'
"$PCSTAT" -e cpu-clock -C 0 --timeout 100 2> c0.txt
grep -q "for 'CPU(s) 0'" c0.txt || fail "-C header"

"$PCSTAT" -x, -I 100 --interval-count 3 -a -e cpu-clock 2> i.csv
check "-I 100 --interval-count 3: 3 lines" test "$(wc -l < i.csv)" -eq 3
"$PCSTAT" -I 100 -e task-clock -- sleep 0.45 2> i.txt
cat i.txt
# Ticks fall every 100 ms from the start, the rest when the command
# ends: at least 0.45 s, later on a loaded machine (a sleep woken late
# makes a fifth tick), so the ticks are counted against the end's time;
# pcstat woken late with a tick due and the command gone ends with the
# rest, which then holds that tick's counts: one tick fewer.
n=$(awk '/task-clock/ { t[++n] = $1 } END {
	if (n < 2) { print "none"; exit }
	start = t[1] - 0.1; want = int((t[n] - start) / 0.1 + 1e-9)
	for (i = 2; i < n; i++) if (t[i] - t[i - 1] < 0.0999 || t[i] - t[i - 1] > 0.1001) want = -1
	ok = (n - 1 == want || n - 1 == want - 1) && t[n] >= 0.45 && n >= 4
	print ok ? "ok" : n - 1 " ticks, " want " wanted, end " t[n] }' i.txt)
check "-I 100 over 0.45 s: a tick each 100 ms to the end, and the rest ($n)" test "$n" = ok
grep -q '^#           time             counts unit events$' i.txt ||
	fail "interval header"
done_testing
