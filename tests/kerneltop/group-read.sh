#!/bin/sh
# group-read.sh - kerneltop -b with grouped sampling, -e
# '{cpu-clock,page-faults}:S' --metric page-faults/ms, on two copies of a
# helper (-p A,B) whose toucher() functions touch 3 and 1 pages a CPU ms:
# the rate column of each copy's toucher row holds the truth that copy
# measured around it (its own faults per its own CPU ms, over the rounds
# run while kerneltop sampled, give or take a round each side) within
# the 95% interval shown, and the spinner() that touches none shows 0
# within its interval.  Phases of 50 ms against a period of 1 ms (see
# group-read in tests/monitor).  Measured here (ASan, two busy loops and
# both QEMU guests, 6 runs, one copy): within 0.009 of the truth,
# ±0.046-0.059; with 3 frames of 1 s one run in 4 missed by a hair (the
# truth's rounds and kerneltop's window did not quite meet).  On the
# terminal, m steps through the rate columns and e keeps the leader's
# table.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/helpers/rates-work"

# Two copies of the helper, touching 3 and 1 pages a ms: a function is a
# (name, DSO) pair, and each copy's toucher row holds its own truth (one
# rate by name would show both near 2).
cp "$H" ./rw-copy
spawn_ready "$H" 400 50 3 || fail "helper did not start"
pa=$spawned na=$spawn_n
spawn_ready ./rw-copy 400 50 1 || fail "its copy did not start"
pb=$spawned nb=$spawn_n
# rounds N: the last round's "faults ms" of toucher in spawn.N
rounds() {
	sed -n 's/^round [0-9]* toucher \([0-9]*\) \([0-9.]*\) .*/\1 \2/p' \
		"$tmpdir/spawn.$1" | tail -1
}
# The truth over the time kerneltop sampled, from the round lines: the
# copies stand still (SIGSTOP) while kerneltop attaches and prints its
# first frame, run from then (CONT) until its fifth (STOP again), and
# the rates are read in its sixth, once they stand still: kerneltop saw
# every moment of theirs the truth holds, but for the round each side
# that the lines cut.  (Before, the truth began before kerneltop started
# and ended at its exit: the rate drifts as the spin's speed does, and
# one run in a few missed by a few percent, 4.516 against 4.368.)
kill -STOP $pa $pb
kt_spawn kt -b -n 6 -d 1.5 -c 1000000 -p $pa,$pb \
	-e '{cpu-clock,page-faults}:S' --metric page-faults/ms \
	--metric page-faults
# frames N: kerneltop has printed N frames (or ended)
frames() {
	[ "$(grep -c '^kerneltop: [0-9]* samples/s' kt.out)" -ge "$1" ] ||
		bg_done kt
}
retry 60 frames 1 || fail "kerneltop printed no first frame: $(head -3 kt.err)"
for n in $na $nb; do
	r=$(rounds $n)
	echo "${r:-0 0}" > before.$n	# none done yet: from 0
done
kill -CONT $pa $pb
retry 60 frames 5 || fail "kerneltop printed no fifth frame: $(head -3 kt.err)"
kill -STOP $pa $pb
kt_reap kt
[ $rc -eq 0 ] && [ "$(kt_frames kt.out)" = 6 ] ||
	fail "kerneltop: exit $rc, frames $(kt_frames kt.out): $(head -3 kt.err)"
kill $pa $pb
kill -CONT $pa $pb
wait $pa $pb 2>/dev/null
truth() {
	rounds $1 | cat before.$1 - | awk '
	NR == 1 { f0 = $1; t0 = $2 } NR == 2 && $2 > t0 {
		printf "%.3f", ($1 - f0) / ($2 - t0) }'
}
kt_header kt.out 6 | grep -q 'page-faults/ms *page-faults ' ||
	fail "no rate columns: $(kt_header kt.out 6)"

# rate FN DSO: "RATE HALF" of (FN, DSO)'s row in the last frame
# (page-faults/ms); DSO an ERE for the path's end
rate() {
	kt_rows kt.out 6 | awk -v fn="$1" -v dso="$2" '{
		for (i = 3; i < NF && $i != "[.]"; i++) ;
		if ($(i + 1) != fn || $(i + 2) !~ dso || $3 == "-") next
		sub(/^\302\261/, "", $4); print $3, $4 }'
}
# Twice the 95% half width (3.9 sigma): a 95% interval misses the truth
# one run in 20 by design (2.890 +-0.042 against 2.847 once).  Under a
# loaded machine the rate also sits above the helper's truth, always
# that way, by more than the interval says: 3.083 +-0.075 against 2.637
# and 2.983 +-0.072 against 2.675 (ASan) in 2 of 6 full runs of this
# stop, 6.24 against 5.518 in issue 30's: a bias of the estimator under
# load (the intervals it keeps are those a sample in another function
# did not cut), not noise, and not yet removed.  Up to 20% of the truth
# is taken besides; a rule that leaks a function's events into another
# is off by 30% and more (42.6-48.0 against 32-33: rates-unknown.sh).
for c in "rates-work $na" "rw-copy $nb"; do
	set -- $c
	dso=$1 t=$(truth $2)
	[ -n "$t" ] || fail "$dso said no truth"
	set -- $(rate toucher "/$dso\$")
	[ $# -eq 2 ] || fail "toucher of $dso: no rate: $(kt_rows kt.out 6 | grep toucher)"
	awk -v r="$1" -v h="$2" -v t="$t" 'BEGIN {
		d = r - t; if (d < 0) d = -d
		exit !((d <= 2 * h || d <= 0.2 * t) && h <= 0.1 * t) }' &&
		ok "toucher of $dso: $1 ±$2 faults/ms, truth $t" ||
		fail "toucher of $dso: $1 ±$2 faults/ms, truth $t"
	set -- $(rate spinner "/$dso\$")
	[ $# -eq 2 ] || fail "spinner of $dso: no rate: $(kt_rows kt.out 6 | grep spinner)"
	awk -v r="$1" -v h="$2" 'BEGIN { exit !(r <= h) }' &&
		ok "spinner of $dso: $1 ±$2 faults/ms, truth 0" ||
		fail "spinner of $dso: $1 ±$2 faults/ms, truth 0"
done

# On the terminal: one rate column at a time, the first --metric's; m
# shows the next, then all, then the first again; e keeps the leader's
# table (the members take no sample) and says so.
if have tmux; then
	spawn_ready "$H" 400 50 3 || fail "helper did not start"
	kt_start g 140 30 -d 0.5 -c 1000000 -p $spawned \
		-e '{cpu-clock,page-faults}:S' --metric page-faults/ms \
		--metric page-faults
	wait_screen g 'Samples +page-faults/ms +Symbol' 10 &&
		wait_screen g ' toucher ' 10 &&
		ok "the terminal: the first rate column, a toucher row" ||
		fail "no rate column: $(cat g.screen)"
	keys g m
	wait_screen g 'rate: page-faults( |$)' 5 &&
		wait_screen g 'Samples +page-faults +Symbol' 5 &&
		ok "m: page-faults alone" || fail "m: $(cat g.screen)"
	keys g m
	wait_screen g 'rate: all' 5 &&
		wait_screen g 'Samples +page-faults/ms +page-faults +Symbol' 5 &&
		ok "m again: both" || fail "m, all: $(cat g.screen)"
	keys g m
	wait_screen g 'rate: page-faults/ms' 5 &&
		wait_screen g 'Samples +page-faults/ms +Symbol' 5 &&
		ok "m a third time: the first again" || fail "m, first: $(cat g.screen)"
	keys g e
	wait_screen g 'a group read samples its leader' 5 &&
		screen_has g ' toucher ' &&
		ok "e: the leader's table stays, and why" ||
		fail "e with a group read: $(cat g.screen)"
	keys g q
	[ "$(kt_wait_exit g 10)" = 0 ] || fail "kerneltop did not quit: $(cat g.screen)"
	kill $spawned 2>/dev/null

	# Paused, the rate cells are the rows' own: keys redraw the table
	# while the rates go on counting, and the cells stay as drawn.  The
	# pause comes at the first rate, when each second more moves it and
	# its interval most; p again shows them move, so the check can fail.
	spawn_ready "$H" 400 50 3 || fail "helper did not start"
	kt_start pz 140 30 -d 0.5 -c 1000000 -p $spawned \
		-e '{cpu-clock,page-faults}:S' --metric page-faults/ms
	# toucher_line: toucher's row as drawn, with a rate in it ("6.48
	# ±0.05"; the ± as the terminal shows it)
	toucher_line() {
		screen pz | grep -E '[0-9]\.[0-9]+ [^ ]+ +\[\.\] toucher ' |
			head -1 > pz.line && [ -s pz.line ]
	}
	retry 20 toucher_line || fail "no rate in toucher's row: $(cat pz.screen)"
	keys pz p
	wait_screen pz 'paused' 5 || fail "p: not paused: $(cat pz.screen)"
	toucher_line || fail "paused: toucher's row is gone: $(cat pz.screen)"
	cp pz.line pz.paused
	for k in Down Up Down Up Down Up; do
		keys pz $k
		sleep 0.5
	done
	toucher_line || fail "paused: toucher's row is gone: $(cat pz.screen)"
	cmp -s pz.paused pz.line &&
		ok "paused: keys redraw toucher's row with its rate as drawn" ||
		fail "paused, the row changed under keys: $(cat pz.paused) / $(cat pz.line)"
	keys pz p
	wait_screen_not pz 'paused' 5 || fail "p again: still paused"
	# moved: the row drawn now differs from the paused one
	moved() { toucher_line && ! cmp -s pz.paused pz.line; }
	retry 20 moved && ok "unpaused: the rate cells move on" ||
		fail "unpaused, the row stays: $(cat pz.line)"
	keys pz q
	[ "$(kt_wait_exit pz 10)" = 0 ] || fail "kerneltop did not quit: $(cat pz.screen)"
else
	without tmux "the rate keys on the terminal"
fi
done_testing
