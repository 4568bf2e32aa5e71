#!/bin/sh
# snapshot-files.sh - --export-every's files, where others' files are:
# --export-keep in a sticky directory anyone may write removes only the
# snapshots this run wrote, never another user's file nor an older run's;
# an interval without a sample is no snapshot (it would be kept for a
# full one); a run that lost a snapshot on a full disk exits 1 even when
# the last one fitted (monitor and kerneltop).
. "$top_srcdir/tests/test-subr.sh"
need perf_event root python

T="$top_builddir/tests/monitor"
M() { "$MONITOR" -g -u -F 997 --summary "$@" > summary 2> err; }
# burn_code SECS CODE: python that burns SECS of CPU, then runs CODE, in
# one process
burn_code() {
	printf 'import os, time\ndef burn(s):\n    t = time.process_time()\n    while time.process_time() - t < s: pass\nburn(%s)\n%s\n' "$1" "$2"
}
nsnaps() { find "$1" -maxdepth 1 -type f -name "profile-*Z.folded" | wc -l; }

# 1. a sticky directory anyone may write, where nobody has a file named as
#    a snapshot, and root an older run's: both stay, this run keeps 2
chmod 711 "$tmpdir"	# nobody may pass through to shared/
mkdir shared && chmod 1777 shared
old=shared/profile-20000101T000000.000Z.folded
theirs=shared/profile-20000101T000001.000Z.folded
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c ": > $theirs" ||
	skip "cannot create a file as nobody"
: > "$old"
M --export-every 0.1 --export-keep 2 --folded shared -- \
	"$T/cg-helper-fp" tree 800 || fail "monitor --export-keep: $(cat err)"
[ -e "$theirs" ] && ok "another user's file named as a snapshot stays" ||
	fail "nobody's $theirs removed"
[ -e "$old" ] && ok "an older run's file stays in a shared directory" ||
	fail "$old removed in a shared directory"
n=$(($(nsnaps shared) - 2))
[ $n -eq 2 ] && ok "--export-keep 2 in a shared directory: $n of this run" ||
	fail "--export-keep 2: $n of this run: $(ls shared)"
grep -q "cannot" err && fail "a message: $(cat err)"

# 2. (kerneltop, below); 3. a full disk (a 64 KiB tmpfs): the first snapshots fail, then the
#    command frees the space and the last ones fit; the run exits 1
mkdir full
mount -t tmpfs -o size=64k pctools-test full ||
	skip "cannot mount a tmpfs"
at_exit "umount '$tmpdir/full'"
head -c 1M /dev/zero > full/filler 2> /dev/null
M --export-every 0.1 --folded full -- "$PYTHON3" -c \
	"$(burn_code 0.6 "os.remove('full/filler'); burn(0.6)")"
rc=$?
if ! grep -q "cannot write a snapshot of folded stacks to full: No space left" err; then
	fail "monitor on a full disk: no message: $(cat err)"
elif [ "$(nsnaps full)" -eq 0 ]; then
	fail "monitor on a full disk: none written once the space was freed"
else
	[ $rc -eq 1 ] && ok "monitor: snapshots lost, the last written: exit 1" ||
		fail "monitor: snapshots lost, the last written: exit $rc"
fi

if have kerneltop; then
	# 2. a target that burns 0.3 s once kerneltop has it, then sleeps:
	#    the intervals after have no sample and are not written; the two
	#    kept hold samples
	mkdir kidle
	"$PYTHON3" -c "$(burn_code 0 "while not os.path.exists('go'): time.sleep(0.01)
burn(0.3); time.sleep(60)")" &
	ip=$!
	at_exit "kill $ip"
	# (-n 10 ends it; $! is kerneltop itself, whose counters are seen)
	"$KERNELTOP" -b -n 10 -d 0.3 -e cpu-clock \
		--call-graph fp -p $ip --export-every 0.1 --export-keep 2 \
		--folded kidle > out 2> kerr &
	kp=$!
	retry 30 sh -c "ls -l /proc/$kp/fd 2> /dev/null | grep -q perf_event"
	: > go
	wait $kp || fail "kerneltop: $(cat kerr)"
	n=0
	for f in kidle/*.folded; do
		[ -s "$f" ] && n=$((n + 1)) || fail "an empty snapshot kept: $f"
	done
	[ $n -ge 1 ] && [ $n -le 2 ] && ok "the $n kept snapshots hold samples" ||
		fail "$n snapshots with samples kept: $(ls -l kidle)"

	spawn_ready "$T/cg-helper-fp" tree 600000 || fail "helper did not start"
	hp=$spawned
	at_exit "kill $hp"
	rm -f full/*
	head -c 1M /dev/zero > full/filler 2> /dev/null
	timeout -k 5 60 "$KERNELTOP" -b -n 12 -d 0.25 -e cpu-clock \
		--call-graph fp -p $hp --export-every 0.1 --folded full \
		> out 2> kerr &
	kp=$!
	# the space freed once a snapshot failed
	retry 30 grep -q "cannot write a snapshot" kerr
	rm -f full/filler
	wait $kp
	rc=$?
	if ! grep -q "cannot write a snapshot of folded stacks to full: No space left" kerr; then
		fail "kerneltop on a full disk: no message: $(cat kerr)"
	elif [ "$(nsnaps full)" -eq 0 ]; then
		fail "kerneltop on a full disk: none written once the space was freed"
	else
		[ $rc -eq 1 ] && ok "kerneltop: snapshots lost, the last written: exit 1" ||
			fail "kerneltop: snapshots lost, the last written: exit $rc"
	fi
fi
done_testing
