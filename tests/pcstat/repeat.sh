#!/bin/sh
# -r 5: mean and noise (perf's: stddev of the mean, in %) recomputed from
# five single runs of the same series of workloads (run k touches 2000k
# pages, so the spread is large and known).
. "$top_srcdir/tests/test-subr.sh"
need perf_event
step="$top_srcdir/tests/pcstat/step.sh"

rm -f state
"$PCSTAT" -r 5 -x, -e page-faults -- sh "$step" "$helpers" state 2> multi.csv ||
	fail "pcstat -r 5 failed"
rm -f state
for i in 1 2 3 4 5; do
	"$PCSTAT" -x, -e page-faults -- sh "$step" "$helpers" state 2>> single.csv
done
cat multi.csv single.csv
# multi: value,unit,event,noise%,run,pct,,
set -- $(awk -F, '{ print $1, $4 }' multi.csv)
mean=$1 noise=${2%\%}
set -- $(awk -F, '{ s += $1; ss += $1 * $1; n++ } END {
	m = s / n; sd = sqrt((ss - n * m * m) / (n - 1));
	print m, 100 * sd / sqrt(n) / m }' single.csv)
check "-r 5 mean $mean vs single runs $1" within "$mean" "$1" 1
check "-r 5 noise $noise% vs single runs $2%" within "$noise" "$2" 5
[ "$(awk -F, '{print NF}' multi.csv)" = 8 ] || fail "-r CSV lines need 8 fields"

"$PCSTAT" -r 3 --table -e page-faults -- true 2> table.txt
cat table.txt
grep -q 'seconds time elapsed  ( +-' table.txt || grep -q '+- .* seconds time elapsed' table.txt ||
	fail "no perf-style elapsed line with -r"
grep -q '^ # .* median, .* min, .* max seconds of the 3 runs$' table.txt ||
	fail "no median/min/max line"
check "-r: perf's 'seconds time elapsed' on one line only" \
	test "$(grep -c 'seconds time elapsed' table.txt)" -eq 1
grep -q 'Table of individual measurements' table.txt || fail "--table prints no table"
"$PCSTAT" --table -e page-faults -- true 2> notable.txt
check "--table without -r: exit 2 ($?)" test $? -eq 2
check "--table without -r: says it needs -r" grep -q -- '--table needs -r' notable.txt

# -r with -I: refused (perf 6.1 prints one series of intervals for the
# N runs; pcstat.1 -r).
"$PCSTAT" -r 3 -I 100 -e page-faults -- true 2> ri.txt
check "-r with -I: exit 2 ($?)" test $? -eq 2
check "-r with -I: one line that says so" \
	test "$(wc -l < ri.txt)" -eq 1 -a -n "$(grep -e '-r and -I exclude each other' ri.txt)"

# perf refuses --table but with -r 2 or more ("only supported with -r").
if have perf; then
	for args in "--table" "-r 1 --table" "-r 2 --table"; do
		"$PCSTAT" $args -e page-faults -- true 2> /dev/null; prc=$?
		perf stat $args -e page-faults -- true > /dev/null 2>&1; qrc=$?
		check "'$args': pcstat exits $prc, perf $qrc: both 0 or neither" \
			test $((prc == 0)) -eq $((qrc == 0))
	done
else
	without perf "the comparison with perf"
fi
done_testing
