#!/bin/sh
# Real multiplexing: more hardware counters than any PMU has (12 separate
# cycles events) must share it; pcstat then scales the counts and shows
# the running percentage (< 100 on some line) as perf does.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

if have_perf; then
	perf stat -x, -e instructions -- true 2> pmu.csv
else
	"$PCSTAT" -x, -e instructions -- true 2> pmu.csv
fi
grep -q 'not supported' pmu.csv && skip "no hardware PMU (instructions not supported)"

ev=
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ev="$ev -e cycles"; done
# spin runs long enough for the kernel to rotate the counters (every 4 ms).
"$PCSTAT" -x, $ev -- "$helpers/spin" 300 > /dev/null 2> mux.csv
"$PCSTAT" $ev -- "$helpers/spin" 300 > /dev/null 2> mux.txt
cat mux.csv
check "12 cycles lines" test "$(grep -c ',cycles,' mux.csv)" -eq 12
# value,unit,event,run,pct,...: some line ran less than all the time.
check "a running percentage below 100 in CSV" awk -F, '
	$3 == "cycles" && $5 + 0 < 100 { low = 1 } END { exit !low }' mux.csv
check "counted lines are scaled, positive" awk -F, '
	$3 == "cycles" && $1 != "<not counted>" && !($1 > 0) { bad = 1 }
	END { exit bad }' mux.csv
check "std layout shows '(NN.NN%)'" grep -Eq 'cycles .*  \([0-9]+\.[0-9]{2}%\)$' mux.txt
done_testing
