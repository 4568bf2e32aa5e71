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
"$KERNELTOP" -b -n 1 -d 0.5 -e cpu-clock -s sym,dso,pid > first.out 2> first.err
if [ "$(kt_frames first.out)" = 1 ] &&
   kt_rows first.out | grep -Eq " $hp +\[\.\] kt_hot "; then
	ok "first frame: kt_hot of pid $hp"
else
	fail "first frame: no kt_hot of pid $hp: $(kt_rows first.out | head -5)"
fi
kt_rows first.out | grep -E " $hp +\[\.\] \[unknown\] +\[unknown\]" &&
	fail "first frame: samples of pid $hp in [unknown]"
kill $hp

# --- a process with 60,000 mappings --------------------------------------
[ "$(cat /proc/sys/vm/max_map_count)" -ge 61000 ] ||
	skip "vm.max_map_count below 61000"
spawn_ready "$MM" 60000 0 || fail "many-maps did not start"
# each frame as it comes, with the time it came
"$KERNELTOP" -b -d 0.3 -n 20 -e cpu-clock 2> mm.err |
	while IFS= read -r l; do
		case $l in
		kerneltop:*) echo "$(date +%s%N) $l" >> frames ;;
		esac
		printf '%s\n' "$l" >> mm.out
	done
# The rate is of ncpu CPUs at 4000 Hz at most (with timer slack); the
# gap between frames is 0.3 s, 5 s at most on a loaded 2-core VM
# (measured: 0.4 s; 3.1 s beside flood.sh's -c 1 on every CPU).
awk -v max=$((ncpu * 4000 * 13 / 10)) '{ if ($3 > max) { print "frame " NR ": " $3 " samples/s"; bad = 1 } }
	END { exit bad }' frames > rates.bad &&
	ok "every frame's rate at most $((ncpu * 4000 * 13 / 10))/s ($(awk '{ printf "%s ", $3 }' frames))" ||
	fail "inflated rates: $(cat rates.bad)"
awk '{ t = $1 / 1e9; if (NR > 1 && t - p > g) g = t - p; p = t }
	END { printf "%.1f\n", g }' frames > gap
awk -v g="$(cat gap)" 'BEGIN { exit !(g <= 5) }' &&
	ok "frames no more than $(cat gap) s apart" ||
	fail "frames $(cat gap) s apart"
kt_rows mm.out | grep -q ' maps_hot ' &&
	ok "maps_hot named once the maps are read" ||
	fail "maps_hot never named: $(kt_rows mm.out | head -5)"
done_testing
