#!/bin/sh
# Tool events duration_time, user_time, system_time (measured by pcstat,
# in ns) and the software events cgroup-switches and bpf-output; `pcstat
# list sw` as perf list sw.  Side by side with perf stat on spin.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

# numbers masked, and the rate's prefix (M/sec, G/sec) that follows them
mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' -e 's/N [KMG]\/sec/N \/sec/g' \
	-e 's/,N[KMG]\/sec/,N\/sec/g' "$@"; }
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

ev=duration_time,user_time,task-clock,cgroup-switches,bpf-output
t0=$(date +%s%N)
"$PCSTAT" -x, -e $ev -- "$helpers/spin" 200 > spin.out 2> t.csv
t1=$(date +%s%N)
d=$(val duration_time t.csv) u=$(val user_time t.csv) tc=$(val task-clock t.csv)
check "duration_time $d ns: within the $((t1 - t0)) ns pcstat ran" \
	awk -v d="$d" -v w="$((t1 - t0))" 'BEGIN { exit !(d >= 200e6 && d <= w) }'
# user_time and system_time are the child's rusage: the kernel splits its
# exact run time between them by ticks, so one alone can be far off
# task-clock on a loaded machine, but together they are its run time.
"$PCSTAT" -x, -e user_time,system_time,task-clock -- "$helpers/spin" 200 \
	> /dev/null 2> us.csv
u=$(val user_time us.csv) s=$(val system_time us.csv) tc=$(val task-clock us.csv)
case $s in ''|*[!0-9]*) s=0 ;; esac
check "user_time $u + system_time $s ns against task-clock $tc ms" \
	awk -v u="$u" -v s="$s" -v t="$tc" \
	'BEGIN { x = (u + s) / 1e6; exit !(u > 0 && x <= t + 10 && x >= t - 10) }'
check "cgroup-switches and bpf-output open" \
	test "$(grep -c 'not supported' t.csv)" -eq 0
check "tool events: unit ns, enabled time = value" \
	awk -F, '$3 == "duration_time" { exit !($2 == "ns" && $4 == $1) }' t.csv

if have perf; then
	perf stat -x, -e $ev -- "$helpers/spin" 200 > /dev/null 2> perf-t.csv
	# system_time can be 0 (<not counted>) in either run: leave it out.
	# So can user_time on a loaded machine (the kernel splits the run
	# time by ticks; perf's 100 ms run once had none in user): its line
	# is compared by its place alone.
	ut() { sed '/user_time/s/.*/user_time/'; }
	mask t.csv | ut > x; mask perf-t.csv | ut > y
	diff -u y x || fail "tool events CSV: the layout of perf's"
	"$PCSTAT" -e $ev -- "$helpers/spin" 100 > /dev/null 2> h.txt
	perf stat -e $ev -- "$helpers/spin" 100 > /dev/null 2> perf-h.txt
	mask h.txt | grep -v 'seconds sys' | ut > x
	mask perf-h.txt | grep -v 'seconds sys' | ut > y
	diff -u y x || fail "tool events human: the layout of perf's"
	"$PCSTAT" list sw > sw.txt
	perf list sw > perf-sw.txt 2> /dev/null
	diff -u perf-sw.txt sw.txt || fail "pcstat list sw differs from perf list sw"
else
	without perf "the comparison with perf"
fi
done_testing
