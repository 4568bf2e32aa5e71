#!/bin/sh
# first-frames.sh - system-wide, the processes that ran before kerneltop
# (whose mappings no MMAP record tells): a hot function is named in the
# first frame, not [unknown]; and a process with 60,000 mappings, read a
# little at a time, neither stalls the frames nor inflates their rates
# (before, its whole read held the loop, and the samples that piled up
# meanwhile made the next frame's samples/s two or three times the real
# rate: 14,456, 23,176 for 8,000).
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
MM="$top_builddir/tests/helpers/many-maps"
ncpu=$(getconf _NPROCESSORS_ONLN)

# --- a process from before: its function in the first frame ------------
spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned
# 1.5 s: at load 20 a first frame of 0.5 s had 57 samples in all, none
# of the helper's
"$KERNELTOP" -b -n 1 -d 1.5 -e cpu-clock -s sym,dso,pid > first.out 2> first.err
if [ "$(kt_frames first.out)" = 1 ] &&
   kt_rows first.out | grep -Eq " $hp +\[\.\] kt_hot "; then
	ok "first frame: kt_hot of pid $hp"
else
	fail "first frame: no kt_hot of pid $hp: $(kt_rows first.out | head -5)"
fi
kt_rows first.out | grep -E " $hp +\[\.\] \[unknown\] +\[unknown\]" &&
	fail "first frame: samples of pid $hp in [unknown]"
kill $hp

# frames OUT FRAMES ARGS...: run kerneltop -b ARGS, its output to OUT,
# and for each frame a line "CPU-ticks-so-far header" in FRAMES ("-" for
# the ticks when it ended before they were read).  The frames' pace is
# judged by kerneltop's own CPU time between two of them, not by the wall
# clock, which a loaded machine stretches: a read that holds the loop
# spends its whole CPU time between two frames.  With $until set, kerneltop
# is stopped (INT) once its output matches that pattern.
until=
frames() {
	local out=$1 fr=$2 kp n seen=0 ticks
	shift 2
	: > "$fr"
	# (SIGINT at its default: a background job of sh ignores it, and
	# kerneltop keeps an ignored stop signal ignored)
	env --default-signal=INT "$KERNELTOP" -b "$@" > "$out" 2> "$out.err" &
	kp=$!
	while kill -0 $kp 2> /dev/null; do
		n=$(grep -c '^kerneltop:' "$out")
		if [ "$n" -gt "$seen" ]; then
			seen=$n
			ticks=$(sed 's/.*) //' /proc/$kp/stat 2> /dev/null |
				awk '{ print $12 + $13 }')
			echo "${ticks:--} $(grep '^kerneltop:' "$out" | tail -n 1)" >> "$fr"
			[ -n "$until" ] && grep -q "$until" "$out" &&
				kill -INT $kp 2> /dev/null
		fi
		sleep 0.05
	done
	wait $kp
}
# cpu_gap FRAMES: the most CPU seconds spent before a frame since the one
# before (the first: since the start)
cpu_gap() {
	awk -v hz="$(getconf CLK_TCK)" '$1 ~ /^[0-9]+$/ {
		if (($1 - p) / hz > m) m = ($1 - p) / hz; p = $1 }
		END { printf "%.2f\n", m }' "$1"
}
# ASan makes everything about three times slower
asan=1
! sanitized "$KERNELTOP" || asan=3

# --- a JIT whose perf-PID.map has 3 million lines ---------------------------
# The map is read as samples miss it, within a share of the time in CPU
# (a quarter), 4 MiB merged at a time into what was read before: the
# frames keep their pace, and the jitted function (the file's last line)
# is named once the read gets there (kerneltop runs until then, 60
# frames at most).  Before, each read sorted the whole table again and
# held the loop: the first frame came after 2.7 s with 2 million lines;
# then reads of 4 MiB each, as many as samples missed, still took 0.52-
# 0.55 s of CPU between two frames on a loaded machine.
JH="$top_builddir/tests/monitor/mon-helper"
"$JH" jitbare 60000 > /dev/null 2> jit.ready &
jp=$!
at_exit "kill $jp 2>/dev/null; rm -f /tmp/perf-$jp.map"
retry 50 grep -q '^ready' jit.ready || fail "the JIT helper did not start"
read -r _ _ jaddr jsize < jit.ready
awk -v a="$jaddr" -v s="$jsize" 'BEGIN {
	for (i = 0; i < 3000000; i++) printf "%x 30 f%d\n", 281474976710656 + i * 64, i
	printf "%s %s jitted_spin\n", a, s }' > "/tmp/perf-$jp.map"
until=' jitted_spin '
frames jit.out jframes -d 0.3 -n 60 -e cpu-clock -p $jp
until=
# measured: at most 0.17-0.20 s of CPU between two frames (the first
# from the start) beside two helpers' builds and the suite; the reads
# before (each sorting the whole table again) held the loop 0.90 s of CPU
# between two frames.
most=$(awk -v a=$asan 'BEGIN { print 0.5 * a }')
cpu_gap jframes > jgap
awk -v g="$(cat jgap)" -v most=$most 'BEGIN { exit !(g <= most) }' &&
	ok "3M-line JIT map: at most $(cat jgap) s of CPU between frames" ||
	fail "3M-line JIT map: $(cat jgap) s of CPU between two frames"
awk -v max=$((4000 * 13 / 10)) '$3 > max { bad = 1 } END { exit bad }' jframes &&
	ok "3M-line JIT map: every rate at most $((4000 * 13 / 10))/s" ||
	fail "3M-line JIT map: inflated rates $(awk '{ printf "%s ", $3 }' jframes)"
kt_rows jit.out | grep -q ' jitted_spin ' &&
	ok "3M-line JIT map: jitted_spin, its last line, named (frame $(wc -l < jframes))" ||
	fail "3M-line JIT map: jitted_spin never named: $(kt_rows jit.out | head -3)"
kill $jp
rm -f "/tmp/perf-$jp.map"

# --- a process with 60,000 mappings --------------------------------------
[ "$(cat /proc/sys/vm/max_map_count)" -ge 61000 ] ||
	skip "vm.max_map_count below 61000"
spawn_ready "$MM" 60000 0 || fail "many-maps did not start"
# (until maps_hot is named, 60 frames at most: at load 25, 20 frames
# were not enough)
until=' maps_hot '
frames mm.out frames -d 0.3 -n 60 -e cpu-clock
until=
# The rate is of ncpu CPUs at 4000 Hz at most (with timer slack); the
# CPU between two frames: measured 0.07-0.08 s beside two helpers' builds
# and the suite (the mappings are read a few dozen lines at a time).
awk -v max=$((ncpu * 4000 * 13 / 10)) '$1 ~ /^[0-9-]/ { if ($3 > max) { print "frame " NR ": " $3 " samples/s"; bad = 1 } }
	END { exit bad }' frames > rates.bad &&
	ok "every frame's rate at most $((ncpu * 4000 * 13 / 10))/s ($(awk '{ printf "%s ", $3 }' frames))" ||
	fail "inflated rates: $(cat rates.bad)"
cpu_gap frames > gap
most=$(awk -v a=$asan 'BEGIN { print 0.5 * a }')
awk -v g="$(cat gap)" -v most=$most 'BEGIN { exit !(g <= most) }' &&
	ok "at most $(cat gap) s of CPU between frames" ||
	fail "$(cat gap) s of CPU between two frames"
kt_rows mm.out | grep -q ' maps_hot ' &&
	ok "maps_hot named once the maps are read" ||
	fail "maps_hot never named: $(kt_rows mm.out | head -5)"
done_testing
