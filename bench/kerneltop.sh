#!/bin/sh
# bench/kerneltop.sh - kerneltop against perf top, side by side in one run.
# Both run as the full-screen programs users see, each on a pty of its own
# (a private tmux server: perf top spins when stdin is /dev/null), with the
# same event (cpu-clock), frequency and refresh, in turn, ROUNDS times:
#   - time from start to the first frame that shows a sampled row;
#   - own CPU (utime+stime from /proc/PID/stat) over WINDOW seconds with
#     the machine idle, then with two CPU burners running, then on a busy
#     system: many short-lived processes of many programs and libraries
#     (gcc, python3, perl, sqlite3, xz, sort, awk, openssl, ls: those
#     installed), which is where the samplers' symbol sessions grow;
#   - peak RSS (VmHWM from /proc/PID/status) after the idle window and
#     after the busy one;
#   - CPU per thousand samples at -F 20000 with the two burners, the
#     samples counted from each tool's own header (kerneltop's samples/s,
#     perf top's "Samples: N").
# Prints the medians and the ratio kerneltop / perf top.  Not a test:
# absolute numbers move with the machine; the ratios are the result.
# The targets: RSS <= 0.25x and CPU <= 0.5x, idle and busy (issue 22);
# first frame <= 0.3 s; CPU per sample <= 0.5x.
# usage: bench/kerneltop.sh [BUILDDIR] [ROUNDS] [WINDOW]
set -eu
. "$(dirname "$0")/bench-subr.sh"
b=${1:-.}
rounds=${2:-3}
win=${3:-10}
export LC_ALL=C

kt="$b/kerneltop"
[ -e "$kt" ] || { echo "no $kt (give a build dir with kerneltop built)" >&2; exit 2; }
# In a build tree ./kerneltop is libtool's wrapper script (bash): measure
# the binary itself, or the wrapper's bash would count as kerneltop.
if ! head -c 4 "$kt" | grep -q ELF; then
	if [ -x "$b/.libs/kerneltop" ] && head -c 4 "$b/.libs/kerneltop" | grep -q ELF; then
		kt="$b/.libs/kerneltop"
		LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
		export LD_LIBRARY_PATH
	else
		echo "$kt is not an ELF binary and there is no .libs/kerneltop: install to a prefix and give its bin/" >&2
		exit 2
	fi
fi
kt=$(cd "$(dirname "$kt")" && pwd)/$(basename "$kt")
command -v perf > /dev/null || { echo "perf not installed" >&2; exit 2; }
command -v tmux > /dev/null || { echo "tmux not installed" >&2; exit 2; }
burner="$b/tests/kerneltop/kt-helper"
[ -x "$burner" ] || burner=

work=$(mktemp -d "${TMPDIR:-/tmp}/kt-bench.XXXXXX")
tm() { tmux -L "ktbench-$$" -f /dev/null "$@"; }
burners=
stop_burners() {
	[ -z "$burners" ] || kill $burners 2> /dev/null || :
	burners=
}
trap 'stop_burners; stop_churn; tm kill-server 2> /dev/null || :; rm -rf "$work"' EXIT
start_burners() {
	for i in 1 2; do
		if [ -n "$burner" ]; then
			"$burner" burn 0 2> /dev/null &
		else
			sh -c 'while :; do :; done' &
		fi
		burners="$burners $!"
	done
}

# the busy system: one loop of short-lived programs, in the background
churn=
stop_churn() {
	[ -z "$churn" ] || kill $churn 2> /dev/null || :
	churn=
}
start_churn() {
	(
		cd "$work" || exit 1
		printf 'int main(void) { return 0; }\n' > t.c
		have() { command -v "$1" > /dev/null 2>&1; }
		while :; do
			! have gcc || gcc -O2 -c t.c -o t.o
			! have python3 || python3 -c 'import json, re, sqlite3'
			! have perl || perl -e 'use POSIX; 1'
			! have sqlite3 || sqlite3 :memory: 'select 1'
			! have xz || xz -9 -c /etc/services
			sort -R /etc/services
			awk 'END { print NR }' /etc/services
			! have openssl || openssl sha256 /etc/services
			ls -lR /usr/lib/python3 /usr/share/perl 2> /dev/null
		done
	) > /dev/null 2>&1 &
	churn=$!
}

# a sampled row on the screen: "  12.34%  ..." (both tools)
row_re='^ *[0-9]+\.[0-9][0-9]% '

# samples NAME TOOL: the tool's own count of samples so far (perf top:
# "Samples: 316K"), or its current samples/s (kerneltop)
samples() {
	tm capture-pane -p -t "$1" | awk -v tool="$2" '
	tool == "perf" && /^Samples: / { n = $2; m = 1
		if (n ~ /K$/) m = 1e3; else if (n ~ /M$/) m = 1e6
		sub(/[KM]$/, "", n); print n * m; exit }
	tool == "kt" && /^kerneltop: [0-9]+ samples\/s/ { print $2; exit }'
}

# next_frame NAME: until the tool redraws its header (10 s at most)
next_frame() {
	local h0 h n=0
	h0=$(tm capture-pane -p -t "$1" | head -n 1)
	while [ $n -lt 200 ]; do
		sleep 0.05
		h=$(tm capture-pane -p -t "$1" | head -n 1)
		[ "$h" != "$h0" ] && return 0
		n=$((n + 1))
	done
}

# run TOOL FREQ: start TOOL in a session, report first-frame time, then
# (at FREQ 4000) CPU idle, beside the burners and on the busy system, and
# peak RSS after the idle and the busy windows, or (at 20000) CPU per
# thousand samples; one line "first idle burn busy rss_idle rss_busy"
# or "cpu_per_k"
run() {
	tool=$1 freq=$2 name="$1-$2-$$"
	if [ "$tool" = floor ]; then
		cmd="printf '  1.00%% floor\\n'; exec sleep 60"
	elif [ "$tool" = kt ]; then
		cmd="exec '$kt' -e cpu-clock -F $freq -d 2"
	else
		cmd="exec perf top -e cpu-clock -F $freq -d 2"
	fi
	[ "$freq" -gt 4000 ] && start_burners
	t0=$(ms_now)
	env -u TMUX tmux -L "ktbench-$$" -f /dev/null new-session -d -s "$name" \
		-x 160 -y 50 -c "$work" "$cmd"
	pid=$(tm display -p -t "$name" '#{pane_pid}')
	first=
	while [ -z "$first" ] && [ $(( $(ms_now) - t0 )) -lt 20000 ]; do
		tm capture-pane -p -t "$name" | grep -Eq "$row_re" && first=$(( $(ms_now) - t0 ))
	done
	if [ "$tool" = floor ]; then
		echo "${first:-20000}"
	elif [ "$freq" -le 4000 ]; then
		sleep 1
		c0=$(cpu_ticks "$pid"); sleep "$win"; c1=$(cpu_ticks "$pid")
		rss0=$(hwm_kib "$pid")
		start_burners; sleep 1
		c2=$(cpu_ticks "$pid"); sleep "$win"; c3=$(cpu_ticks "$pid")
		stop_burners
		start_churn; sleep 1
		c4=$(cpu_ticks "$pid"); sleep "$win"; c5=$(cpu_ticks "$pid")
		rss1=$(hwm_kib "$pid")
		stop_churn
		case "$c0 $c1 $c2 $c3 $c4 $c5 $rss0 $rss1" in
		*died*) echo "died (first frame ${first:-never})" ;;
		*) echo "${first:-20000} $(( (c1 - c0) * 1000 / clk_tck )) $(( (c3 - c2) * 1000 / clk_tck ))" \
			"$(( (c5 - c4) * 1000 / clk_tck )) $rss0 $rss1" ;;
		esac
	else
		# Count between two redraws, so that neither end reads a stale
		# display: kerneltop adds samples/s x 2 s per refresh, perf top's
		# "Samples:" is a running total.
		sleep 2
		next_frame "$name"
		c0=$(cpu_ticks "$pid"); t0=$(ms_now); s0=$(samples "$name" "$tool"); n=0
		while :; do
			next_frame "$name"
			[ "$tool" = kt ] && n=$(( n + $(samples "$name" kt) * 2 ))
			[ $(( $(ms_now) - t0 )) -ge $(( win * 1000 )) ] && break
		done
		c1=$(cpu_ticks "$pid"); t1=$(ms_now)
		[ "$tool" = perf ] && n=$(awk -v a="$(samples "$name" perf)" -v b="$s0" 'BEGIN { print a - b }')
		stop_burners
		case "$c0 $c1" in
		*died*) echo died ;;
		*) awk -v c=$(( (c1 - c0) * 1000 / clk_tck )) -v n="$n" -v t=$((t1 - t0)) \
			'BEGIN { printf "%.3f %d %d\n", n ? c * 1000 / n : 0, n, n * 1000 / t }' ;;
		esac
	fi
	tm kill-session -t "$name" 2> /dev/null || :
	# let the tool go before the next one starts
	while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
}

echo "kerneltop ($kt) vs perf top ($(perf --version)), cpu-clock, -d 2,"
echo "$rounds rounds of ${win}s windows, pty $(tmux -V); medians; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(\"idle\" is this bench's own burners off: other work on the machine goes on)"
: > "$work/kt.4k"; : > "$work/perf.4k"; : > "$work/kt.20k"; : > "$work/perf.20k"
: > "$work/floor"
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	run floor 0 >> "$work/floor"
	run kt 4000 >> "$work/kt.4k"
	run perf 4000 >> "$work/perf.4k"
	run kt 20000 >> "$work/kt.20k"
	run perf 20000 >> "$work/perf.20k"
	echo "round $r: kt $(tail -1 "$work/kt.4k") / $(tail -1 "$work/kt.20k");" \
		"perf $(tail -1 "$work/perf.4k") / $(tail -1 "$work/perf.20k")" >&2
done

# median FILE COLUMN (of the runs where the tool did not die)
row() {	# row LABEL KT PERF TARGET
	awk -v l="$1" -v a="$2" -v p="$3" -v t="$4" 'BEGIN {
		printf "%-36s %12.3f %12.3f %8.3f   %s\n", l, a, p, p ? a / p : 0, t }'
}
printf "%-36s %12s %12s %8s   %s\n" "" kerneltop "perf top" ratio target
row "first frame with samples (s)" \
	"$(median "$work/kt.4k" 1 | awk '{ print $1 / 1000 }')" \
	"$(median "$work/perf.4k" 1 | awk '{ print $1 / 1000 }')" "kerneltop <= 0.3 s"
row "  the same for printf (pty floor)" \
	"$(median "$work/floor" 1 | awk '{ print $1 / 1000 }')" \
	"$(median "$work/floor" 1 | awk '{ print $1 / 1000 }')" "tmux start + polling"
row "own CPU, idle (% of a CPU)" \
	"$(median "$work/kt.4k" 2 | awk -v w="$win" '{ print $1 / w / 10 }')" \
	"$(median "$work/perf.4k" 2 | awk -v w="$win" '{ print $1 / w / 10 }')" "ratio <= 0.5"
row "own CPU, 2 burners (% of a CPU)" \
	"$(median "$work/kt.4k" 3 | awk -v w="$win" '{ print $1 / w / 10 }')" \
	"$(median "$work/perf.4k" 3 | awk -v w="$win" '{ print $1 / w / 10 }')" "ratio <= 0.5"
row "own CPU, busy system (% of a CPU)" \
	"$(median "$work/kt.4k" 4 | awk -v w="$win" '{ print $1 / w / 10 }')" \
	"$(median "$work/perf.4k" 4 | awk -v w="$win" '{ print $1 / w / 10 }')" "ratio <= 0.5"
row "peak RSS, idle (MiB)" \
	"$(median "$work/kt.4k" 5 | awk '{ print $1 / 1024 }')" \
	"$(median "$work/perf.4k" 5 | awk '{ print $1 / 1024 }')" "ratio <= 0.25"
row "peak RSS, after the busy system (MiB)" \
	"$(median "$work/kt.4k" 6 | awk '{ print $1 / 1024 }')" \
	"$(median "$work/perf.4k" 6 | awk '{ print $1 / 1024 }')" "ratio <= 0.25"
row "CPU ms per 1000 samples, -F 20000" \
	"$(median "$work/kt.20k" 1)" "$(median "$work/perf.20k" 1)" "ratio <= 0.5"
row "samples/s counted at -F 20000" \
	"$(median "$work/kt.20k" 3)" "$(median "$work/perf.20k" 3)" "(2 CPUs: 40000 at most)"
for f in kt.4k perf.4k kt.20k perf.20k; do
	n=$(grep -c '^died' "$work/$f" || :)
	[ "$n" -eq 0 ] || echo "warning: ${f%.*} died in $n of $rounds runs at ${f#*.}Hz (left out above)"
done
