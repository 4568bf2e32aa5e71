#!/bin/sh
# Bad input: exit 2, one line on stderr naming the problem, nothing else.
. "$top_srcdir/tests/test-subr.sh"

bad() {
	"$PCSTAT" "$@" > out 2> err
	rc=$?
	lines=$(wc -l < err)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s out ] &&
	   grep -q '^pcstat: ' err; then
		ok "$* -> $(cat err)"
	else
		fail "'$*': rc=$rc, $lines stderr lines, stdout $(wc -c < out) bytes: $(cat err)"
	fi
}

bad -e cylces -- true
grep -qx "pcstat: unknown event 'cylces' (did you mean 'cycles'? see 'pcstat list')" err ||
	fail "no suggestion and list for cylces: $(cat err)"
bad -e task-clock:x -- true
grep -q "modifier" err || fail "bad modifier not named"
bad -e '{task-clock,page-faults' -- true
grep -q "unbalanced" err || fail "unbalanced brace not named"
bad -r 0 -- true
bad -r -1 -- true
bad -r abc -- true
bad -I 0 -- true
sh -c 'exit 0' & dead=$!
wait $dead
bad -p "$dead"
bad -C 99 -- true
bad -x
bad -x -- true
bad --
bad -o "$tmpdir/no/such/dir/out" -- true
bad --no-such-option -- true
bad -A -- true
# --legacy where the kernel has no 2008 call (no marker published).
if [ ! -e /sys/kernel/perf_counter/syscall_nr ]; then
	bad --legacy -- true
	grep -q "drop --legacy" err || fail "--legacy: no fix named"
fi
bad --per-thread -- true
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	# Not our pid as a non-root user: run pcstat as nobody on pid 1.
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PCSTAT" -p 1 > out 2> err
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l < err)" -eq 1 ]; then
		ok "-p 1 as nobody -> $(cat err)"
	else
		fail "-p 1 as nobody: rc=$rc $(cat err)"
	fi
elif [ "$(id -u)" -ne 0 ]; then
	bad -p 1
fi
done_testing
