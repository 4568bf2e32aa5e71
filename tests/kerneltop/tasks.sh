#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tasks.sh - kerneltop --tasks -b (the task table) against known rates,
# with pcstat counting the same threads in the same run.  The helper
# (kt-helper rates), once signalled, has a thread "kt-fault" touch 40 x
# 100 fresh pages 50 ms apart and exit at once, and a thread "kt-spin"
# spin 3 ms of its CPU time and sleep 2 ms, 300 times; it prints the
# process's own count of the minor faults from the signal to kt-fault's
# end (its exit's one or two included) and kt-spin's CPU time.
#  - faults exact: each frame prints the interval to the microsecond and
#    FAULTS/s to 0.1, so rate x interval gives each frame's count back;
#    kt-fault's counts over the frames add up to the helper's count, and
#    to pcstat's, exactly -- the last frame's taken after the thread
#    exited, which the row says, and the row is gone the frame after;
#  - %CPU: kt-spin's %CPU x interval over the frames within 5% of the
#    CPU time it spun, and so is pcstat's task-clock; no frame above
#    its 60% duty;
#  - the process view (--tasks-processes) sums the threads: one row for
#    the helper, its thread count in THR;
#  - the hardware columns are shown where the PMU counts them, else
#    hidden with the one-line notice;
#  - --tasks-raw, beside it on the same threads: each frame's counts,
#    kt-fault's page-faults summed equal to the helper's count.
# Run with two busy loops beside (5 runs): the faults always exact, the
# largest %CPU difference from pcstat 1.9% of it.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"

spawn_ready "$H" rates 0 || fail "helper did not start"
set -- $ready
pid=$1 spin=$2 fault=$3

"$KERNELTOP" --tasks -b -d 1 -e cpu-clock -p "$pid" > kt.out 2> kt.err &
ktpid=$!
at_exit "kill $ktpid 2>/dev/null"
"$KERNELTOP" --tasks-raw -b -d 1 -e cpu-clock -p "$pid" > ktr.out 2> ktr.err &
ktrpid=$!
at_exit "kill $ktrpid 2>/dev/null"
"$PCSTAT" -t "$spin,$fault" --per-thread -I 1000 -e task-clock,page-faults \
	-x, -o pc.out &
pcpid=$!
at_exit "kill $pcpid 2>/dev/null"
# both count the threads from before the signal: kerneltop opens its
# counters on the target's threads before its first frame, pcstat
# before its first interval
counting() {
	grep -q '^kerneltop tasks:' kt.out && grep -q 'page-faults' pc.out &&
		grep -q '^kerneltop tasks:' ktr.out
}
retry 10 counting || fail "not counting: $(head -3 kt.out kt.err pc.out)"
kill -USR1 "$pid"
# done (slower under load), then two more frames: the one it ended in
# is printed at the refresh after
retry 60 grep -q '^faulted' "$tmpdir/spawn.$spawn_n" || fail "helper did not finish"
want=$(sed -n 's/^faulted \([0-9]*\) .*/\1/p' "$tmpdir/spawn.$spawn_n")
nframes() { grep -c '^kerneltop tasks:' kt.out; }
after=$(($(nframes) + 2))
more() { [ "$(nframes)" -ge $after ]; }
retry 10 more || fail "no frames after the helper finished"
FRAMES=$(nframes)
kill -TERM $ktpid
wait $ktpid
rc=$?
kill -TERM $ktrpid
wait $ktrpid
rcr=$?
# (SIGINT is ignored by a background job of a script)
kill -TERM $pcpid 2>/dev/null
wait $pcpid 2>/dev/null
[ $rc -eq 0 ] || fail "kerneltop exit $rc: $(cat kt.err)"
[ $rcr -eq 0 ] || fail "kerneltop --tasks-raw exit $rcr: $(cat ktr.err)"

# frames TID: per frame, "interval %CPU FAULTS/s exited" of thread TID's
# row ("-" for a frame without it)
frames() {
	awk -v tid="$1" '
	/^kerneltop tasks:/ {
		if (n) print iv, row
		n++; row = "-"
		for (i = 1; i <= NF; i++) if ($i == "interval") iv = $(i + 1)
		sub(/s$/, "", iv)
	}
	/^ +PID +TID / { for (i = 1; i <= NF; i++) col[$i] = i; next }
	col["TID"] && $col["TID"] == tid {
		row = $col["%CPU"] " " $col["FAULTS/s"] " " ($0 ~ /\(exited\)$/)
	}
	END { if (n) print iv, row }' kt.out
}
frames "$fault" > fault.frames
frames "$spin" > spin.frames
[ "$(wc -l < fault.frames)" -ge $FRAMES ] || fail "frames: $(wc -l < fault.frames) (want $FRAMES)"

# faults: each frame's count, rate x interval, summed
got=$(awk '$2 != "-" { s += int($1 * $3 + 0.5) } END { print s + 0 }' fault.frames)
pc=$(awk -F, -v t="kt-fault-$fault" '$2 == t && $5 == "page-faults" { s += $3 } END { print s + 0 }' pc.out)
[ -n "$want" ] && [ "$got" -eq "$want" ] && ok "faults exact: $got, the helper's count" ||
	fail "faults: table $got, helper ${want:-?}: $(tr '\n' ';' < fault.frames)"
[ "$got" -eq "$pc" ] && ok "faults: pcstat's $pc" || fail "faults: table $got, pcstat $pc"
# the frame it exited in keeps its counts; gone the frame after
awk '$2 != "-" && $4 == 1 { e = NR } END { exit !e }' fault.frames &&
	ok "kt-fault's last frame says it exited" || fail "no '(exited)': $(tr '\n' ';' < fault.frames)"
awk '$4 == 1 { e = NR } e && NR > e && $2 != "-" { bad = 1 } END { exit bad || !e }' fault.frames ||
	fail "kt-fault shown after its exit: $(tr '\n' ';' < fault.frames)"

# %CPU: kt-spin's CPU time over the frames, %CPU x interval, against
# its own count of what it spun (nothing else: it sleeps before and
# after), and pcstat's task-clock
kt_ms=$(awk '$2 != "-" { s += $1 * $2 * 10 } END { printf "%.1f", s }' spin.frames)
pc_ms=$(awk -F, -v t="kt-spin-$spin" '$2 == t && $5 == "task-clock" { s += $3 } END { printf "%.1f", s }' pc.out)
spun=$(sed -n 's/^faulted .* spun \([0-9.]*\)$/\1/p' "$tmpdir/spawn.$spawn_n")
# within PCT% of REF
near() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}
[ -n "$spun" ] && near "$kt_ms" "$spun" 5 &&
	ok "kt-spin: %CPU x interval $kt_ms ms, it spun $spun ms" ||
	fail "kt-spin: %CPU x interval '$kt_ms' ms, it spun '$spun' ms (want within 5%): $(tr '\n' ';' < spin.frames)"
[ -n "$spun" ] && near "$pc_ms" "$spun" 5 &&
	ok "kt-spin: pcstat $pc_ms ms" || fail "kt-spin: pcstat '$pc_ms' ms, spun '$spun'"
# while it spins, 3 ms in 5: at most 60% (less when the CPUs are shared)
awk '$2 != "-" && $2 > 62 { bad = 1 } END { exit bad }' spin.frames ||
	fail "kt-spin above 60%: $(tr '\n' ';' < spin.frames)"

# the hardware columns: shown with the PMU, else hidden with the notice
if grep -q '^hardware events not supported here' kt.out; then
	grep -Eq '^ +PID .*IPC' kt.out && fail "IPC column without a PMU" ||
		ok "no PMU: hardware columns hidden, one-line notice"
else
	grep -Eq '^ +PID +TID +USER +%CPU .* IPC ' kt.out &&
		ok "PMU: hardware columns shown" || fail "columns: $(grep PID kt.out | head -1)"
fi

# --tasks-raw: kt-fault's page-faults over the frames, the helper's count
# exactly, its last frame marked (exited); the events' names as columns
raw=$(awk -v tid="$fault" '
	/^ +PID +TID / { for (i = 1; i <= NF; i++) col[$i] = i; next }
	col["page-faults"] && $col["TID"] == tid && $col["page-faults"] != "-" {
		s += $col["page-faults"]; ex = / \(exited\)$/ }
	END { print s + 0, ex + 0 }' ktr.out)
[ -n "$want" ] && [ "$raw" = "$want 1" ] &&
	ok "--tasks-raw: kt-fault's page-faults $want over the frames, exited" ||
	fail "--tasks-raw: page-faults, exited '$raw', helper ${want:-?}: $(grep -E "^ +PID| $fault " ktr.out | head -8 | tr '\n' ';')"
grep -Eq '^ +PID +TID +task-clock +context-switches +cpu-migrations +page-faults ' ktr.out &&
	ok "--tasks-raw: columns" || fail "--tasks-raw columns: $(grep PID ktr.out | head -1)"

# processes: one row for the helper, its threads (main and kt-spin) in THR
"$KERNELTOP" --tasks --tasks-processes -b -d 0.5 -n 2 -e cpu-clock -p "$pid" \
	> proc.out 2> proc.err || fail "--tasks-processes: $(cat proc.err)"
awk '/^ +PID +THR / { t = 1; next } t && NF { print }' proc.out | tail -n +1 > proc.rows
awk -v p="$pid" '$1 == p && $2 == 2 { ok = 1 } END { exit !ok }' proc.rows &&
	ok "--tasks-processes: pid $pid, 2 threads" || fail "--tasks-processes: $(cat proc.out)"
# sorted by a column: --tasks-sort tid, ascending
"$KERNELTOP" --tasks --tasks-sort tid -b -d 0.5 -n 1 -e cpu-clock -p "$pid" \
	> sort.out 2>&1 || fail "--tasks-sort: $(cat sort.out)"
awk '/^ +PID +TID / { t = 1; next } t && NF { print $2 }' sort.out > sort.tids
sort -n -c sort.tids && [ -s sort.tids ] && ok "--tasks-sort tid" ||
	fail "--tasks-sort tid: $(tr '\n' ' ' < sort.tids)"

exit $((nfail > 0))
