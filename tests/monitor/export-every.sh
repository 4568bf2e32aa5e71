#!/bin/sh
# export-every.sh - monitor --export-every: the snapshots of a run, cut
# each second, add up stack by stack to the one-shot export of the same
# run; pprof's time_nanos and duration_nanos tile the run; --export-keep
# leaves the newest N per format and nothing but snapshots is removed.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/monitor/export-every-lib.sh"
need perf_event
command -v "$PYTHON3" >/dev/null 2>&1 || skip "python3 needed"

T="$top_builddir/tests/monitor"
pp=--pprof
"$MONITOR" --pprof x.pb.gz -n 1 -- true 2>&1 | grep -q "no pprof" && pp=

# 1. 2.5 s of CPU in cg-helper's tree: three snapshots or more, and the
#    whole run's folded export beside them (the same format twice: a
#    directory for the snapshots, a file for the run)
mkdir snap
t0=$(date +%s%N)
"$MONITOR" -g -u -F 997 --summary --export-every 1 --folded snap \
	--folded all.folded ${pp:+$pp snap/} --flamegraph snap \
	--speedscope snap -- "$T/cg-helper-fp" tree 2500 > summary 2> err ||
	fail "monitor --export-every: $(cat err)"
t1=$(date +%s%N)
every_check snap all.folded 3 "$t0" "$t1" 1
# every format: one snapshot per interval, of the same names
for ext in svg speedscope.json; do
	[ "$(ls snap | sed -n "s/\.$ext\$//p")" = \
	  "$(ls snap | sed -n 's/\.folded$//p')" ] &&
		ok "a .$ext snapshot for each folded one" ||
		fail ".$ext snapshots: $(ls snap)"
done
# each SVG shows cg_hot where its folded twin has it (under load the
# first second can hold the start-up alone: no cg_hot in either)
n=0
for f in $(grep -l cg_hot snap/*.folded); do
	n=$((n + 1))
	grep -q cg_hot "${f%.folded}.svg" || fail "no cg_hot in ${f%.folded}.svg"
done
[ $n -ge 1 ] && ok "the SVGs show cg_hot ($n)" ||
	fail "no folded snapshot with cg_hot: $(ls snap)"

# 1b. --off-cpu: the snapshots hold the wall-clock nanoseconds the
#     whole-run export holds, the [off-cpu] stacks with them
mkdir osnap
t0=$(date +%s%N)
"$MONITOR" --off-cpu -e cpu-clock --export-every 0.5 --folded osnap \
	--folded oall.folded ${pp:+$pp osnap/} -- "$helpers/offcpu" split -2500 \
	> /dev/null 2> oerr || fail "monitor --off-cpu --export-every: $(cat oerr)"
t1=$(date +%s%N)
# (5 snapshots on time; 2 at least when the tool runs up to 1 s late)
every_check osnap oall.folded 2 "$t0" "$t1" 0.5
n=$(grep -l ';\[off-cpu\] [0-9]*$' osnap/*.folded | wc -l)
[ "$n" -ge 2 ] && ok "--off-cpu: [off-cpu] stacks in $n snapshots" ||
	fail "--off-cpu: [off-cpu] stacks in $n snapshots: $(head -3 osnap/*.folded)"

# 2. --export-keep 2 at 0.2 s a snapshot: two per format stay.  An old
#    snapshot's name is removed; what only looks like one is not.
mkdir keep keep/profile-20000101T000000.000Z.folded.d
: > keep/profile-20000101T000000.000Z.folded
: > keep/notes.folded
: > keep/profile-20000101T000000.000Z.folded.bak
: > keep/profile-2000.folded
ln -s notes.folded keep/profile-19990101T000000.000Z.folded
"$MONITOR" -g -u -F 997 --summary --export-every 0.2 --export-keep 2 \
	--folded keep ${pp:+$pp keep} \
	-- "$T/cg-helper-fp" tree 1500 > summary 2> err ||
	fail "monitor --export-keep: $(cat err)"
keep_check keep 2
[ ! -e keep/profile-20000101T000000.000Z.folded ] &&
	ok "an old snapshot removed" || fail "the old snapshot stayed"
n=0
for f in notes.folded profile-20000101T000000.000Z.folded.bak \
	 profile-2000.folded profile-20000101T000000.000Z.folded.d \
	 profile-19990101T000000.000Z.folded; do
	[ -e "keep/$f" ] || [ -L "keep/$f" ] && n=$((n + 1)) ||
		fail "keep/$f removed"
done
[ $n -eq 5 ] && ok "what is not a snapshot stays ($n)"
done_testing
