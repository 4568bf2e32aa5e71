#!/bin/sh
# --per-socket, --per-die, --per-core, --per-node: CPUs grouped by their
# sysfs topology, with perf's AGGR columns in the human, CSV and JSON
# layouts and the interval header; side by side with perf stat.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
ncpu=$(getconf _NPROCESSORS_ONLN)

"$PCSTAT" -x, --per-socket -a -e cpu-clock --timeout 200 2> s.csv
total=$(awk -F, '{ s += $3 } END { print s }' s.csv)
cpus=$(awk -F, '{ s += $2 } END { print s }' s.csv)
check "--per-socket: the aggregate numbers add up to the $ncpu CPUs ($cpus)" \
	test "$cpus" -eq "$ncpu"
check "--per-socket: cpu-clock $total ms = $ncpu CPUs x 200 ms within 10%" \
	within "$total" $((ncpu * 200)) 10
"$PCSTAT" -x, --per-core -a -e cpu-clock --timeout 100 2> c.csv
ncore=$(for t in /sys/devices/system/cpu/cpu[0-9]*/topology; do
	echo "$(cat $t/physical_package_id)-$(cat $t/die_id)-$(cat $t/core_id)"
done | sort -u | wc -l)
check "--per-core: one line per core ($(wc -l < c.csv) of $ncore)" \
	test "$(wc -l < c.csv)" -eq "$ncore"
"$PCSTAT" --per-socket -- true 2> /dev/null
check "--per-socket with a command alone: exit 2 ($?)" test $? -eq 2

if have perf; then
	for mode in --per-socket --per-die --per-core --per-node; do
		for fmt in "" -x, -j; do
			"$PCSTAT" $mode $fmt -a -e cpu-clock --timeout 100 2> p.out
			perf stat $mode $fmt -a -e cpu-clock --timeout 100 2> q.out
			mask p.out > x; mask q.out > y
			diff -u y x || fail "$mode ${fmt:-human}: the layout of perf's"
		done
		"$PCSTAT" $mode -a -I 100 --interval-count 1 -e cpu-clock 2> p.out
		perf stat $mode -a -I 100 --interval-count 1 -e cpu-clock 2> q.out
		mask p.out > x; mask q.out > y
		diff -u y x || fail "$mode -I: the layout of perf's"
	done
else
	without perf "the comparison with perf"
fi
done_testing
