#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tasks-short.sh - tasks started after kerneltop attached are counted
# from their first moment: kerneltop --tasks-raw -p against perf stat -p
# on the same run.  The helper (kt-helper short), once signalled, starts
# 20 threads one after another, then 20 child processes, each touching
# 150 fresh pages and spinning 4 ms of its CPU time: too short to be
# seen and opened one by one, they are counted by inheritance in the
# row of the thread that started them.  Over the frames, the rows'
# page-faults and task-clock add up to perf stat's (the same counters,
# inherited the same way): within 2% and 5%, room for the attach of one
# before the other.  With make and cc, the same of make -j2 on a small
# generated project (cc1, as, ld: none lives long enough to be seen).
# Run with two busy loops beside (5 runs): both equal to perf's, to the
# fault and the ms.  Before the fix 92% of the helper's faults and 82%
# of its task-clock were missing, and half of make's.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event perf

H="$top_builddir/tests/kerneltop/kt-helper"

# within PCT% of REF
near() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

# attach PID: kerneltop --tasks-raw (kt.out) and perf stat (perf.out) on
# process PID and what it starts, both counting once this returns
attach() {
	"$KERNELTOP" --tasks-raw -b -d 0.5 -e cpu-clock -p "$1" > kt.out 2> kt.err &
	ktpid=$!
	at_exit "kill $ktpid 2>/dev/null"
	perf stat -p "$1" -e task-clock,page-faults -x, -o perf.out &
	perfpid=$!
	at_exit "kill $perfpid 2>/dev/null"
	retry 10 grep -q '^kerneltop tasks:' kt.out || fail "kerneltop: $(cat kt.err)"
	wait_counting $perfpid || fail "perf stat did not start"
}

nframes() { grep -c '^kerneltop tasks:' kt.out; }
# (kerneltop ends by itself, its last frame printed, when its target does)
more() { [ "$(nframes)" -ge $after ] || ! kill -0 $ktpid 2>/dev/null; }

# detach WHAT: two more frames (the last one printed at the refresh
# after), then both stopped; compare the sums
detach() {
	what=$1
	after=$(($(nframes) + 2))
	retry 10 more || fail "no frames after $1"
	kill -INT $perfpid 2>/dev/null
	wait $perfpid
	kill -TERM $ktpid 2>/dev/null
	wait $ktpid || fail "kerneltop exit $?: $(cat kt.err)"
	# every row of every frame: task-clock (ns) and page-faults summed
	set -- $(awk '
		/^ +PID +TID / { for (i = 1; i <= NF; i++) col[$i] = i; next }
		col["task-clock"] && $1 ~ /^[0-9]+$/ {
			if ($col["task-clock"] != "-") ns += $col["task-clock"]
			if ($col["page-faults"] != "-") f += $col["page-faults"]
		}
		END { printf "%.0f %d\n", ns / 1e6, f }' kt.out)
	kt_ms=$1 kt_f=$2
	pf_ms=$(awk -F, '$3 == "task-clock" { printf "%.0f", $1 }' perf.out)
	pf_f=$(awk -F, '$3 == "page-faults" { print $1 }' perf.out)
	near "$kt_f" "$pf_f" 2 && ok "$what: page-faults $kt_f, perf stat $pf_f" ||
		fail "$what: page-faults $kt_f, perf stat '$pf_f' (want within 2%)"
	near "$kt_ms" "$pf_ms" 5 && ok "$what: task-clock $kt_ms ms, perf stat $pf_ms ms" ||
		fail "$what: task-clock $kt_ms ms, perf stat '$pf_ms' ms (want within 5%)"
}

spawn_ready "$H" short 0 || fail "helper did not start"
set -- $ready
attach "$1"
kill -USR1 "$1"
retry 60 grep -q '^done' "$tmpdir/spawn.$spawn_n" || fail "helper did not finish"
detach "short threads and children"
# the work is 20 x 150 pages in threads and as many in children
[ "$kt_f" -ge 6000 ] || fail "page-faults $kt_f: not the 6000 the tasks touched"

# make -j2 on a small project: cc, as and ld, none seen before it ends
if command -v make > /dev/null && command -v cc > /dev/null; then
	mkdir proj
	for i in 1 2 3 4 5 6; do
		printf 'int f%d(int x) { return x * %d + 1; }\n' $i $i > proj/f$i.c
	done
	printf 'int f1(int);\nint main(void) { return f1(0) - 1; }\n' > proj/main.c
	printf 'OBJS = main.o f1.o f2.o f3.o f4.o f5.o f6.o\nprog: $(OBJS)\n\tcc -o $@ $(OBJS)\n%%.o: %%.c\n\tcc -O2 -c $<\n' > proj/Makefile
	# make waits for the signal before it starts the work
	sh -c 'kill -STOP $$; exec make -s --no-print-directory -j2 -C proj' &
	mk=$!
	retry 10 sh -c "grep -q '^State:.*T' /proc/$mk/status" || fail "make did not stop"
	attach $mk
	kill -CONT $mk
	wait $mk || fail "make failed"
	detach "make -j2"
else
	without make+cc "make -j2 against perf stat"
fi

exit $((nfail > 0))
