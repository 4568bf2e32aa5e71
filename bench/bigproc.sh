#!/bin/sh
# bench/bigproc.sh - kerneltop -p against perf top -p on one process of
# many threads (tests/helpers/threads: two busy, the rest asleep), both as
# the full-screen programs users see, each on a pty of its own in a private
# tmux server (as bench/kerneltop.sh drives them), cpu-clock at 4000 Hz,
# refresh 2 s, one after the other on the same process:
#   - kerneltop under 'ulimit -n LIMIT' (4096: too few descriptors for a
#     counter per thread per CPU; it picks its scheme, shown in the header);
#   - perf top under the same limit (it cannot open its counters there:
#     said so), then both at the limit the shell has (perf top's figures
#     come from that run).
# For each: own CPU (utime+stime) over WINDOW seconds, peak RSS (VmHWM),
# samples lost over the window (kerneltop: the sum of its frames' "lost";
# perf top: its total "lost: N/TOTAL"), and the ratios kerneltop / perf top.
# Not a test: the ratios are the result.
# usage: bench/bigproc.sh [BUILDDIR] [THREADS] [WINDOW] [LIMIT]
set -eu
. "$(dirname "$0")/bench-subr.sh"
b=${1:-.}
nthreads=${2:-3000}
win=${3:-10}
limit=${4:-4096}
export LC_ALL=C

kt="$b/kerneltop"
[ -e "$kt" ] || { echo "no $kt (give a build dir with kerneltop built)" >&2; exit 2; }
# a build tree's ./kerneltop is libtool's wrapper script: measure the binary
if ! head -c 4 "$kt" | grep -q ELF; then
	kt="$b/.libs/kerneltop"
	LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
kt=$(cd "$(dirname "$kt")" && pwd)/$(basename "$kt")
helper="$b/tests/helpers/threads"
[ -x "$helper" ] || { echo "no $helper (make check builds it)" >&2; exit 2; }
command -v perf > /dev/null || { echo "perf not installed" >&2; exit 2; }
command -v tmux > /dev/null || { echo "tmux not installed" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bigproc-bench.XXXXXX")
tm() { tmux -L "bpbench-$$" -f /dev/null "$@"; }
hp=
trap '[ -z "$hp" ] || kill $hp 2> /dev/null; tm kill-server 2> /dev/null || :; rm -rf "$work"' EXIT

: > "$work/helper"
"$helper" "$nthreads" 2> "$work/helper" &
hp=$!
n=0
while ! grep -q '^ready' "$work/helper" && [ $n -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
grep -q '^ready' "$work/helper" || { echo "helper did not start: $(cat "$work/helper")" >&2; exit 1; }

row_re='^ *[0-9]+\.[0-9][0-9]% '
screen() { tm capture-pane -p -t "$1"; }
# until the tool redraws its header (10 s at most)
next_frame() {
	local h0 h n=0
	h0=$(screen "$1" | head -n 1)
	while [ $n -lt 200 ]; do
		sleep 0.05
		h=$(screen "$1" | head -n 1)
		[ "$h" != "$h0" ] && return 0
		n=$((n + 1))
	done
}

# run TOOL LIMIT: one line "CPU_MS RSS_KIB LOST", or "failed: WHY"
run() {
	local tool=$1 lim=$2 name="$1-$2-$$" cmd pane pid c0 c1 t0 lost=0 l
	if [ "$tool" = kt ]; then
		cmd="'$kt' -e cpu-clock -F 4000 -d 2 -p $hp"
	else
		cmd="perf top -e cpu-clock -F 4000 -d 2 -p $hp"
	fi
	# the shell stays to show how the tool ended
	env -u TMUX tmux -L "bpbench-$$" -f /dev/null new-session -d -s "$name" \
		-x 200 -y 50 -c "$work" \
		"ulimit -n $lim; $cmd 2> '$work/$name.err'; echo \"exit \$?\"; sleep 600"
	pane=$(tm display -p -t "$name" '#{pane_pid}')
	t0=$(ms_now)
	while ! screen "$name" | grep -Eq "$row_re" &&
		! screen "$name" | grep -q '^exit [0-9]' &&
		[ $(( $(ms_now) - t0 )) -lt 30000 ]; do
		sleep 0.2
	done
	pid=$(pgrep -P "$pane" -x "$([ "$tool" = kt ] && echo kerneltop || echo perf)" || :)
	if ! screen "$name" | grep -Eq "$row_re" || [ -z "$pid" ]; then
		# perf top's dialog is boxed: its lines start and end with "x"
		(cat "$work/$name.err"; screen "$name") |
			sed -E 's/^ *x *//; s/ *x *$//' > "$work/$name.why"
		why=$(grep -Eim1 'too many|open files' "$work/$name.why" ||
			grep -Eim1 'cannot|failed|error' "$work/$name.why" ||
			echo "no sampled row in 30 s")
		echo "failed: $why"
		tm kill-session -t "$name" 2> /dev/null || :
		return
	fi
	sleep 1
	next_frame "$name"
	c0=$(cpu_ticks "$pid")
	t0=$(ms_now)
	while :; do
		next_frame "$name"
		if [ "$tool" = kt ]; then
			l=$(screen "$name" | awk '/^kerneltop: / { for (i = 1; i < NF; i++) if ($i == "lost") { print $(i + 1); exit } }')
			lost=$((lost + ${l:-0}))
		fi
		[ $(( $(ms_now) - t0 )) -ge $(( win * 1000 )) ] && break
	done
	c1=$(cpu_ticks "$pid")
	if [ "$tool" = perf ]; then
		# "lost: 0/123": the last refresh's and the total
		lost=$(screen "$name" | sed -n 's/.*lost: *[0-9]*\/\([0-9]*\).*/\1/p' | head -1)
	fi
	echo "$(( (c1 - c0) * 1000 / clk_tck )) $(hwm_kib "$pid") ${lost:-0}"
	tm kill-session -t "$name" 2> /dev/null || :
	while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
}

echo "kerneltop ($kt) vs perf top ($(perf --version)) -p, a process of $nthreads threads"
echo "on $(getconf _NPROCESSORS_ONLN) CPUs; cpu-clock 4000 Hz, -d 2, ${win}s window; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
kt_low=$(run kt "$limit")
pf_low=$(run perf "$limit")
def=$(ulimit -n)
kt_def=$(run kt "$def")
pf_def=$(run perf "$def")
printf "%-42s %10s %10s %8s\n" "" kerneltop "perf top" ratio
line() {	# LABEL KT PERF: each "CPU_MS RSS_KIB LOST" or "failed: ..."
	case "$2" in failed*) echo "$1: kerneltop $2"; return ;; esac
	case "$3" in failed*)
		echo "$2" | awk -v l="$1" -v w=$win '{ printf "%s: kerneltop %.1f%% of a CPU, peak RSS %.1f MiB, lost %d\n", l, $1 / w / 10, $2 / 1024, $3 }'
		echo "$1: perf top $3"
		return ;;
	esac
	echo "$2 $3" | awk -v l="$1" -v w=$win '{
		printf "%-42s %10.1f %10.1f %8.2f\n", l " CPU (% of a CPU)", $1 / w / 10, $4 / w / 10, $4 ? $1 / $4 : 0
		printf "%-42s %10.1f %10.1f %8.2f\n", l " peak RSS (MiB)", $2 / 1024, $5 / 1024, $5 ? $2 / $5 : 0
		printf "%-42s %10d %10d %8s\n", l " lost", $3, $6, $6 ? sprintf("%.2f", $3 / $6) : "-" }'
}
line "ulimit -n $limit" "$kt_low" "$pf_low"
line "ulimit -n $def" "$kt_def" "$pf_def"
line "kt@$limit vs perf@$def" "$kt_low" "$pf_def"
