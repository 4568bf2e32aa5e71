#!/bin/sh
# A target timed by a command (-p PID -- sleep), system-wide without
# either, --timeout/--interval-count ends: side by side with perf stat.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

# mask: the layout with every number replaced, as the two tools' counts differ.
mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }

"$helpers/spin" 30000 > /dev/null &
spin=$!
wait_exec $spin spin || fail "spin did not start"

t0=$(date +%s%N)
"$PCSTAT" -x, -e task-clock -p $spin -- sleep 0.3 2> p.csv
rc=$?
t1=$(date +%s%N)
check "-p PID -- sleep 0.3: exit 0 ($rc)" test "$rc" -eq 0
tc=$(awk -F, '{ print $1 }' p.csv)
check "-p PID -- sleep 0.3: task-clock $tc ms, >0 and <= the $(( (t1 - t0) / 1000000 )) ms wall" \
	awk -v t="$tc" -v w="$(( (t1 - t0) / 1000000 ))" 'BEGIN { exit !(t > 0 && t <= w + 1) }'
check "-p PID -- sleep 0.3: counted for the command's 300 ms, not 5 s" \
	test $(( (t1 - t0) / 1000000 )) -lt 2000
"$PCSTAT" -e task-clock -p $spin -- sleep 0.1 2> p.txt
"$PCSTAT" -e task-clock -p $spin -- sh -c 'exit 3' 2> /dev/null
check "-p PID -- cmd: the command's exit status" test $? -eq 3
"$PCSTAT" -x, -e task-clock -t $spin -- sleep 0.1 2> t.csv
check "-t TID -- sleep: one CSV line" test "$(wc -l < t.csv)" -eq 1
t0=$(date +%s%N)
"$PCSTAT" -x, -e cpu-clock -C 0 -- sleep 0.2 2> c.csv
t1=$(date +%s%N)
cc=$(awk -F, '{ print $1 }' c.csv)
check "-C 0 -- sleep 0.2: cpu-clock $cc ms, 200 ms to the $(( (t1 - t0) / 1000000 )) ms wall" \
	awk -v c="$cc" -v w="$(( (t1 - t0) / 1000000 ))" 'BEGIN { exit !(c >= 195 && c <= w + 1) }'
"$PCSTAT" -x, -e cpu-clock -a -- sleep 0.2 2> a.csv
check "-a -- sleep: one CSV line" test "$(wc -l < a.csv)" -eq 1

# No command, no target: system-wide until a signal.
"$PCSTAT" -x, -e cpu-clock 2> sw.csv &
pc=$!
# SIGTERM only once pcstat counts and waits for it (blocked for its
# signalfd), however slow the machine is to start it.
wait_counting $pc TERM || fail "no command: pcstat not counting after 10 s"
kill -TERM $pc
wait $pc
check "no command: system-wide until SIGTERM, exit 0 ($?)" test $? -eq 0
check "no command: a cpu-clock line" grep -q ',msec,cpu-clock,' sw.csv
"$PCSTAT" -e cpu-clock --timeout 100 2> sw.txt
check "no command: header says system wide" grep -q "for 'system wide':" sw.txt
if have setpriv && have root; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PCSTAT" -e cpu-clock --timeout 100 2> eacces.txt
	rc=$?
	cat eacces.txt
	if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
		check "system-wide refused: exit 1 ($rc)" test "$rc" -eq 1
		check "system-wide refused: advice names perf_event_paranoid" \
			grep -q 'perf_event_paranoid' eacces.txt
	fi
else
	without setpriv "the permission advice check (needs root and setpriv)"
fi

# --timeout ends the measurement: SIGTERM for the command, exit 0.
t0=$(date +%s%N)
"$PCSTAT" -e task-clock --timeout 200 -- sleep 5 2> to.txt
rc=$?
t1=$(date +%s%N)
check "--timeout 200 -- sleep 5: exit 0 ($rc)" test "$rc" -eq 0
check "--timeout 200: ends in $(( (t1 - t0) / 1000000 )) ms" \
	test $(( (t1 - t0) / 1000000 )) -lt 2000
check "--timeout: perf's 'sleep: Terminated'" grep -q '^sleep: Terminated$' to.txt
# --interval-count: the counting ends, the command runs to its end.
t0=$(date +%s%N)
"$PCSTAT" -x, -e task-clock -I 100 --interval-count 2 -- sleep 0.6 2> ic.csv
rc=$?
t1=$(date +%s%N)
check "--interval-count 2: 2 lines" test "$(wc -l < ic.csv)" -eq 2
check "--interval-count 2 -- sleep 0.6: exit 0 ($rc), after the command ($(( (t1 - t0) / 1000000 )) ms)" \
	test "$rc" -eq 0 -a $(( (t1 - t0) / 1000000 )) -ge 590

if have perf; then
	perf stat -x, -e task-clock -p $spin -- sleep 0.1 2> perf-p.csv
	mask p.csv | sed 's/-/N/' > a; mask perf-p.csv | sed 's/-/N/' > b
	check "-p -- cmd CSV: the layout of perf's" cmp -s a b
	perf stat -e task-clock -p $spin -- sleep 0.1 2> perf-p.txt
	sed "s/$spin/PID/" p.txt | mask > a; sed "s/$spin/PID/" perf-p.txt | mask > b
	diff -u b a || fail "-p -- cmd human: the layout of perf's (no user/sys lines)"
	perf stat -e task-clock --timeout 200 -- sleep 5 2> perf-to.txt
	check "--timeout: perf exits 0 too ($?)" test $? -eq 0
	mask to.txt > a; mask perf-to.txt > b
	diff -u b a || fail "--timeout: the layout of perf's"
	perf stat -e cpu-clock --timeout 100 2> perf-sw.txt
	mask sw.txt | grep -v 'cpu-clock' > a; mask perf-sw.txt | grep -v 'cpu-clock' > b
	diff -u b a || fail "system-wide without a command: the layout of perf's"
	perf stat -x, -e task-clock -I 100 --interval-count 2 -- sleep 0.3 2> perf-ic.csv
	check "--interval-count: perf prints 2 lines too" \
		test "$(wc -l < perf-ic.csv)" -eq 2
else
	without perf "the comparison with perf stat"
fi
kill $spin 2>/dev/null; wait $spin 2>/dev/null
done_testing
