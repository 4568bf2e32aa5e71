#!/bin/sh
# Tracepoints by name and glob (sched:sched_switch, 'sched:*'), and
# `pcstat list tracepoint`, side by side with perf stat and perf list.
. "$top_srcdir/tests/test-subr.sh"
need perf_event tracefs
[ -r /sys/kernel/tracing/events/sched/sched_process_exec/id ] ||
	skip "no sched tracepoints in this kernel"

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

tp=sched:sched_process_exec
n=3000
"$PCSTAT" -x, -e $tp,exceptions:page_fault_user -- "$helpers/touch-pages" $n 2> a.csv
check "$tp: one exec" test "$(val $tp a.csv)" = 1
pf=$(val exceptions:page_fault_user a.csv)
check "exceptions:page_fault_user: $pf for $n pages and start-up" \
	awk -v v="$pf" -v n=$n 'BEGIN { exit !(v >= n && v <= n + 200) }'
"$PCSTAT" -x, -e "sched:sched_switch:u" -- true 2> u.csv
check "modifiers after a tracepoint: its name without them, as perf's" \
	grep -q ',sched:sched_switch,' u.csv
"$PCSTAT" -x, -e 'sched:sched_process_*' -- true 2> glob.csv
check "'sched:sched_process_*': several events" test "$(wc -l < glob.csv)" -ge 4
"$PCSTAT" -e 'sched:nosuch' -- true 2> bad.txt
check "unknown tracepoint: exit 2 ($?)" test $? -eq 2
check "unknown tracepoint: named, with where to look: $(cat bad.txt)" \
	grep -qx "pcstat: unknown tracepoint 'sched:nosuch' (no /.*/events/sched/nosuch; see 'pcstat list tracepoint')" bad.txt
"$PCSTAT" list tracepoint > list.txt
check "pcstat list tracepoint lists $tp" grep -q "^  $tp  *\[Tracepoint event\]$" list.txt
if have setpriv && have root; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PCSTAT" -e $tp -- true 2> eacces.txt
	check "tracefs unreadable: exit 2 ($?)" test $? -eq 2
	check "tracefs unreadable: says so" grep -q "tracefs is root's" eacces.txt
else
	without setpriv "the unreadable tracefs check"
fi

if have perf; then
	perf stat -x, -e $tp,exceptions:page_fault_user -- "$helpers/touch-pages" $n 2> perf-a.csv
	ppf=$(val exceptions:page_fault_user perf-a.csv)
	check "page_fault_user: pcstat $pf, perf $ppf (within 2%)" within "$pf" "$ppf" 2
	mask a.csv > x; mask perf-a.csv > y
	diff -u y x || fail "tracepoints CSV: the layout of perf's"
	for fmt in "" -j; do
		"$PCSTAT" $fmt -e $tp,sched:sched_switch -- true 2> p.out
		perf stat $fmt -e $tp,sched:sched_switch -- true 2> q.out
		# pcstat writes "" where perf 6.1 writes the C "(null)".
		mask p.out > x; mask q.out | sed 's/"(null)"/""/' > y
		diff -u y x || fail "tracepoints ${fmt:-human}: the layout of perf's"
	done
	# perf names a tracepoint "sys:event" whatever modifiers follow it,
	# alone or in a group; a PMU event keeps its own.
	for ev in $tp:u $tp:k "{$tp:u,page-faults:u}" "sched:sched_process_*:k"; do
		"$PCSTAT" -x, -e "$ev" -- true 2> p.csv
		perf stat -x, -e "$ev" -- true 2> q.csv
		# (names: sched_process_free comes when the kernel frees)
		cut -d, -f2,3 p.csv > x; cut -d, -f2,3 q.csv > y
		diff -u y x || fail "-e '$ev': perf's names"
	done
	perf stat -x, -e 'sched:sched_process_*' -- true 2> perf-glob.csv
	cut -d, -f3 glob.csv > x; cut -d, -f3 perf-glob.csv > y
	diff -u y x || fail "a glob: perf's events in perf's order"
	perf list tracepoint > perf-list.txt 2> /dev/null
	diff -u perf-list.txt list.txt > list.diff ||
		fail "pcstat list tracepoint differs from perf list tracepoint: $(head -5 list.diff)"
else
	without perf "the comparison with perf"
fi
done_testing
