#!/bin/sh
# -t TID, -D MS, --no-inherit, -d, -o FILE --append and --timeout's
# least, each against a workload whose answer is known (or perf's).
. "$top_srcdir/tests/test-subr.sh"
need perf_event
threads="$top_builddir/tests/pcstat/threads"

val() {	# val EVENT FILE: the CSV value of EVENT
	awk -F, -v e="$1" '$3 == e { print $1 }' "$2"
}

# -t: one thread of a process, not the others.  The busy thread burns CPU
# all the time, the main thread sleeps in pause().
"$threads" > tids &
pid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s tids ] && break; sleep 0.1; done
read -r main busy < tids
# Ground truth: the busy thread's CPU time from its schedstat (ns) around
# the run, which the count may miss only while pcstat starts and stops
# beyond its 300 ms, however loaded the machine (4% of a CPU was seen:
# a share cannot be assumed).
cpu_ns() { cut -d' ' -f1 "/proc/$pid/task/$busy/schedstat"; }
t0=$(date +%s%N) c0=$(cpu_ns)
"$PCSTAT" -x, -e task-clock -t "$busy" --timeout 300 2> busy.csv
c1=$(cpu_ns) t1=$(date +%s%N)
"$PCSTAT" -x, -e task-clock -t "$main" --timeout 300 2> main.csv
"$PCSTAT" -e task-clock -t "$busy" --timeout 50 2> busy.txt
kill "$pid"; wait "$pid" 2>/dev/null
tb=$(val task-clock busy.csv) tm=$(val task-clock main.csv)
check "-t busy thread: $tb ms of its $(( (c1 - c0) / 1000000 )) ms of CPU, $(( (t1 - t0) / 1000000 )) ms wall" \
	awk -v t="$tb" -v d="$((c1 - c0))" -v w="$((t1 - t0))" 'BEGIN {
		d /= 1e6; w /= 1e6
		exit !(t <= d + 1 && t >= d - (w - 300) - 5) }'
# Idle: never scheduled in the window, so <not counted> (as perf says).
check "-t idle main thread: $tm ms in 300 ms" \
	awk -v t="$tm" 'BEGIN { exit !(t == "<not counted>" || t + 0 < 5) }'
grep -q "^ Performance counter stats for thread id '$busy':" busy.txt ||
	fail "-t header: $(head -3 busy.txt)"

# -D: the helper touches 3000 pages at once, sleeps 4 s, then touches
# 2000; counting starts 1500 ms after the command.  The first phase takes
# about 0.1 s (20000 pages took up to 1.7 s at load 16 on this 2-CPU VM,
# which is why it is small), so both sides of the delay keep well over a
# second of margin on a busy machine.
n1=3000 n2=2000
cmd="\"$helpers/touch-pages\" $n1; sleep 4; exec \"$helpers/touch-pages\" $n2"
"$PCSTAT" -x, -e page-faults -D 1500 -- sh -c "$cmd" 2> delay.csv
"$PCSTAT" -x, -e page-faults -- sh -c "$cmd" 2> nodelay.csv
d=$(val page-faults delay.csv) nd=$(val page-faults nodelay.csv)
# After the delay: the second helper's pages, its start-up (about 60)
# and sleep's exit.
check "-D 1500: $d page faults, the last $n2 only" \
	awk -v v="$d" -v n=$n2 'BEGIN { exit !(v >= n && v <= n + 400) }'
check "no -D: $nd page faults, both phases" test "$nd" -ge $((n1 + n2))

# --no-inherit: the shell forks the helper (the trailing 'exit' keeps it
# from exec'ing it), so the helper's faults and CPU are a child's.
"$PCSTAT" -x, -e page-faults,task-clock -- \
	sh -c "\"$helpers/touch-pages\" $n1; \"$helpers/spin\" 200 >/dev/null; exit 0" 2> inh.csv
"$PCSTAT" -x, -e page-faults,task-clock --no-inherit -- \
	sh -c "\"$helpers/touch-pages\" $n1; \"$helpers/spin\" 200 >/dev/null; exit 0" 2> noinh.csv
pf=$(val page-faults inh.csv) npf=$(val page-faults noinh.csv)
tc=$(val task-clock inh.csv) ntc=$(val task-clock noinh.csv)
check "inherit: $pf page faults >= $n1" test "$pf" -ge $n1
check "--no-inherit: $npf page faults, the shell's only" test "$npf" -lt 1000
# spin burns 200 ms of its own CPU time, however loaded the machine.
check "inherit: task-clock $tc ms >= 200" awk -v t="$tc" 'BEGIN { exit !(t >= 200) }'
check "--no-inherit: task-clock $ntc ms, the shell's only" \
	awk -v t="$ntc" 'BEGIN { exit !(t < 100) }'

# -d: perf's default events, then its cache events, in perf's order.
"$PCSTAT" -d -x, -- true 2> d.csv
awk -F, '{ print $3 }' d.csv > d.events
cat > d.want <<'LIST'
task-clock
context-switches
cpu-migrations
page-faults
cycles
instructions
branches
branch-misses
L1-dcache-loads
L1-dcache-load-misses
LLC-loads
LLC-load-misses
LIST
if have_perf; then
	perf stat -d -x, -- true 2>&1 | awk -F, '{ print $3 }' > d.want
else
	without perf "-d against perf stat -d (compared with perf's list instead)"
fi
if diff -u d.want d.events; then ok "-d: the events of perf stat -d"
else fail "-d: events differ from perf stat -d"; fi
# Each cache event either counts or says <not supported>, as in perf.
check "-d: cache events counted or <not supported>" awk -F, '
	NR > 8 && $1 != "<not supported>" && $1 !~ /^[0-9]+$/ { exit 1 }' d.csv

# -o FILE --append: a second run adds to the file; without --append the
# file is started again.
"$PCSTAT" -x, -e page-faults -o out.csv -- true 2> err1
"$PCSTAT" -x, -e task-clock -o out.csv --append -- true 2> err2
check "--append keeps the first run" test "$(grep -c '^# started on' out.csv)" -eq 2
grep -q ',page-faults,' out.csv && grep -q ',task-clock,' out.csv ||
	fail "--append: both runs' counts not in the file: $(cat out.csv)"
[ -s err1 ] || [ -s err2 ] && fail "-o still wrote to stderr"
"$PCSTAT" -x, -e task-clock -o out.csv -- true 2> /dev/null
check "-o without --append starts the file again" \
	test "$(grep -c '^# started on' out.csv)" -eq 1
grep -q ',page-faults,' out.csv && fail "-o without --append kept old counts"
"$PCSTAT" -q -x, -e task-clock -o q.csv -- true 2> /dev/null
check "-q -o FILE: no FILE, as perf --quiet makes none" test ! -e q.csv

# --timeout: at least 10 ms, as perf's ("timeout must be >= 10ms").
"$PCSTAT" --timeout 9 -e task-clock -- true 2> to.txt
check "--timeout 9: exit 2 ($?)" test $? -eq 2
check "--timeout 9: says the least" grep -q -- '--timeout needs a number of milliseconds from 10 to ' to.txt
if have perf; then
	perf stat --quiet -x, -e task-clock -o pq.csv -- true 2> /dev/null
	check "perf --quiet -o FILE makes no FILE either" test ! -e pq.csv
	# perf's caution under 100 ms: the same line on stderr, never in
	# the -o file, none with --quiet.  The command outlives every
	# timeout, so both tools end it and both print "sleep: Terminated"
	# (with `true`, whether it ended first was a race under load).
	for ms in 10 99 100; do
		"$PCSTAT" --timeout $ms -e task-clock -o pw.txt -- sleep 5 2> pw.err
		perf stat --timeout $ms -e task-clock -o qw.txt -- sleep 5 2> qw.err
		check "--timeout $ms: perf's stderr, word for word" cmp -s pw.err qw.err
		check "--timeout $ms: no caution in the -o file" \
			test "$(grep -c 'proceed with caution' pw.txt)" -eq 0
		check "--timeout $ms: a caution under 100 ms only" \
			test "$(grep -c '^timeout < 100ms' pw.err)" -eq $((ms < 100))
	done
	"$PCSTAT" --timeout 50 -q -e task-clock -- true 2> pw.err
	check "--timeout 50 -q: no caution" test ! -s pw.err
	for ms in 1 9 10 11; do
		"$PCSTAT" --timeout $ms -e task-clock -- true 2> /dev/null; prc=$?
		perf stat --timeout $ms -e task-clock -- true > /dev/null 2>&1; qrc=$?
		check "--timeout $ms: pcstat exits $prc, perf $qrc: both 0 or neither" \
			test $((prc == 0)) -eq $((qrc == 0))
	done
else
	without perf "the comparison with perf"
fi
done_testing
