#!/bin/sh
# export-every.sh - kerneltop --export-every, in batch and on a terminal
# (tmux): the snapshots of a run add up stack by stack to the one-shot
# export of the same run, pprof's intervals tile the run, --export-keep
# leaves N per format.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
. "$top_srcdir/tests/monitor/export-every-lib.sh"
need kerneltop tmux perf_event
command -v "$PYTHON3" >/dev/null 2>&1 || skip "python3 needed"

T="$top_builddir/tests/monitor"
pp=--pprof
"$MONITOR" --pprof x.pb.gz -n 1 -- true 2>&1 | grep -q "no pprof" && pp=
spawn_ready "$T/cg-helper-fp" tree 600000 || fail "helper did not start"
hp=$spawned

# 1. batch: 7 frames of 0.5 s, a snapshot each second
mkdir snap
t0=$(date +%s%N)
timeout 60 "$KERNELTOP" -b -n 7 -d 0.5 -e cpu-clock --call-graph fp -p $hp \
	--export-every 1 --folded snap/ --folded all.folded \
	${pp:+$pp snap/} > batch.out 2> batch.err ||
	fail "kerneltop -b --export-every: $(cat batch.err)"
t1=$(date +%s%N)
every_check snap all.folded 3 "$t0" "$t1" 1

# 2. on a terminal: snapshots while the screen is up, the last at `q'
mkdir tsnap
t0=$(date +%s%N)
tmux_start tui 120 30 "'$KERNELTOP' -d 0.5 -e cpu-clock --call-graph fp \
	-p $hp --export-every 1 --folded tsnap --folded tall.folded \
	${pp:+$pp tsnap} 2> tui.err; echo \$? > tui.rc"
retry 20 sh -c '[ $(ls tsnap | grep -c "\.folded$") -ge 2 ]' ||
	fail "no two snapshots on a terminal: $(ls tsnap)"
# (q a moment after the second: an interval with no sample is not
# written, and a loaded machine may run the helper little)
sleep 0.3
tm send-keys -t tui q
retry 20 test -s tui.rc || fail "kerneltop did not end at q"
t1=$(date +%s%N)
[ "$(cat tui.rc)" = 0 ] || fail "kerneltop on a terminal: $(cat tui.err)"
every_check tsnap tall.folded 3 "$t0" "$t1" 1

# 2b. --off-cpu: the snapshots hold the off-CPU nanoseconds the whole-run
#     export holds, not the on-CPU samples
spawn_ready "$helpers/offcpu" split -8000 || fail "offcpu helper did not start"
mkdir osnap
t0=$(date +%s%N)
timeout 60 "$KERNELTOP" -b -n 5 -d 0.5 -e cpu-clock --off-cpu -p $spawned \
	--export-every 1 --folded osnap --folded oall.folded \
	${pp:+$pp osnap/} > off.out 2> off.err ||
	fail "kerneltop --off-cpu --export-every: $(cat off.err)"
t1=$(date +%s%N)
kill $spawned 2> /dev/null
every_check osnap oall.folded 2 "$t0" "$t1" 1
n=$(grep -l ';\[off-cpu\] [0-9]*$' osnap/*.folded | wc -l)
[ "$n" -ge 2 ] && ok "--off-cpu: [off-cpu] stacks in $n snapshots" ||
	fail "--off-cpu: [off-cpu] stacks in $n snapshots: $(head -3 osnap/*.folded)"

# 3. --export-keep 1 at 0.2 s a snapshot
mkdir keep
timeout 60 "$KERNELTOP" -b -n 6 -d 0.25 -e cpu-clock -p $hp \
	--export-every 0.2 --export-keep 1 --folded keep \
	${pp:+$pp keep} > /dev/null 2> keep.err ||
	fail "kerneltop --export-keep: $(cat keep.err)"
keep_check keep 1
done_testing
