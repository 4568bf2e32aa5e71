#!/bin/sh
# bench/monitor.sh - what sampling a program costs, monitor against
# kerneltop and perf record, side by side in one run on the same program.
# Each round runs the program alone, then under each tool at the same
# event and rate, in turn; each tool is attached to the program started
# stopped (so that its start-up is not the program's), follows all its
# threads, and is timed on its own (no children).  Prints the medians of:
#   - the program's wall time under the tool / alone (its slowdown);
#   - the tool's own CPU seconds, and per thousand samples (monitor);
# and the ratios the issue sets: monitor's CPU against kerneltop's
# (<= 1), monitor's slowdown against perf record's (<= 1).
# Not a test: absolute numbers move with the machine; read the ratios.
# Best on a program with rich debug info (the issue's case: zstd built
# with -g, heavily inlined), given after --.
# usage: bench/monitor.sh [BUILDDIR] [ROUNDS] [HZ] [-- COMMAND [ARGS]]
set -eu
. "$(dirname "$0")/bench-subr.sh"
b=${1:-.}
rounds=${2:-5}
hz=${3:-4000}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || set -- "$b/tests/monitor/mon-helper" hot 3000
export LC_ALL=C
for t in monitor kerneltop; do
	head -c 4 "$b/$t" 2>/dev/null | grep -q ELF ||
		{ echo "no ELF $b/$t (give a build dir)" >&2; exit 2; }
done
mon=$(cd "$b" && pwd)/monitor
kt=$(cd "$b" && pwd)/kerneltop
command -v perf > /dev/null || { echo "perf not installed" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mon-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run TOOL: the program started stopped, TOOL attached, the program let
# go; prints "program-wall-ms tool-cpu-s samples"
run() {
	t=$1
	shift
	sh -c 'kill -STOP $$; exec "$@"' sh "$@" > /dev/null 2>&1 &
	p=$!
	while [ "$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f1)" != T ]; do
		sleep 0.01
	done
	case $t in
	alone) ;;
	monitor) /usr/bin/time -f "%U %S" -o "$work/t" \
		"$mon" -e cpu-clock -F "$hz" --all-threads "$p" \
		> "$work/out" 2> "$work/err" & ;;
	kerneltop) /usr/bin/time -f "%U %S" -o "$work/t" \
		"$kt" -b -e cpu-clock -F "$hz" -d 1 -p "$p" \
		> "$work/out" 2> "$work/err" & ;;
	perf) /usr/bin/time -f "%U %S" -o "$work/t" \
		perf record -q -e cpu-clock -F "$hz" -o "$work/perf.data" -p "$p" \
		> "$work/out" 2> "$work/err" & ;;
	esac
	tool=$!
	# the tool is ready once it has opened its counters
	n=0
	while [ "$t" != alone ] && [ $n -lt 500 ] &&
	      ! ls -l /proc/$tool/fd 2>/dev/null | grep -q perf_event &&
	      ! ls -l /proc/$(pgrep -P $tool | head -1)/fd 2>/dev/null | grep -q perf_event; do
		sleep 0.01; n=$((n + 1))
	done
	t0=$(ms_now)
	kill -CONT $p
	wait $p || :
	t1=$(ms_now)
	if [ "$t" = alone ]; then
		echo "$((t1 - t0)) 0 0"
		return
	fi
	# perf record ends with its target; monitor and kerneltop too
	wait $tool || :
	s=$(grep -o '[0-9]* samples of' "$work/err" | cut -d' ' -f1)
	echo "$((t1 - t0)) $(awk '{ print $1 + $2 }' "$work/t") ${s:-0}"
}

echo "monitor and kerneltop ($b) vs $(perf --version), cpu-clock at $hz Hz,"
echo "$rounds rounds of: $*; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for t in alone monitor kerneltop perf; do : > "$work/$t.res"; done
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	for t in alone monitor kerneltop perf; do
		run "$t" "$@" >> "$work/$t.res"
	done
	echo "round $r: alone $(tail -1 "$work/alone.res"); monitor" \
		"$(tail -1 "$work/monitor.res"); kerneltop" \
		"$(tail -1 "$work/kerneltop.res"); perf $(tail -1 "$work/perf.res")" >&2
done

# the slowdowns pair by pair with the alone run of the same round
slow() {
	paste "$work/$1.res" "$work/alone.res" | awk '{ print $1 / $4 }' > "$work/$1.slow"
	median "$work/$1.slow" 1
}
a=$(median "$work/alone.res" 1)
ms=$(slow monitor); ks=$(slow kerneltop); ps=$(slow perf)
mc=$(median "$work/monitor.res" 2); kc=$(median "$work/kerneltop.res" 2)
pc=$(median "$work/perf.res" 2); mn=$(median "$work/monitor.res" 3)
printf "%-34s %10s %10s %10s\n" "" monitor kerneltop "perf rec"
printf "%-34s %10.3f %10.3f %10.3f   (alone %.2f s)\n" "program wall, x alone" \
	"$ms" "$ks" "$ps" "$(echo "$a" | awk '{ print $1 / 1000 }')"
printf "%-34s %10.2f %10.2f %10.2f\n" "tool's own CPU (s)" "$mc" "$kc" "$pc"
awk -v c="$mc" -v n="$mn" 'BEGIN { printf "%-34s %10.3f   (%d samples)\n",
	"monitor CPU ms per 1000 samples", n ? c * 1e6 / n : 0, n }'
awk -v m="$mc" -v k="$kc" -v ms="$ms" -v ps="$ps" 'BEGIN {
	printf "monitor CPU / kerneltop CPU         = %.2f   (goal <= 1)\n", k ? m / k : 0
	printf "monitor slowdown / perf record\x27s   = %.3f  (goal <= 1)\n", ps ? ms / ps : 0 }'
