#!/bin/sh
# bench/offcpu.sh - what taking off-CPU time costs the target: a pipe
# ping-pong (tests/helpers/offcpu pingpong, each side spinning SPIN_US
# of CPU time a turn: about 10,000 context switches a second at 70) runs
# WINDOW ms alone, under kerneltop --off-cpu -b -e cpu-clock, and under
# perf record of the same events (cpu-clock at kerneltop's 4000 Hz and
# context-switches at every switch, -g, --switch-events), in turn, ROUNDS
# times.  The target's round trips a
# second in each, its slowdown (alone / under the tool), and the ratio
# of kerneltop's slowdown to perf's.  Not a test: the figures are the
# result.
# usage: bench/offcpu.sh [BUILDDIR] [ROUNDS] [WINDOW_MS] [SPIN_US]
set -eu
. "$(dirname "$0")/bench-subr.sh"
b=${1:-.}
rounds=${2:-3}
win=${3:-3000}
spin=${4:-70}
export LC_ALL=C

kt="$b/kerneltop"
helper="$b/tests/helpers/offcpu"
[ -x "$kt" ] || { echo "no $kt (give a build dir with kerneltop built)" >&2; exit 2; }
[ -x "$helper" ] || { echo "no $helper (make -C $b check builds it)" >&2; exit 2; }
command -v perf > /dev/null || { echo "perf not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/offcpu-bench.XXXXXX")
hp= tp=
trap '[ -z "$tp" ] || kill $tp 2> /dev/null; [ -z "$hp" ] || kill $hp 2> /dev/null; rm -rf "$work"' EXIT

# run TOOL: one line "trips_per_s" of the ping-pong under TOOL (none, kt,
# perf); the tool attached first, then the target let go (SIGUSR1)
run() {
	: > "$work/h.err"
	"$helper" pingpong "$win" "$spin" 2> "$work/h.err" &
	hp=$!
	while ! grep -q '^ready' "$work/h.err"; do sleep 0.05; done
	: > "$work/t.out"
	case $1 in
	kt)
		"$kt" --off-cpu -b -d 1 -e cpu-clock -p $hp > "$work/t.out" 2> /dev/null &
		tp=$!
		# its first frame: the counters are on
		while ! grep -q '^kerneltop: [0-9]' "$work/t.out"; do sleep 0.05; done
		;;
	perf)
		perf record -q -e cpu-clock/freq=4000/ \
			-e context-switches/period=1/ -g --switch-events \
			-p $hp -o "$work/perf.data" > /dev/null 2>&1 &
		tp=$!
		# perf record says nothing once it is on: give it a second
		sleep 1
		;;
	esac
	kill -USR1 $hp
	wait $hp || :
	hp=
	if [ -n "$tp" ]; then
		wait $tp || :
		tp=
	fi
	awk '/^truth trips/ { printf "%.0f\n", $3 / $5 * 1000 }' "$work/h.err"
}

for r in $(seq "$rounds"); do
	for t in none kt perf; do
		echo "$(run $t)" >> "$work/$t"
	done
	echo "round $r: alone $(tail -1 "$work/none"), kerneltop $(tail -1 "$work/kt"), perf $(tail -1 "$work/perf") trips/s" >&2
done
none=$(median "$work/none" 1)
k=$(median "$work/kt" 1)
p=$(median "$work/perf" 1)
awk -v n="$none" -v k="$k" -v p="$p" -v s="$spin" 'BEGIN {
	printf "ping-pong, %d us of CPU a turn: %.0f round trips/s alone (%.0f switches/s)\n", s, n, 2 * n
	printf "%-34s %12s %10s\n", "", "trips/s", "slowdown"
	printf "%-34s %12.0f %9.3fx\n", "kerneltop --off-cpu -b", k, n / k
	printf "%-34s %12.0f %9.3fx\n", "perf record (the same events)", p, n / p
	printf "kerneltop slowdown / perf slowdown: %.3f (cost over alone: %.1f%% vs %.1f%%)\n",
		(n / k) / (n / p), 100 * (n / k - 1), 100 * (n / p - 1)
}'
