#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Counting through inheritance, exactly: tests/helpers/forks makes a known
# number of getppid() calls and forks (fork one by one or all at once,
# vfork, threads, posix_spawn, a double-forked daemon that outlives the
# command), counted with and without --no-inherit, with -I and -r, and on
# a -p target that starts threads after pcstat attached.  The counts are
# perf stat 6.1's on the same runs (the daemon and -p cases are compared
# with perf here too): what the command's tasks did while inherited, a
# daemon's calls included while it still runs; perf -p counts threads a
# target creates after the attach, unless --no-inherit.
. "$top_srcdir/tests/test-subr.sh"
need perf_event tracefs
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] &&
	[ -r /sys/kernel/tracing/events/sched/sched_process_fork/id ] ||
	skip "no syscalls/sched tracepoints in this kernel"
forks="$helpers/forks"
ev=syscalls:sys_enter_getppid,sched:sched_process_fork

# counts FILE: "CALLS FORKS" from a -x, file
counts() {
	awk -F, '$3 == "syscalls:sys_enter_getppid" { c = $1 }
		$3 == "sched:sched_process_fork" { f = $1 }
		END { print c, f }' "$1"
}

# expect "OPTIONS" "MODE N" "CALLS FORKS"
expect() {
	"$PCSTAT" -x, $1 -e $ev -- "$forks" $2 2> out.csv
	rc=$?
	got=$(counts out.csv)
	check "${1:-inherit} $2: getppid/forks $got = $3 (exit $rc)" \
		test "$got" = "$3" -a $rc -eq 0
}

expect "" "calls 1000" "1000 0"
expect "" "fork 300" "3000 300"
expect "-i" "fork 300" "0 300"
expect "" "storm 1000" "10000 1000"
expect "--no-inherit" "storm 300" "0 300"
expect "" "vfork 300" "0 300"
expect "" "threads 200" "2000 200"
expect "-i" "threads 200" "0 200"
expect "" "spawn 100" "1000 100"
expect "-i" "spawn 100" "0 100"
# the grandchild's 1000 calls are counted though it still runs when the
# command exits; its fork too, but not under -i
expect "" "daemon 1000" "1007 2"
expect "-i" "daemon 1000" "7 1"

# -I: the intervals add up to the whole count
"$PCSTAT" -x, -I 20 -e $ev -- "$forks" storm 1000 2> iv.csv
got=$(awk -F, '{ s[$4] += $2 } END {
	print s["syscalls:sys_enter_getppid"], s["sched:sched_process_fork"] }' iv.csv)
check "-I 20 storm 1000: intervals add up to $got = 10000 1000" \
	test "$got" = "10000 1000"

# -r: the mean of equal runs, no noise
"$PCSTAT" -x, -r 3 -e $ev -- "$forks" fork 100 2> r.csv
check "-r 3 fork 100: $(counts r.csv) = 1000 100" test "$(counts r.csv)" = "1000 100"
check "-r 3: no noise for equal counts" \
	test "$(awk -F, '$3 == "syscalls:sys_enter_getppid" { print $4 }' r.csv)" = "0.00%"

# -p: a target that starts 50 threads (10 calls each) once pcstat counts
# (the command makes the file 'go' after the enable).
ptarget() {
	rm -f go up
	sh -c ': > up; while [ ! -e go ]; do sleep 0.02; done
		exec "$1" threads 50' sh "$forks" &
	pid=$!
	# not before the shell is up: it calls getppid() as it starts
	while [ ! -e up ]; do sleep 0.02; done
	"$@" -x, -e syscalls:sys_enter_getppid $popt -p $pid -- \
		sh -c ': > go; while kill -0 "$1" 2> /dev/null; do sleep 0.02; done' \
		sh $pid 2> p.csv
	wait $pid
	awk -F, '{ print $1 }' p.csv
}
popt= got=$(ptarget "$PCSTAT")
check "-p: threads started after the attach are counted: $got = 500" test "$got" = 500
popt=-i got=$(ptarget "$PCSTAT")
check "-p -i: threads started after the attach are not: $got = 0" test "$got" = 0

if have_perf; then
	popt= got=$(ptarget perf stat)
	check "perf -p counts them too: $got = 500" test "$got" = 500
	perf stat -x, -e $ev -- "$forks" daemon 1000 2> perf.csv
	check "perf: daemon 1000 $(counts perf.csv) = 1007 2" \
		test "$(counts perf.csv)" = "1007 2"
fi
done_testing
