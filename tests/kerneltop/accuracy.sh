#!/bin/sh
# accuracy.sh - on a workload no test is tuned for (kt-helper mix: five
# functions with unlike loop bodies), kerneltop's shares agree with perf's:
# kerneltop -b -z and perf record sample the same process at the same
# frequency over the same seconds, and perf report's top five symbols
# must each be within 3 points in kerneltop.
#
# Measured here (2 vCPUs, batch.sh looping alongside as the suite's other
# job, other builds on the machine; F 4000 Hz, 4 frames of 2 s): over 30
# runs, 150 comparisons, the largest difference was 1.12 points, the mean
# 0.28, the 95th percentile 0.75 (perf: kt_mix_hash 41-44%, kt_mix_divide
# 21-22%, kt_mix_poly 15-17%, kt_mix_shuffle ~10%, kt_mix_scan 6-9%).
# The 3 points stay the tolerance: 2.7 times the worst seen.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event perf

H="$top_builddir/tests/kerneltop/kt-helper"
F=4000 D=2 N=4
TOL=3

spawn_ready "$H" mix 0 || fail "helper did not start"
mp=$spawned

perf record -q -e cpu-clock -F $F -p $mp -o perf.data -- sleep $((D * N)) \
	> perf.log 2>&1 &
perfpid=$!
timeout 60 "$KERNELTOP" -b -z -e cpu-clock -F $F -d $D -n $N -p $mp > kt.out 2> kt.err
rc=$?
wait $perfpid || fail "perf record failed: $(tail -3 perf.log)"
[ $rc -eq 0 ] && [ "$(kt_frames kt.out)" = $N ] ||
	fail "kerneltop: exit $rc, frames $(kt_frames kt.out): $(head -3 kt.err)"

# kerneltop: with -z each frame holds that refresh's samples; their sum
# over the frames is the run's, as perf.data holds it
kt_all() {
	local i=1
	while [ $i -le $N ]; do
		kt_rows kt.out $i
		i=$((i + 1))
	done
}
kt_all | awk '{ n[$4] += $2; t += $2 }
	END { for (s in n) printf "%s %.2f\n", s, 100 * n[s] / t }' > kt.shares
perf report -q --stdio -i perf.data --no-children --sort sym 2> /dev/null |
	awk '$1 ~ /%$/ { sub("%", "", $1); print $3, $1 }' | head -5 > perf.top5
[ "$(wc -l < perf.top5)" -eq 5 ] || fail "perf report: $(cat perf.top5)"
ktn=$(kt_all | awk '{ t += $2 } END { print t + 0 }')
[ "$ktn" -ge 1000 ] || fail "kerneltop: only $ktn samples in $((D * N)) s at $F Hz"

while read -r sym p; do
	k=$(awk -v s="$sym" '$1 == s { print $2 }' kt.shares)
	d=$(awk -v a="${k:-0}" -v b="$p" 'BEGIN { d = a - b; printf "%.2f", d < 0 ? -d : d }')
	if [ -n "$k" ] && awk -v d="$d" -v t=$TOL 'BEGIN { exit !(d <= t) }'; then
		ok "$sym: perf $p%, kerneltop $k% (|d| $d)"
	else
		fail "$sym: perf $p%, kerneltop '${k}'% (more than $TOL points apart)"
	fi
done < perf.top5
done_testing
