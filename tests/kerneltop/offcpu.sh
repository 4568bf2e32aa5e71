#!/bin/sh
# offcpu.sh - kerneltop --off-cpu and --wall-clock on workloads with a
# known split (tests/helpers/offcpu): a thread that alternates
# waits_here() (nanosleep) and spins_here() and measures its own split,
# and a pipe ping-pong whose threads block in read().  The wall-clock
# shares must be the helper's measured ones within 3 points, the on-CPU
# shares unchanged; the exports mark the off-CPU time; the `o' key cycles
# the views on a real terminal; as an unprivileged user at paranoid 2
# the off-CPU time comes without stacks and a notice says what they need.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
. "$top_srcdir/tests/lib-offcpu.sh"
need kerneltop perf_event

H="$OFFCPU_HELPER"

# run_split NAME ARGS...: the split helper, held until kerneltop -b ARGS
# has shown its first frame (its counters are on), then 2 s of work;
# kerneltop ends when the helper does.  The helper's truth in NAME.truth.
run_split() {
	local name=$1 kp
	shift
	spawn_ready "$H" split 2000 || { fail "$name: helper did not start"; return 1; }
	hp=$spawned
	hf="$tmpdir/spawn.$spawn_n"
	timeout 30 "$KERNELTOP" -b -d 0.3 -e cpu-clock "$@" -p $hp \
		> "$name.out" 2> "$name.err" &
	kp=$!
	retry 10 grep -q '^kerneltop: [0-9]' "$name.out" ||
		fail "$name: no first frame: $(cat "$name.err")"
	kill -USR1 $hp
	wait $kp
	rc=$?
	offcpu_truth "$hf" > "$name.truth"
	[ $rc -eq 0 ] || fail "$name: kerneltop exited $rc: $(cat "$name.err")"
}

# === wall-clock: the split within 3 points of the helper's own ==========
run_split wall --wall-clock --folded wall.folded --pprof wall.pb.gz
read -r tw toff < wall.truth
read -r w off onspin <<EOF
$(offcpu_shares wall.folded)
EOF
near "$w" "$tw" 3 &&
	ok "wall-clock: waits_here $w% of the thread's time (truth $tw%)" ||
	fail "wall-clock: waits_here $w%, the helper measured $tw% ($(cat wall.truth))"
near "$off" "$toff" 3 &&
	ok "wall-clock: off-CPU $off% (truth: wall - CPU time = $toff%)" ||
	fail "wall-clock: off-CPU $off%, the helper measured $toff%"
awk -v s="$onspin" 'BEGIN { exit !(s >= 90) }' &&
	ok "wall-clock: on-CPU time unchanged, spins_here $onspin% of it" ||
	fail "wall-clock: spins_here only $onspin% of the on-CPU time"
kt_head wall.out | grep -Eq '\[wall-clock: ns \(switch stacks\), [0-9]+ switches lost\]' &&
	ok "header: what is measured and the switches lost" ||
	fail "header: $(kt_head wall.out)"
grep -Eq ';waits_here;.*;do_nanosleep_\[k\];.*\[off-cpu\] [0-9]+$' wall.folded &&
	ok "folded: the off-CPU stacks end in do_nanosleep, then [off-cpu]" ||
	fail "folded: no waits_here;...;do_nanosleep;...;[off-cpu] line: $(head -3 wall.folded)"
if command -v go >/dev/null 2>&1 && [ -s wall.pb.gz ]; then
	timeout 120 go tool pprof -sample_index=off-cpu -top wall.pb.gz \
		> pprof.top 2>&1
	grep -Eq '^Type: off-cpu$' pprof.top &&
		grep -Eq ' 100% .*\[off-cpu\]$' pprof.top &&
		ok "pprof: an off-cpu sample type, all of it under [off-cpu]" ||
		fail "pprof: $(head -12 pprof.top)"
	timeout 120 go tool pprof -sample_index=cpu-clock -top wall.pb.gz \
		> pprof.cpu 2>&1
	grep -q '\[off-cpu\]' pprof.cpu &&
		fail "pprof: off-CPU time in the cpu-clock type" ||
		ok "pprof: the cpu-clock type holds no off-CPU time"
else
	echo "note: no go tool or built without pprof: pprof not decoded"
fi

# === --off-cpu on a ping-pong: the threads wait in read(), pipe_read =====
spawn_ready "$H" pingpong -1500 || fail "pingpong did not start"
pp=$spawned
timeout 30 "$KERNELTOP" -b -d 0.3 -e cpu-clock --off-cpu -p $pp \
	--folded pp.folded --flamegraph pp.svg > pp.out 2> pp.err ||
	fail "pingpong: $(cat pp.err)"
# (a writer that wakes its reader may be preempted: that time is the
# writer's, [off-cpu] under write(); the blocked time is all in read)
awk '{ w = $NF; t += w }
     /pipe_read_\[k\];/ { p += w; if ($0 ~ /;reads_here;/) r += w }
     END { exit !(t > 0 && p / t >= 0.4 && r / p >= 0.99) }' pp.folded &&
	ok "off-CPU: the ping-pong blocks in reads_here -> pipe_read" ||
	fail "off-CPU: pipe_read not under reads_here, or under 40%: $(sort -k2 -n pp.folded | tail -3)"
kt_rows pp.out | awk '$5 ~ /pipe_read$/ { sub("%", "", $1); c = $1 }
	END { exit !(c >= 40) }' &&
	ok "off-CPU table: a pipe_read row holds the blocked time (Children)" ||
	fail "off-CPU table: $(kt_rows pp.out | head -5)"
grep -q 'data-c="offcpu"' pp.svg && grep -q '>off-CPU</text>' pp.svg &&
	ok "SVG: off-CPU boxes in a colour of their own, in the legend" ||
	fail "SVG: no offcpu class or legend"

# === a switch flood in a one-page ring: what helps is said ===============
# (kerneltop reads its rings eagerly: on a busy machine a slowed
# ping-pong may lose nothing; a few tries, the message checked once lost)
for try in 1 2 3; do
	spawn_ready "$H" pingpong -600 || fail "flood: pingpong did not start"
	timeout 30 "$KERNELTOP" -b -d 0.3 -e cpu-clock --off-cpu -m 1 \
		-p $spawned > flood.out 2> flood.err || fail "flood: $(cat flood.err)"
	grep -q 'samples lost' flood.err && break
done
fix='every context switch is a record: a bigger ring (-m), or fewer threads watched'
if ! grep -q 'samples lost' flood.err; then
	echo "note: flood: no record lost in 3 runs: the message not checked"
elif grep -Fq "samples lost: they came faster than read ($fix)" flood.err &&
	! grep -q 'lower -F' flood.out flood.err; then
	ok "flood: lost records blamed on the switches, -m given as the fix"
else
	fail "flood: $(grep -h lost flood.err; kt_head flood.out)"
fi

# === the `o' key on a real terminal =======================================
if have tmux; then
	spawn_ready "$H" pingpong -0 || fail "pingpong (TUI) did not start"
	kt_start tui 160 30 -d 0.3 -e cpu-clock --off-cpu -p $spawned
	wait_screen tui '\[off-CPU: ns \(switch stacks\)' &&
		ok "TUI: --off-cpu starts in the off-CPU view" ||
		fail "TUI: $(head -3 "$tmpdir/tui.screen")"
	screen_has tui 'o on/off-CPU' && ok "TUI: o in the footer" ||
		fail "TUI: no o in the footer: $(tail -1 "$tmpdir/tui.screen")"
	keys tui o
	wait_screen tui '\[wall-clock: ns' && wait_screen tui 'showing wall-clock time' &&
		ok "TUI: o -> wall-clock" || fail "TUI: o: $(head -3 "$tmpdir/tui.screen")"
	keys tui o
	wait_screen tui '\[on-CPU: samples' && ok "TUI: o -> on-CPU" ||
		fail "TUI: o twice: $(head -3 "$tmpdir/tui.screen")"
	keys tui o
	wait_screen tui '\[off-CPU: ns' && ok "TUI: o -> off-CPU again" ||
		fail "TUI: o thrice: $(head -3 "$tmpdir/tui.screen")"
	keys tui q
	[ "$(kt_wait_exit tui)" = 0 ] || fail "TUI: q did not end it"
else
	without tmux "the o key"
fi

# === paranoid 2, unprivileged: switch records alone, no stacks ============
if ! have root || ! have setpriv; then
	without root "the unprivileged path"
elif [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 2 ]; then
	echo "note: perf_event_paranoid < 2: the unprivileged path not run"
else
	chmod 755 "$tmpdir"
	mkdir nb && chmod 777 nb
	as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	# shellcheck disable=SC2086
	spawn_ready $as_nobody "$H" split -2000 || fail "nobody: helper did not start"
	np=$spawned
	nf="$tmpdir/spawn.$spawn_n"
	# shellcheck disable=SC2086
	timeout 30 $as_nobody "$KERNELTOP" -b -d 0.3 -e cpu-clock --wall-clock \
		-p $np --folded nb/nb.folded > nb.out 2> nb.err ||
		fail "nobody: $(cat nb.err)"
	grep -q 'off-CPU time without stacks: they need root, CAP_PERFMON or kernel.perf_event_paranoid <= 1' nb.err &&
		ok "nobody: one line says what the stacks need" ||
		fail "nobody: no notice: $(cat nb.err)"
	kt_head nb.out | grep -q '(no stacks)' && ok "nobody: the header says no stacks" ||
		fail "nobody: header $(kt_head nb.out)"
	read -r tw toff <<EOF
$(offcpu_truth "$nf")
EOF
	# the thread's time: its on-CPU stacks, and [off-cpu] alone
	noff=$(awk '{ w = $NF } /^\[off-cpu\] [0-9]+$/ { o += w; t += w; next }
		/;(waits|spins)_here[; ]/ { t += w }
		END { if (t) printf "%.1f", 100 * o / t; else print -1 }' nb/nb.folded)
	near "$noff" "$toff" 3 &&
		ok "nobody: off-CPU $noff% of the thread's time (truth $toff%)" ||
		fail "nobody: off-CPU $noff%, the helper measured $toff%: $(cat nb/nb.folded | head -5)"
fi

done_testing
