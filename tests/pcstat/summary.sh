#!/bin/sh
# --summary (and --no-csv-summary) after -I's intervals, and --log-fd:
# side by side with perf stat.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }
n=2000
run() { "$@" -e page-faults -I 100 -- "$helpers/touch-pages" $n 1; }

run "$PCSTAT" -x, --summary 2> s.csv
check "--summary -x,: one 'summary' line" \
	test "$(grep -c '^ *summary,' s.csv)" -eq 1
sum=$(awk -F, '$1 ~ /summary/ { print $2 }' s.csv)
check "--summary: $sum page faults, the $n touched and start-up" \
	awk -v v="$sum" -v n=$n 'BEGIN { exit !(v >= n && v <= n + 200) }'
ivals=$(awk -F, '$1 !~ /summary/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' s.csv)
check "--summary: the intervals add up to it ($ivals)" test "$ivals" -eq "$sum"
run "$PCSTAT" -x, --summary --no-csv-summary 2> ns.csv
check "--no-csv-summary: a plain last line" \
	grep -Eq '^[0-9]+,,page-faults,' ns.csv
run "$PCSTAT" --summary 2> s.txt
check "--summary human: perf's block at the end" \
	grep -q "Performance counter stats for" s.txt
"$PCSTAT" --log-fd 3 -x, -e page-faults -- true 3> fd.csv 2> err.txt
check "--log-fd 3: the counts on fd 3" grep -q ',page-faults,' fd.csv
check "--log-fd 3: nothing on stderr" test ! -s err.txt
"$PCSTAT" --log-fd 9 -e page-faults -- true 2> /dev/null
check "--log-fd of a closed descriptor: exit 2 ($?)" test $? -eq 2

if have perf; then
	for fmt in -x, "-x, --no-csv-summary" -j; do
		run "$PCSTAT" $fmt --summary 2> p.out
		run perf stat $fmt --summary 2> q.out
		# the summary: the last line, numbers masked
		tail -1 p.out | mask > x; tail -1 q.out | mask | sed 's/"(null)"/""/' > y
		diff -u y x || fail "--summary $fmt: perf's last line"
	done
	run "$PCSTAT" --summary 2> p.out
	run perf stat --summary 2> q.out
	sed -n '/Performance counter stats/,$p' p.out | mask > x
	sed -n '/Performance counter stats/,$p' q.out | mask > y
	diff -u y x || fail "--summary human: perf's block"
	perf stat --log-fd 3 -x, -e page-faults -- true 3> pfd.csv 2> /dev/null
	mask fd.csv > x; mask pfd.csv > y
	diff -u y x || fail "--log-fd: perf's layout"
else
	without perf "the comparison with perf"
fi
done_testing
