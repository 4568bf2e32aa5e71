#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bigproc.sh - monitor --all-threads on a process of 3,000 threads under
# 'ulimit -n 4096', too few descriptors for a counter per thread per CPU
# (monitor stopped with "too many open files" before): it samples with
# one counter per CPU, keeps the target's records alone and says so in
# the summary.  The helper's two busy threads run hot_a and hot_b in a
# fixed ratio; perf record -p on the same run gives the reference share.
# A child process and a thread the target starts once monitor samples
# must have their samples (their CPU time x the rate the target's busy
# threads got in the same run: a loaded VM gives fewer than F a second
# of CPU time), a decoy process spinning beside it none.
. "$top_srcdir/tests/test-subr.sh"
need perf_event root

H="$top_builddir/tests/helpers/threads"
N=3000 F=8000
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || skip "one CPU: per-thread counters for 3000 threads fit 4096"

spawn_ready "$H" $N || fail "helper did not start"
tp=$spawned hs=$tmpdir/spawn.$spawn_n
spawn_ready "$H" decoy || fail "decoy did not start"
dp=$spawned

# (a guard against a hang: at load 25 the run took more than 60 s; and
# rings of 4 MiB: there monitor got so little CPU that 70,000 of 100,000
# samples were lost, the child's with them)
( ulimit -n 4096 && exec timeout 180 "$MONITOR" -e cpu-clock -F $F -m 1024 \
	--all-threads $tp ) > out 2> err &
mp=$!
at_exit "kill $mp 2>/dev/null"
# sampling once the first sample is out
n=0
while ! grep -q '^[0-9]' out && [ $n -lt 300 ] && kill -0 $mp 2> /dev/null; do
	sleep 0.1
	n=$((n + 1))
done
grep -q '^[0-9]' out || fail "no sample from monitor: $(head -3 err)"
# "TID NS" of each thread of the target: its CPU time so far
cpu_ns() {
	awk '{ split(FILENAME, p, "/"); print p[5], $1 }' /proc/$tp/task/*/schedstat
}
busy() { awk '/^[0-9]/ && $5 ~ /^hot_[ab]\+/ { n++ } END { print n + 0 }' out; }
cpu_ns > cpu0
n0=$(busy)

if have_perf; then
	perf record -q -e cpu-clock -F $F -p $tp -o perf.data -- sleep 3 \
		> perf.out 2>&1 || fail "perf record failed: $(tail -3 perf.out)"
fi
# a child and a thread, both new
kill -USR1 $tp
n=0
while ! grep -q '^done' "$hs" && [ $n -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
set -- $(sed -n 's/^done //p' "$hs")
child_us=${1:-0} thread_us=${2:-0}
[ "$child_us" -gt 0 ] && [ "$thread_us" -gt 0 ] || fail "no burst: $(cat "$hs")"
cpu_ns > cpu1
kill -INT $mp
wait $mp
rc=$?
[ $rc -eq 0 ] || fail "monitor exited $rc: $(head -3 err)"

want="per-CPU counters filtered to pid $tp ($N threads x $ncpu CPUs would need $((N * ncpu)) descriptors; limit 4096)"
grep -qxF "monitor: sampling: $want" err &&
	ok "summary: $want" || fail "no scheme line: $(grep sampling err)"

# "TIME TID CPU IP SYM+OFF DSO [FILE:LINE]"
awk '/^[0-9]/ { s = $5; sub(/\+.*/, "", s); n[s]++ }
	END { for (s in n) print s, n[s] }' out > funcs
count() { awk -v s=$1 '$1 == s { print $2 }' funcs; }
awk -v d=$dp '/^[0-9]/ && ($2 == d || $5 ~ /^decoy_spin/)' out > foreign
[ -s foreign ] && fail "the decoy's samples: $(head -3 foreign)"
[ -s foreign ] || ok "no sample of the decoy's among $(grep -c '^[0-9]' out)"

# the rate of samples per second of CPU time, of the two busy threads
# (hot_a, hot_b) between the two readings of their CPU time: F on a
# quiet machine, 7,000 where the host's stalls count as CPU time
rate=$(awk 'NR == FNR { c0[$1] = $2; next }
	($1 in c0) { print $2 - c0[$1] }' cpu0 cpu1 | sort -n | tail -2 |
	awk -v n=$(($(busy) - n0)) '{ ns += $1 }
		END { if (ns > 0) printf "%.0f", n * 1e9 / ns }')
[ "${rate:-0}" -gt $((F / 2)) ] && [ "$rate" -le $((F * 11 / 10)) ] ||
	fail "the busy threads' samples: '$rate' a second of CPU at -F $F"
# the new ones: their loops' CPU time x that rate, within 15% (F alone:
# 0.95-0.98 of it beside two busy loops, 0.87 at load 5-8; this rate:
# 0.93-1.11 at load 25 with 70,000 samples lost, 3 runs)
for fn in hot_child:$child_us hot_thread:$thread_us; do
	f=${fn%:*} us=${fn#*:}
	got=$(count $f)
	exp=$((us * ${rate:-$F} / 1000000))
	if [ -n "$got" ] && [ $((got * 100)) -ge $((exp * 85)) ] &&
		[ $((got * 100)) -le $((exp * 115)) ]; then
		ok "$f: $got samples for ${us} us of CPU (${rate:-$F} a second of CPU)"
	else
		fail "$f: '$got' samples for ${us} us of CPU (want about $exp): $(grep -o '[0-9]* lost' err)"
	fi
done

# hot_a's part of hot_a + hot_b: perf's on the same run, within 2 points
# (measured: 0.14-0.48 apart, 4 runs)
a=$(count hot_a) b=$(count hot_b)
mshare=$(awk -v a=${a:-0} -v b=${b:-0} 'BEGIN { if (a + b) printf "%.2f", 100 * a / (a + b) }')
if have_perf; then
	perf report -q --stdio -i perf.data --no-children --sort sym \
		2> /dev/null | awk '$1 ~ /%$/ { sub("%", "", $1); print $3, $1 }' > pf
	pa=$(awk '$1 == "hot_a" { print $2 }' pf)
	pb=$(awk '$1 == "hot_b" { print $2 }' pf)
	pshare=$(awk -v a=${pa:-0} -v b=${pb:-0} 'BEGIN { if (a + b) printf "%.2f", 100 * a / (a + b) }')
	if [ -n "$mshare" ] && [ -n "$pshare" ] && awk -v a=$mshare -v b=$pshare \
		'BEGIN { d = a - b; exit !(d <= 2 && -d <= 2) }'; then
		ok "hot_a of hot_a + hot_b: perf $pshare%, monitor $mshare%"
	else
		fail "hot_a of hot_a + hot_b: perf '$pshare'%, monitor '$mshare'%"
	fi
else
	without perf "the comparison with perf's shares"
fi
done_testing
