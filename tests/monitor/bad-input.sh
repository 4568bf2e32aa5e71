#!/bin/sh
# bad-input.sh - wrong targets and options give a clear message and the
# documented exit status; a -d path is a path, never a shell command.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

H="$top_builddir/tests/monitor/mon-helper"

# expect STATUS PATTERN ARGS...: exit status and a stderr line matching
expect() {
	want=$1 pat=$2
	shift 2
	"$MONITOR" "$@" > /dev/null 2> err
	rc=$?
	if [ $rc -eq "$want" ] && grep -q -- "$pat" err; then
		ok "monitor $*: $rc, $(head -1 err)"
	else
		fail "monitor $*: exit $rc (want $want), stderr: $(cat err)"
	fi
}

# a tid that does not exist (pid_max is at most 2^22)
expect 1 "no thread 4194303" 4194303
expect 2 "not a thread id" notanumber
expect 2 "which thread" -F 100
expect 2 "count of events" -c -1 1
expect 2 "count of events" -c x 1
expect 2 "unknown event 'cylces' (did you mean 'cycles'? see 'pcstat list')$" -e cylces 1
expect 2 "unknown event 'no-such-event' (see 'pcstat list')$" -e no-such-event 1
expect 2 "exclude each other" -c 10 -F 10 1
expect 1 "cannot read -d file" -d ./missing-file -- "$H" hot 10
expect 1 "no such command" -- ./no-such-command

# call graphs: the stack copy's size, the mode
expect 2 "a stack copy of 0 bytes unwinds nothing" --call-graph dwarf,0 -- "$H" hot 10
expect 2 "above the kernel's limit of 65528 bytes" --call-graph dwarf,70000 -- "$H" hot 10
expect 2 "unknown part 'bogus' (give fp, dwarf" --call-graph fp,bogus -- "$H" hot 10
expect 2 "'big' is not a size in bytes" --call-graph dwarf,big -- "$H" hot 10
expect 2 "threshold '4096' is not a share" --call-graph fp,4096 -- "$H" hot 10
expect 2 "no call graph" --legacy -g -- "$H" hot 10

# exports: checked before sampling (2), written at the end (1)
expect 2 "cannot write the flame graph to ./no-such-dir/x.svg: No such file or directory (the directory does not exist" \
	--flamegraph ./no-such-dir/x.svg -- "$H" hot 10
expect 2 "cannot write folded stacks to .: Is a directory (that is a directory" \
	--folded . -- "$H" hot 10
expect 1 "cannot write folded stacks to /dev/full: No space left on device" \
	--folded /dev/full -n 20 -F 1000 -- "$H" hot 300
mkdir ro && chmod 555 ro
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MONITOR" --speedscope ro/x.json -- "$H" hot 10 > /dev/null 2> err
	rc=$?
else
	"$MONITOR" --speedscope ro/x.json -- "$H" hot 10 > /dev/null 2> err
	rc=$?
fi
[ $rc -eq 2 ] && grep -q "cannot write the speedscope profile to ro/x.json: Permission denied (no permission" err &&
	ok "unwritable directory: $(cat err)" || fail "unwritable directory: rc $rc, $(cat err)"

# a write that fails half way (the file size limit) leaves the old file
# whole and no temporary file behind
echo old > keep.svg
sh -c 'trap "" XFSZ; ulimit -f 4; exec "$@"' sh "$MONITOR" \
	--flamegraph keep.svg -n 200 -F 1000 -- "$H" hot 500 > /dev/null 2> err
rc=$?
[ $rc -eq 1 ] && grep -q "cannot write the flame graph to keep.svg: File too large" err &&
	[ "$(cat keep.svg)" = old ] && [ "$(ls -a | grep -c '\.tmp-')" -eq 0 ] &&
	ok "a failed write: the old file stays, no temporary file" ||
	fail "failed write: rc $rc, $(cat err), keep.svg: $(head -c 40 keep.svg), $(ls -a)"

# -F above the kernel's limit: clamped, with a notice
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$MONITOR" -F $((max * 10)) -n 5 -- "$H" hot 200 > /dev/null 2> err
grep -q "above kernel.perf_event_max_sample_rate; using $max Hz" err &&
	ok "-F above the maximum: clamped to $max" || fail "-F clamp: $(cat err)"

# another user's process, as a user without privileges
if have root && have setpriv &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	"$H" hot 2000 2> ready &
	hpid=$!
	while ! grep -q ready ready 2>/dev/null; do sleep 0.05; done
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$MONITOR" -n 1 $hpid > /dev/null 2> err
	rc=$?
	kill $hpid; wait $hpid 2>/dev/null
	[ $rc -eq 1 ] && grep -q "belongs to another user" err &&
		ok "another user's thread: $(cat err)" ||
		fail "another user's thread: rc $rc, $(cat err)"
else
	echo "note: not root or no setpriv: the other-user case is not run"
fi

# -d with shell metacharacters: a plain path; strace proves that no
# process but the command itself is exec'd.
evil='x;touch pwned;$(touch pwned2)`touch pwned3`|y&z'
cp "$H" "./$evil"
if have_strace; then
	# through libtool's wrapper, the real binary is what is traced
	lt=
	[ -x "$top_builddir/libtool" ] && lt="$top_builddir/libtool --mode=execute"
	$lt strace -f -qq -e trace=execve -o trace "$MONITOR" -u -n 20 -F 1000 \
		-d "./$evil" -- "$H" hot 200 > out 2> err
	n=$(grep -c 'execve(' trace)
	others=$(grep 'execve(' trace | grep -v "monitor\", \[\|execve(\"$H\"" || true)
	[ "$n" -eq 2 ] && [ -z "$others" ] &&
		ok "-d metacharacters: only monitor and the command exec'd" ||
		fail "execs: $(cat trace | grep execve)"
else
	"$MONITOR" -u -n 20 -F 1000 -d "./$evil" -- "$H" hot 200 > out 2> err
	without strace "the check of which programs were exec'd"
fi
grep -q ' hot_spin+0x' out || fail "-d metacharacters: $(head -2 out) $(cat err)"
[ ! -e pwned ] && [ ! -e pwned2 ] && [ ! -e pwned3 ] ||
	fail "a shell ran parts of the -d path"
# -c 0 is perf record's "no -c": the default rate, never refused.
# page-faults: the default count of 10000 (every line's period); cpu-clock:
# 4000 Hz, periods of about 250 us of CPU (perf record -c 0 -e cpu-clock
# samples at 4000 Hz too).
T="$top_builddir/tests/helpers/touch-pages"
"$MONITOR" --script -c 0 -e page-faults -- "$T" 4096 5 > c0 2> err
rc=$?
per=$(awk '{ sub(/^.*[0-9]: +/, ""); print $1 }' c0 | sort -u)
if [ $rc -eq 0 ] && [ "$per" = 10000 ] && [ "$(wc -l < c0)" -ge 2 ]; then
	ok "-c 0 -e page-faults: $(wc -l < c0) samples, every 10000 faults"
else
	fail "-c 0 -e page-faults: exit $rc, periods '$per': $(head -1 err)"
fi
"$MONITOR" --script -c 0 -e cpu-clock -- "$H" hot 300 > c0 2> err
rc=$?
# the median period (ns), as the kernel's frequency mode settles it
med=$(awk '{ sub(/^.*[0-9]: +/, ""); print $1 }' c0 | sort -n |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
if [ $rc -eq 0 ] && [ -n "$med" ] && within "$med" 250000 40; then
	ok "-c 0 -e cpu-clock: median period $med ns (4000 Hz)"
else
	fail "-c 0 -e cpu-clock: exit $rc, median period '$med' ns (want about 250000): $(head -1 err)"
fi
if have_perf; then
	perf record -q -o c0.data -c 0 -e cpu-clock -- "$H" hot 300 \
		> /dev/null 2>&1
	pmed=$(perf script -i c0.data -F period 2> /dev/null | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	within "$med" "$pmed" 40 && ok "-c 0: perf record's median period $pmed ns" ||
		fail "-c 0: median period $med ns, perf record's $pmed ns"
else
	without perf "perf record -c 0"
fi
done_testing
