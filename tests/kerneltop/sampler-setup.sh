#!/bin/sh
# sampler-setup.sh - monitor and kerneltop set their events up through
# one set-up (lib/sampling-cli): the same command line gives the same
# rule and the same one line in both, the tool's name aside: -m and -r
# refused (exit 2), -m's forms taken, -F lowered to the kernel's limit,
# --metric without a group read, too many events, the cycles fallback;
# and perf's options that mean nothing to either (one table): the same
# reason, the same check of their argument.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned

# both NAME ARGS...: monitor ARGS -- true and kerneltop -b ARGS on the
# helper; $mrc and $krc their status, NAME.m and NAME.k their stderr
# without the tool's name ("tool: ... (see 'tool --help')" becomes "...")
both() {
	local name=$1
	shift
	# shellcheck disable=SC2086
	timeout 20 "$MONITOR" "$@" --summary -- true > /dev/null 2> "$name.me"
	mrc=$?
	# shellcheck disable=SC2086
	timeout 20 "$KERNELTOP" -b -n 1 -d 0.2 -p $hp "$@" > /dev/null 2> "$name.ke"
	krc=$?
	sed -e 's/^monitor: //' -e "s/ (see 'monitor --help')\$//" \
		"$name.me" > "$name.m"
	sed -e 's/^kerneltop: //' -e "s/ (see 'kerneltop --help')\$//" \
		"$name.ke" > "$name.k"
}

# refused: exit 2, one line, the same in both
for bad in "-m 0" "-m 2X" "-m 2000000" "-m 8G" "-m 16," "-m 16,x" "-m ,16" \
	"-r 0" "-r 100" "-r x" "--metric ipc -e cpu-clock" \
	"-e cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock,cpu-clock"; do
	# shellcheck disable=SC2086
	both bad $bad
	if [ $mrc -eq 2 ] && [ $krc -eq 2 ] && [ "$(grep -c . bad.m)" -eq 1 ] &&
	   cmp -s bad.m bad.k; then
		ok "$bad: exit 2 in both: $(cat bad.m)"
	else
		fail "$bad: monitor exit $mrc '$(cat bad.me)', kerneltop exit $krc '$(cat bad.ke)'"
	fi
done

# -m's forms: pages rounded up to a power of two, a size, perf record's
# AUX pages (no use here): taken by both, nothing said but, on a slow
# build, the samples a ring of 4 pages lost (seen under ASan)
for m in 3 512K 1M 16,16; do
	both m -m $m -e cpu-clock
	sed -i '/ samples lost: they came faster than read/d' m.m m.k
	[ $mrc -eq 0 ] && [ $krc -eq 0 ] && [ ! -s m.m ] && [ ! -s m.k ] &&
		ok "-m $m: taken by both" ||
		fail "-m $m: monitor exit $mrc '$(cat m.me)', kerneltop exit $krc '$(cat m.ke)'"
done

# -F above kernel.perf_event_max_sample_rate: lowered, said in one line,
# the same in both
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
both clamp -e cpu-clock -F $((max * 2))
[ $mrc -eq 0 ] && [ $krc -eq 0 ] && cmp -s clamp.m clamp.k &&
	grep -qx -- "-F $((max * 2)) is above kernel.perf_event_max_sample_rate; using $max Hz" clamp.m &&
	ok "-F $((max * 2)): $(cat clamp.m)" ||
	fail "-F $((max * 2)): monitor exit $mrc '$(cat clamp.me)', kerneltop exit $krc '$(cat clamp.ke)'"

# the default event: cycles, or cpu-clock where there is no hardware PMU,
# said in the same line by both
both dflt
if [ $mrc -eq 0 ] && [ $krc -eq 0 ] && cmp -s dflt.m dflt.k; then
	if [ -s dflt.m ]; then
		grep -qx 'cycles not supported here (no hardware PMU); sampling cpu-clock at 4000 Hz' dflt.m &&
			ok "no PMU: $(cat dflt.m)" || fail "no PMU: '$(cat dflt.m)'"
	else
		ok "cycles sampled by both, nothing said"
	fi
else
	fail "default event: monitor exit $mrc '$(cat dflt.me)', kerneltop exit $krc '$(cat dflt.ke)'"
fi

# perf's options that both perf record and perf top have, and that mean
# nothing to either sampler: one row, one reason, said by both
for o in all-cgroups overwrite namespaces no-bpf-event branch-any \
	"branch-filter any" "proc-map-timeout 500" "num-thread-synthesize 2" \
	"vmlinux /proc/version"; do
	# shellcheck disable=SC2086
	both po -e cpu-clock --$o
	why_m=$(sed -n "s/^\(-.\/\)\{0,1\}--${o%% *}: no effect here: //p" po.m)
	why_k=$(sed -n "s/^\(-.\/\)\{0,1\}--${o%% *}: no effect here: //p" po.k)
	[ $mrc -eq 0 ] && [ $krc -eq 0 ] && [ -n "$why_m" ] &&
	   [ "$why_m" = "$why_k" ] && [ "$(grep -c . po.m)" -eq 1 ] &&
	   [ "$(grep -c . po.k)" -eq 1 ] &&
		ok "--$o: $why_m" ||
		fail "--$o: monitor exit $mrc '$(cat po.me)', kerneltop exit $krc '$(cat po.ke)'"
done
# their arguments: checked as perf checks them, the same line
for bad in "--proc-map-timeout x" "--num-thread-synthesize -1" \
	"--vmlinux no-such-file"; do
	# shellcheck disable=SC2086
	both bad -e cpu-clock $bad
	[ $mrc -eq 2 ] && [ $krc -eq 2 ] && [ "$(grep -c . bad.m)" -eq 1 ] &&
	   [ "$(sed 's/^-k\///' bad.k)" = "$(cat bad.m)" ] &&
		ok "$bad: exit 2 in both: $(cat bad.m)" ||
		fail "$bad: monitor exit $mrc '$(cat bad.me)', kerneltop exit $krc '$(cat bad.ke)'"
done

done_testing
