#!/bin/sh
# rates.sh - the period asked is the period used, samples lost are all
# counted and said with their fix, the default rate is perf's, several
# events are sampled at once and each sample says whose it is.  Ground
# truth: a workload with a known number of page faults (touch-pages),
# perf stat's count and perf record's samples on the same command.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

T="$top_builddir/tests/helpers/touch-pages"
H="$top_builddir/tests/monitor/mon-helper"

# samples FILE [EVENT]: the count of the summary's first line, or of
# EVENT's line with several events
samples() {
	if [ -n "${2:-}" ]; then
		sed -n "s/^monitor: \([0-9]*\) samples of $2\$/\1/p" "$1"
	else
		sed -n 's/^monitor: \([0-9]*\) samples of .*/\1/p' "$1" | head -1
	fi
}
lost() {
	sed -n 's/^monitor: [0-9]* samples of .*, \([0-9]*\) lost, .*/\1/p' "$1"
}
# near A B: |A - B| <= 2 or 1% of B
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(d <= 2 || d <= b / 100) }'
}

# --- -c on a software event: every COUNT faults one sample ---------------
# 4096 pages 20 times: 81,920 faults.  Before, PERF_SAMPLE_PERIOD made
# the kernel sample every fault (54,456 samples and 27,514 lost).
if have_perf; then
	perf stat -x, -e page-faults -o pstat -- "$T" 4096 20
	faults=$(awk -F, '/page-faults/ { print $1 }' pstat)
	perf record -q -o perf.data -e page-faults -c 100 -- "$T" 4096 20 2> /dev/null
	psamples=$(perf script -i perf.data -F event 2> /dev/null | grep -c page-faults)
else
	without perf "perf's own figures"
	faults=$((4096 * 20))
	psamples=$((faults / 100))
fi
"$MONITOR" -e page-faults -c 100 --summary -- "$T" 4096 20 > pf 2>&1
n=$(samples pf)
if [ -n "$n" ] && near "$n" $((faults / 100)) && near "$n" "$psamples" &&
   [ "$(lost pf)" = 0 ]; then
	ok "-e page-faults -c 100: $n samples for $faults faults (perf record: $psamples)"
else
	fail "-e page-faults -c 100: '$n' samples, $(lost pf) lost, for $faults faults (perf record: $psamples): $(head -2 pf)"
fi

# --- every sample lost is counted, and said with its fix -------------------
# 20,000 faults at -c 1 fill the ring and the target ends: the kernel
# never gets to write the LOST record.  Before: 5,454 samples, 0 lost.
if have_perf; then
	perf stat -x, -e page-faults -o pstat1 -- "$T" 20000
	faults=$(awk -F, '/page-faults/ { print $1 }' pstat1)
else
	faults=20000
fi
for run in 1 2 3; do
	"$MONITOR" -e page-faults -c 1 --summary -- "$T" 20000 > lost$run 2>&1
	n=$(samples lost$run) l=$(lost lost$run)
	if [ -n "$n" ] && [ -n "$l" ] && near $((n + l)) "$faults"; then
		ok "-c 1, run $run: $n samples + $l lost for $faults faults"
	else
		fail "-c 1, run $run: '$n' samples + '$l' lost for $faults faults: $(head -1 lost$run)"
	fi
	if [ "${l:-0}" -gt 0 ]; then
		grep -q "^monitor: $l samples lost: they came faster than they were read (sample less often than -c 1)\$" lost$run ||
			fail "-c 1, run $run: no line saying what was lost and the fix: $(head -3 lost$run)"
	fi
done

# --- the default rate: perf's 4000 Hz on the clocks ------------------------
# (cycles falls back to cpu-clock here) before, they kept the 2008 count
# of 10,000: 100,000 samples a second.  The samples' span bounds them.
"$MONITOR" --json -- "$H" hot 500 > def.json 2> def.err
n=$(wc -l < def.json)
cpu=$(awk -F'[:,]' '{ t = $2 } NR == 1 { f = t } END { printf "%.3f", (t - f) / 1e9 }' def.json)
if awk -v n="$n" -v c="$cpu" 'BEGIN { exit !(n > 50 && n <= 4000 * c * 1.1 + 20) }' &&
   ! grep -q ' [1-9][0-9]* lost' def.err; then
	ok "default: $n samples over ${cpu} s, about 4000 Hz, nothing lost"
else
	fail "default: $n samples over ${cpu} s (want about 4000/s): $(grep samples def.err)"
fi
grep -q 'sampling cpu-clock at 4000 Hz' def.err ||
	grep -q 'samples of cycles' def.err ||
	fail "default: the fallback does not say the rate: $(head -2 def.err)"
"$MONITOR" -e task-clock --json -n 41 -- "$H" hot 300 2> /dev/null > tc.json
# samples 250 us apart at 4000 Hz (10 us at -c 10000).  The median of 40
# gaps: one gap alone can be 10-70 us, the rest of a period cut short when
# the task was switched out (seen at its start, in exec), or longer when
# it waited on a busy CPU.
gap=$(awk -F'[:,]' 'NR > 1 { print int(($2 - f) / 1000) } { f = $2 }' tc.json |
	sort -n | awk '{ g[NR] = $1 } END { if (NR == 40) print g[20] }')
[ "${gap:-0}" -ge 100 ] && ok "-e task-clock: samples ${gap} us apart (median)" ||
	fail "-e task-clock: samples '$gap' us apart, median of 40 (want about 250)"

# --- several events, each sample tagged with its own ------------------------
# page-faults and minor-faults count the same faults: each event's samples
# are faults / 100, as perf record samples them.
"$MONITOR" -e page-faults -e minor-faults -c 100 -- "$T" 4096 20 > two.out 2> two.err
np=$(samples two.err page-faults) nm=$(samples two.err minor-faults)
lp=$(grep -c ' page-faults 0x' two.out) lm=$(grep -c ' minor-faults 0x' two.out)
if have_perf; then
	perf record -q -o two.data -e page-faults,minor-faults -c 100 -- "$T" 4096 20 2> /dev/null
	pp=$(perf script -i two.data -F event 2> /dev/null | grep -c '^ *page-faults')
	pm=$(perf script -i two.data -F event 2> /dev/null | grep -c '^ *minor-faults')
else
	pp=$((faults / 100)) pm=$pp
fi
if [ -n "$np" ] && [ -n "$nm" ] && near "$np" "$pp" && near "$nm" "$pm" &&
   [ "$lp" = "$np" ] && [ "$lm" = "$nm" ] &&
   [ "$(samples two.err)" = $((np + nm)) ]; then
	ok "-e page-faults -e minor-faults: $np + $nm samples, $lp + $lm lines (perf: $pp + $pm)"
else
	fail "two events: summary '$np' '$nm', lines $lp $lm, perf $pp $pm: $(head -4 two.err)"
fi
"$MONITOR" --json -e page-faults,cpu-clock -F 1000 -- "$T" 4096 5 2> /dev/null > two.json
if have_python; then
	"$PYTHON3" - two.json <<'PY' && ok "--json: every sample names its event" ||
import json, sys
seen = set()
for line in open(sys.argv[1]):
    seen.add(json.loads(line)["event"])
assert seen == {"page-faults", "cpu-clock"}, seen
PY
		fail "--json with two events: $(head -c 300 two.json)"
fi

# --- under a flood, a signal still ends it --------------------------------
sh -c 'while :; do :; done' &
at_exit "kill $!"
sh -c 'while :; do :; done' &
at_exit "kill $!"
env --default-signal=INT "$MONITOR" -c 1 -g -e cpu-clock -- "$H" hot 20000 \
	> flood.out 2> flood.err &
mp=$!
# ready: a few thousand samples written
big() { [ "$(wc -l < flood.out)" -gt 5000 ]; }
retry 20 big || fail "flood: no samples came"
kill -INT $mp
n=0
while kill -0 $mp 2>/dev/null && [ $n -lt 150 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 $mp 2>/dev/null; then
	kill -KILL $mp
	fail "flood: monitor still running 15 s after SIGINT"
else
	wait $mp
	grep -q '^monitor: [0-9]* samples of cpu-clock' flood.err &&
		ok "flood: SIGINT ended monitor in $((n / 10)).$((n % 10)) s, with its summary" ||
		fail "flood: no summary: $(tail -2 flood.err)"
fi
done_testing
