#!/bin/sh
# bench/tracepoint.sh - kerneltop against perf top on a tracepoint at a
# high rate: sched:sched_switch on every CPU, under perf's own pipe
# ping-pong (perf bench sched pipe: some 100,000 switches a second per
# CPU pair), each tool full-screen on a pty of its own (a private tmux
# server), in turn, ROUNDS times, both sorting by the trace record (perf
# top's default for tracepoints).  Over WINDOW seconds: own CPU
# (utime+stime), peak RSS, and the samples read and lost per second as
# each tool's header says (kerneltop: samples/s and lost of the last
# refresh; perf top: "lost: N/M" over the window; its "Samples: 1M"
# is too coarse to give a rate).
# Prints the medians and the ratios kerneltop / perf top.  Not a test:
# the ratios are the result.
# usage: bench/tracepoint.sh [BUILDDIR] [ROUNDS] [WINDOW]
set -eu
. "$(dirname "$0")/bench-subr.sh"
b=${1:-.}
rounds=${2:-3}
win=${3:-8}
export LC_ALL=C

kt="$b/kerneltop"
[ -e "$kt" ] || { echo "no $kt (give a build dir with kerneltop built)" >&2; exit 2; }
if ! head -c 4 "$kt" | grep -q ELF; then
	echo "$kt is not an ELF binary (libtool's wrapper?): install to a prefix and give its bin/" >&2
	exit 2
fi
kt=$(cd "$(dirname "$kt")" && pwd)/$(basename "$kt")
command -v perf > /dev/null || { echo "perf not installed" >&2; exit 2; }
command -v tmux > /dev/null || { echo "tmux not installed" >&2; exit 2; }
[ -r /sys/kernel/tracing/events/sched/sched_switch/format ] ||
	{ echo "no sched:sched_switch in tracefs" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench.XXXXXX")
tm() { tmux -L "tpbench-$$" -f /dev/null "$@"; }
load=
trap '[ -z "$load" ] || kill $load 2> /dev/null; tm kill-server 2> /dev/null || :; rm -rf "$work"' EXIT

# run TOOL: one line "cpu_ms rss_kib read_per_s lost_per_s"
run() {
	tool=$1 name="$1-$$"
	perf bench sched pipe -l 1000000000 > /dev/null 2>&1 &
	load=$!
	if [ "$tool" = kt ]; then
		cmd="exec '$kt' -e sched:sched_switch -d 2"
	else
		cmd="exec perf top -e sched:sched_switch -d 2"
	fi
	env -u TMUX tmux -L "tpbench-$$" -f /dev/null new-session -d -s "$name" \
		-x 250 -y 50 -c "$work" "$cmd"
	pid=$(tm display -p -t "$name" '#{pane_pid}')
	sleep 3
	h0=$(tm capture-pane -p -t "$name" | head -n 1)
	c0=$(cpu_ticks "$pid"); t0=$(ms_now)
	sleep "$win"
	c1=$(cpu_ticks "$pid"); t1=$(ms_now)
	h1=$(tm capture-pane -p -t "$name" | head -n 1)
	rss=$(hwm_kib "$pid")
	tm kill-session -t "$name" 2> /dev/null || :
	kill $load 2> /dev/null || :
	wait $load 2> /dev/null || :
	load=
	while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
	case "$c0 $c1 $rss" in *died*) echo died; return ;; esac
	printf '%s\n%s\n' "$h0" "$h1" | awk -v tool="$tool" \
	    -v c=$(( (c1 - c0) * 1000 / clk_tck )) -v r="$rss" -v t=$((t1 - t0)) '
	tool == "kt" && NR == 2 { n = $2; l = 0
		# "lost N", or when overloaded "[dropping samples: N lost, ..."
		for (i = 1; i < NF; i++) {
			if ($i == "lost") l = $(i + 1)
			if ($i == "samples:" && $(i + 2) == "lost,") l = $(i + 1)
		}
		# the header line shows the last refresh (2 s)
		printf "%d %d %d %d\n", c, r, n, l / 2 }
	tool == "perf" { for (i = 1; i < NF; i++) {
			if ($i == "lost:") { split($(i + 1), a, "/"); lo[NR] = a[2] } } }
	tool == "perf" && NR == 2 { printf "%d %d - %d\n", c, r,
		(lo[2] - lo[1]) * 1000 / t }'
}

echo "kerneltop ($kt) vs perf top ($(perf --version)), sched:sched_switch on every CPU"
echo "under perf bench sched pipe, $rounds rounds of ${win}s, -d 2; medians; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/kt"; : > "$work/perf"
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	run kt >> "$work/kt"
	run perf >> "$work/perf"
done
printf '%-22s %12s %12s %8s\n' "" kerneltop "perf top" ratio
col=1
for what in "CPU ms per window" "peak RSS KiB" "samples read /s" "samples lost /s"; do
	k=$(median "$work/kt" $col); p=$(median "$work/perf" $col)
	[ "$p" != "nan" ] || p=-
	printf '%-22s %12s %12s %8s\n' "$what" "$k" "$p" \
		"$(awk -v a="$k" -v b="$p" 'BEGIN { if (b + 0 > 0) printf "%.2fx", a / b; else print "-" }')"
	col=$((col + 1))
done
