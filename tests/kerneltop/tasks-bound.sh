#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tasks-bound.sh - the task table stays bounded with 2,000 threads: a
# process of 2,000 threads (tests/helpers/threads) starts under
# kerneltop --tasks -b (every task), so that the feed tells of each new
# thread and the table would count every one it had room for.  While
# they run, kerneltop's perf_event descriptors (/proc/PID/fd) exceed
# those of a kerneltop -b without --tasks by at most the bound the header
# states (counted threads x the events counted), it counts at most that many,
# and its RSS grows by less than 32 MiB; with 'ulimit -n 256' the bound
# falls to the 12 threads that half of it allows (x ten events).
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event root

T="$top_builddir/tests/helpers/threads"
N=2000

# fds PID / rss PID: perf_event descriptors open, resident KiB (the
# counters alone: the symbol files a run keeps open vary with what it
# sampled, and more so under load)
fds() {
	local n=0 l
	for l in /proc/$1/fd/*; do
		case $(readlink "$l" 2>/dev/null) in *perf_event*) n=$((n + 1)) ;; esac
	done
	echo $n
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# frames FILE: how many frames FILE has
frames() { grep -c "$2" "$1" 2>/dev/null || true; }
more_frames() { [ "$(frames "$1" "$2")" -gt "$3" ]; }

# run NAME LIMIT ARGS: kerneltop ARGS under ulimit -n LIMIT, the helper
# started once it drew a frame; "fds rss" of kerneltop two frames after
# the helper is ready, in NAME.fig
run() {
	local name=$1 limit=$2 kt helper pat n
	shift 2
	pat='^kerneltop'
	# (an ASan build's quarantine keeps what was freed resident, as
	# much as the run has churned: no bound of the table's own)
	( ulimit -n "$limit" &&
	  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" &&
	  export ASAN_OPTIONS &&
	  exec "$KERNELTOP" -b -d 0.5 -e cpu-clock "$@" ) \
		> "$name.out" 2> "$name.err" &
	kt=$!
	at_exit "kill $kt 2>/dev/null"
	retry 20 more_frames "$name.out" "$pat" 0 || fail "$name: no frame: $(cat "$name.err")"
	"$T" $N > /dev/null 2> "$name.helper" &
	helper=$!
	at_exit "kill $helper 2>/dev/null"
	retry 30 grep -q '^ready' "$name.helper" || fail "$name: helper not ready"
	n=$(frames "$name.out" "$pat")
	retry 10 more_frames "$name.out" "$pat" $((n + 1)) || fail "$name: no frames after"
	echo "$(fds $kt) $(rss $kt)" > "$name.fig"
	kill $helper $kt 2>/dev/null
	wait $helper $kt 2>/dev/null
}

run base 4096
run tasks 4096 --tasks
run small 256 --tasks
read base_fds base_rss < base.fig
read tasks_fds tasks_rss < tasks.fig
read small_fds small_rss < small.fig

# the header's bound: "K counted (the busiest, at most M)"
bound() {
	awk '/^kerneltop tasks:/ { for (i = 1; i <= NF; i++) if ($i == "most") m = $(i + 1) + 0 }
	     END { print m + 0 }' "$1"
}
most_counted() {
	awk '/^kerneltop tasks:/ { for (i = 1; i <= NF; i++) if ($i == "counted") { c = $(i - 1) + 0; if (c > m) m = c } }
	     END { print m + 0 }' "$1"
}
# descriptors per counted thread: the software four, ten with a PMU
k=10
grep -q '^hardware events not supported' tasks.out && k=4
for r in tasks small; do
	eval "f=\$${r}_fds"
	m=$(bound "$r.out") c=$(most_counted "$r.out")
	[ "$c" -le "$m" ] && [ "$c" -gt 0 ] && ok "$r: at most $c threads counted (bound $m)" ||
		fail "$r: $c counted, bound $m"
	# (+k: one thread's counters, opened while those of the thread
	# it replaces are closing)
	[ $((f - base_fds)) -le $((m * k + k)) ] &&
		ok "$r: $f descriptors, $((f - base_fds)) more than without --tasks (bound $m x $k)" ||
		fail "$r: $f descriptors, without --tasks $base_fds (bound $m x $k)"
done
[ "$(bound tasks.out)" -eq 128 ] || fail "bound at ulimit -n 4096: $(bound tasks.out) (want 128)"
[ "$(bound small.out)" -eq 12 ] || fail "bound at ulimit -n 256: $(bound small.out) (want 12)"
[ $((tasks_rss - base_rss)) -lt 32768 ] &&
	ok "RSS ${tasks_rss} KiB, without --tasks ${base_rss} KiB" ||
	fail "RSS ${tasks_rss} KiB, without --tasks ${base_rss} KiB (want < +32 MiB)"

exit $((nfail > 0))
