#!/bin/sh
# --per-socket, --per-die, --per-core, --per-node: CPUs grouped by their
# sysfs topology, with perf's AGGR columns in the human, CSV and JSON
# layouts and the interval header; side by side with perf stat.
# --per-cache, which perf 6.1 lacks, against sysfs (and test-topology).
. "$top_srcdir/tests/test-subr.sh"
need perf_event

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
ncpu=$(getconf _NPROCESSORS_ONLN)

t0=$(date +%s%N)
"$PCSTAT" -x, --per-socket -a -e cpu-clock --timeout 200 2> s.csv
t1=$(date +%s%N)
total=$(awk -F, '{ s += $3 } END { print s }' s.csv)
cpus=$(awk -F, '{ s += $2 } END { print s }' s.csv)
check "--per-socket: the aggregate numbers add up to the $ncpu CPUs ($cpus)" \
	test "$cpus" -eq "$ncpu"
# Every CPU for as long as pcstat counted: 200 ms, and at most its whole
# wall time (the wake-up after --timeout came 22 ms late, 11%, beside a
# make check and two busy loops).
check "--per-socket: cpu-clock $total ms, $ncpu CPUs x 200 ms to x $(( (t1 - t0) / 1000000 )) ms wall" \
	awk -v c="$total" -v n="$ncpu" -v w="$(( (t1 - t0) / 1000000 ))" \
		'BEGIN { exit !(c >= n * 200 * 0.98 && c <= n * w + 1) }'
"$PCSTAT" -x, --per-core -a -e cpu-clock --timeout 100 2> c.csv
ncore=$(for t in /sys/devices/system/cpu/cpu[0-9]*/topology; do
	echo "$(cat $t/physical_package_id)-$(cat $t/die_id)-$(cat $t/core_id)"
done | sort -u | wc -l)
check "--per-core: one line per core ($(wc -l < c.csv) of $ncore)" \
	test "$(wc -l < c.csv)" -eq "$ncore"
"$PCSTAT" --per-socket -- true 2> /dev/null
check "--per-socket with a command alone: exit 2 ($?)" test $? -eq 2

# --per-cache (later perf's; 6.1 has none): the ids sysfs gives, each
# CPU's last level: socket, die, level, the first CPU sharing the cache.
# (A VM may have no cache directories: then perf's -1s.)
cache_id() {
	local c=/sys/devices/system/cpu/cpu$1 best=-1 id=-1 i lvl
	for i in 0 1 2 3; do
		[ -r "$c/cache/index$i/level" ] || break
		lvl=$(cat "$c/cache/index$i/level")
		if [ "$lvl" -gt "$best" ]; then
			best=$lvl
			id=$(sed 's/[-,].*//' "$c/cache/index$i/shared_cpu_list")
		fi
	done
	echo "S$(cat $c/topology/physical_package_id)-D$(cat $c/topology/die_id)-L$best-ID$id"
}
for c in $(seq 0 $((ncpu - 1))); do cache_id "$c"; done | sort | uniq -c |
	awk '{ print $2 "," $1 }' > want
"$PCSTAT" -x, --per-cache -a -e cpu-clock --timeout 100 2> pc.csv
cut -d, -f1,2 pc.csv | sort > got
check "--per-cache: the caches and their CPU counts sysfs gives ($(tr '\n' ' ' < got))" \
	cmp -s want got
"$PCSTAT" -j --per-cache=L1 -a -e cpu-clock --timeout 100 2> pc.json
check "--per-cache=L1 -j: later perf's keys" \
	grep -q '^{"cache" : "S[0-9]*-D[0-9]*-L[-0-9]*-ID[-0-9]*", "aggregate-number" : [0-9]*, "counter-value"' pc.json
"$PCSTAT" --per-cache=L5 -a -e cpu-clock --timeout 100 2> e.txt
check "--per-cache=L5: exit 2 ($?)" test $? -eq 2
check "--per-cache=L5: perf's words" grep -q 'must be of form L\[1-4\]' e.txt
"$PCSTAT" --per-cache -I 100 --interval-count 1 -a -e cpu-clock 2> pi.txt
check "--per-cache -I: the header's cache column" \
	grep -q '^#           time cache                  cpus             counts unit events$' pi.txt

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
	# Several events: perf prints each group's events together, each
	# event's CPUs in turn with -A, and a tool event (duration_time)
	# on the first CPU alone: its group has 1 CPU of it, the others 0.
	# The CPU or group, its CPUs, counted or not, the event:
	shape() { awk -F, '{ v = $(NF - 6)
		print $1 "," (NF > 8 ? $2 : "") "," (v ~ /^</ ? v : "N") "," $(NF - 4) }' "$@"; }
	for mode in --per-socket --per-core --per-node -A; do
		ev=duration_time,cpu-clock,page-faults
		"$PCSTAT" $mode -x, -a -e $ev --timeout 100 2> p.csv
		perf stat $mode -x, -a -e $ev --timeout 100 2> q.csv
		shape p.csv > x; shape q.csv > y
		diff -u y x || fail "$mode -e $ev: perf's order and CPUs"
	done
else
	without perf "the comparison with perf"
fi
done_testing
