#!/bin/sh
# flood.sh - kerneltop while samples come faster than it reads them
# (-c 1 on cpu-clock, each with a DWARF stack copy to unwind, beside two
# busy loops): frames still come, the header says that samples are being
# dropped and what lowers the rate, and q, SIGINT and SIGTERM end it
# within a bound, the terminal as it was.  The flood, the loops and
# kerneltop share CPU 0 (taskset, -C 0): kerneltop reads on the CPU the
# interrupts crowd, and the tests that make check runs meanwhile keep
# the other CPUs.  (The same on every CPU without DWARF, -c 1 alone,
# held the old kerneltop as long, and every other test too.)  And -b ended by a signal prints a last frame of
# the samples since the one before (none at all with -d 100, before).
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
# How long kerneltop may take to end on q or a signal, and to show its
# first frame, under the flood on a busy 2-core VM (measured: ended in
# 0.2-1.1 s, 5.6 s once beside another test's load; first frame in 0.6-3
# s: a drain is bound to 50 ms and the kernel's symbols are read before
# sampling starts).  Before, it did neither (no frame in 15 s, still
# running 10 s after SIGTERM; SIGKILL needed).
END_BOUND=15
FRAME_BOUND=20

command -v taskset > /dev/null || skip "taskset (util-linux) not installed"
busy() {
	taskset -c 0 sh -c 'while :; do :; done' &
	at_exit "kill $!"
}
busy
busy

# ms_since T0: milliseconds since T0 (date +%s%N)
ms_since() {
	echo $(( ($(date +%s%N) - $1) / 1000000 ))
}

# ended_within PID SECS: until PID has exited, SECS at most; 1 then
ended_within() {
	local n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt $(($2 * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

# --- -b: frames under the flood, and an end on SIGTERM ------------------
# (one run: the flood slows every other test of a make check meanwhile;
# SIGINT is checked on the TUI below)
for sig in TERM; do
	# SIGINT at its default: a background job of sh ignores it
	env --default-signal=INT taskset -c 0 "$KERNELTOP" -b -C 0 -c 1 \
		--call-graph dwarf -e cpu-clock -d 0.5 > b$sig.out 2> b$sig.err &
	kp=$!
	if retry $FRAME_BOUND grep -qs '^kerneltop: ' b$sig.out; then
		ok "-b -c 1, SIG$sig run: a frame under the flood"
	else
		fail "-b -c 1: no frame in $FRAME_BOUND s: $(head -c 300 b$sig.err)"
	fi
	t0=$(date +%s%N)
	kill -s $sig $kp
	if ended_within $kp $END_BOUND; then
		wait $kp
		rc=$?
		ms=$(ms_since $t0)
		[ $rc -eq 0 ] && ok "-b -c 1: SIG$sig ended it in $ms ms" ||
			fail "-b -c 1: SIG$sig: exit $rc"
	else
		kill -KILL $kp
		fail "-b -c 1: still running $END_BOUND s after SIG$sig"
	fi
	n=$(kt_frames b$sig.out) || fail "-b -c 1: not frames: $n"
	# lost samples are said in the header, with the fix; and at the end
	if awk '/^kerneltop: / && / lost [1-9]/ { found = 1 } END { exit !found }' b$sig.out; then
		grep -q '^kerneltop: [0-9]* samples/s  \[dropping samples: [0-9]* lost, they come faster than read (raise -c, or use --call-graph fp)\]' b$sig.out &&
			ok "-b -c 1: the header says samples are dropped, and the fix" ||
			fail "-b -c 1: lost samples, but no notice: $(grep '^kerneltop:' b$sig.out | head -2)"
		grep -q 'samples lost: they came faster than read (raise -c, or use --call-graph fp)' b$sig.err ||
			fail "-b -c 1: no lost line at the end: $(cat b$sig.err)"
	else
		echo "note: no sample was lost here (a fast machine): the notice not checked"
	fi
done

# --- -b stopped by a signal: a last frame ---------------------------------
# -d 100: no frame would come before the signal.  Ready: kerneltop has
# its counters open, and the helper has run 0.3 s of CPU since.
spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned
cpu_ms() {
	awk '{ print int(($14 + $15) * 1000 / '"$(getconf CLK_TCK)"') }' /proc/$hp/stat
}
has_counters() {
	ls -l /proc/$1/fd 2>/dev/null | grep -q 'perf_event'
}
for sig in TERM INT; do
	env --default-signal=INT "$KERNELTOP" -b -d 100 -e cpu-clock -p $hp \
		> last$sig.out 2> last$sig.err &
	kp=$!
	retry 20 has_counters $kp || fail "-d 100: kerneltop opened no counters"
	c0=$(cpu_ms)
	until_cpu() { [ $(cpu_ms) -ge $((c0 + 300)) ]; }
	retry 20 until_cpu || fail "-d 100: the helper did not run"
	kill -s $sig $kp
	ended_within $kp $END_BOUND || { kill -KILL $kp; fail "-d 100: SIG$sig did not end it"; }
	wait $kp
	rc=$?
	if [ "$(kt_frames last$sig.out)" = 1 ] &&
	   kt_rows last$sig.out | grep -q ' kt_hot '; then
		ok "-d 100, SIG$sig: exit $rc, a last frame with kt_hot"
	else
		fail "-d 100, SIG$sig: exit $rc, no last frame: '$(head -c 300 last$sig.out)' $(head -c 200 last$sig.err)"
	fi
done

# --- the TUI: a frame, then q / SIGINT / SIGTERM --------------------------
if ! have tmux; then
	without tmux "the TUI under the flood"
	done_testing
fi
restored() {
	local what=$1 name=$2 rc
	rc=$(kt_wait_exit "$name" $END_BOUND)
	if [ -z "$rc" ]; then
		fail "$what: kerneltop did not exit in $END_BOUND s; screen: $(screen "$name" | head -3)"
		kill -KILL "$(cat "$tmpdir/$name.pid")" 2>/dev/null
		return
	fi
	[ "$rc" = 0 ] || fail "$what: exit $rc"
	stty_same "$name" && ok "$what: exit $rc, stty -a unchanged" ||
		fail "$what: stty -a changed"
	[ "$(tm display -p -t "$name" '#{alternate_on} #{cursor_flag}')" = "0 1" ] ||
		fail "$what: the alternate screen or a hidden cursor left"
}
for how in q INT TERM; do
	KT_WRAP="taskset -c 0" kt_start t$how 120 30 -C 0 -c 1 \
		--call-graph dwarf -e cpu-clock -d 0.5
	if wait_screen t$how '^kerneltop: [0-9]+ samples/s' $FRAME_BOUND; then
		ok "TUI -c 1: a frame under the flood"
	else
		fail "TUI -c 1: no frame in $FRAME_BOUND s: $(head -3 t$how.screen)"
	fi
	case $how in
	q) keys t$how q ;;
	*) kill -s $how "$(cat "$tmpdir/t$how.pid")" ;;
	esac
	restored "TUI -c 1, $how" t$how
done
done_testing
