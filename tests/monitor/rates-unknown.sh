#!/bin/sh
# rates-unknown.sh - --metric on code without a symbol: the rate of an
# "[unknown]" row is over the intervals that begin and end in that row,
# as a function's is over its own, and so perf's samples give it.
# Ground truth: perf record on the same run of rates-work stripped
# (attached to the run monitor started), its samples' page-faults/ms by the
# same rule (rates-perf.awk); the two must agree within twice their
# intervals' joint half width.  Before, unresolved code was keyed by its
# address: only the intervals between two samples at the same IP
# counted.  On this workload that subset is a random one and the old
# rate agreed too (3.05 ±0.10, perf 2.96): the test guards the rule
# against perf; test-rates' table is what tells the keys apart.  (On
# sort the old rule said 42.6-48.0 where this one says 32-33 and perf's
# samples by row 25.6-41.2 from run to run: too loose for a test.)
. "$top_srcdir/tests/test-subr.sh"
need perf_event perf binutils

objcopy --strip-all "$top_builddir/tests/helpers/rates-work" rw ||
	fail "objcopy --strip-all failed"
# monitor starts the command (its maps from the mmap records), perf
# attaches, answers a ping on its control FIFO once its events are on,
# and only then is the command let go: the same run, the same window.
# (perf attached after "ready" alone missed the first 100-300 ms, whose
# rate is not the rest's when the spin's speed drifts: monitor read 5-10%
# under perf in 1 run of 3.)
mkfifo ctl ack || fail "mkfifo failed"
exec 8<> ack 9<> ctl
"$MONITOR" --summary -c 1000000 -e '{cpu-clock,page-faults}:S' \
	--metric page-faults/ms -- ./rw 10 100 3 wait > out 2> err &
mpid=$!
retry 10 grep -q '^ready' err || fail "rates-work did not start: $(head -3 err)"
pid=$(sed -n 's/^ready //p' err)
# perf with a build-id cache of its own: the user's (~/.debug) may hold
# the unstripped rates-work, the same build-id, from another test's
# system-wide recording, and perf would read its symbols there
HOME=$tmpdir perf record -q -o perf.data -c 1000000 \
	-e '{cpu-clock,page-faults}:S' \
	--control fifo:ctl,ack -p $pid > /dev/null 2>&1 &
ppid=$!
echo ping >&9
[ "$(timeout 20 dd bs=4 count=1 <&8 2> /dev/null)" = ack ] ||
	fail "perf record -p did not answer its control FIFO"
kill -USR1 $pid
wait $mpid || fail "monitor exited $?: $(grep -v '^round' err | head -3)"
wait $ppid
set -- $(awk '$5 == "[unknown]" && $NF ~ /\/rw$/ {
	if ($3 == "-") print "-"; else { sub(/^\302\261/, "", $4);
	print $3, $4 } }' out)
[ $# -eq 2 ] || fail "no rate on rw's [unknown] row: $(grep -F '[unknown]' out)"
want=$(HOME=$tmpdir perf script -i perf.data -F tid,event,ip,sym,dso,period 2> /dev/null |
	awk -v want="[unknown] ($PWD/rw)" -f "$top_srcdir/tests/monitor/rates-perf.awk")
set -- "$1" "$2" $want
[ $# -ge 4 ] || fail "perf's samples gave no rate for rw: '$want'"
awk -v r="$1" -v h="$2" -v p="$3" -v ph="$4" 'BEGIN {
	d = r - p; if (d < 0) d = -d; exit !(d <= 2 * sqrt(h * h + ph * ph)) }' &&
	ok "[unknown] of rw: $1 ±$2 faults/ms, perf's samples $3 ±$4" ||
	fail "[unknown] of rw: $1 ±$2 faults/ms, perf's samples $3 ±$4"
done_testing
