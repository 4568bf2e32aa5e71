#!/bin/sh
# The 2008 call is issued only through the number the patched kernel's
# marker publishes: without a marker it is ENOSYS and no system call is
# made (mainline reuses the numbers: 451 is cachestat since 6.5).
. "$top_srcdir/tests/test-subr.sh"

call="$helpers/legacy-call"
if [ -d /sys/kernel/perf_counter ]; then
	skip "this kernel carries the patch; tests/kernel covers the call"
fi

out=$(PCTOOLS_LEGACY_MARKER="$tmpdir/none" "$call")
check "no marker: ENOSYS ($out)" [ "$out" = "errno=ENOSYS" ]
out=$("$call")
check "no /sys marker: ENOSYS ($out)" [ "$out" = "errno=ENOSYS" ]

# LeakSanitizer cannot run under ptrace: in a sanitized build, the
# traced helper would die of it before making its call.
nolsan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if have_strace; then
	ASAN_OPTIONS=$nolsan strace -f -o "$tmpdir/trace" "$call" >/dev/null
	# Nothing but the usual start-up, the marker's open and the write.
	if grep -E 'syscall_0x|cachestat|perf_event_open|^[0-9]+ +(unknown|syscall)' "$tmpdir/trace"; then
		fail "a system call was tried without a marker"
	else
		ok "strace: no counter syscall issued"
	fi
	check "strace: the marker was looked up" grep -q '/sys/kernel/perf_counter/syscall_nr' "$tmpdir/trace"
else
	without strace "the check that no system call is tried"
fi

# A marker is obeyed to the letter: point a fake one at getpid (39 on
# x86_64) and the "fd" is our own pid.
if [ "$(uname -m)" = x86_64 ]; then
	mkdir "$tmpdir/fake"
	echo 39 > "$tmpdir/fake/syscall_nr"
	echo 1 > "$tmpdir/fake/version"
	if have_strace; then
		out=$(ASAN_OPTIONS=$nolsan PCTOOLS_LEGACY_MARKER="$tmpdir/fake" strace -qq -e trace=getpid -o "$tmpdir/t2" "$call")
		check "fake marker routes to its number ($out)" grep -q "getpid() *= *${out#fd=}" "$tmpdir/t2"
	else
		without strace "the check that a fake marker's number is called"
	fi
	echo 2 > "$tmpdir/fake/version"
	out=$(PCTOOLS_LEGACY_MARKER="$tmpdir/fake" "$call")
	check "unknown ABI version: ENOSYS ($out)" [ "$out" = "errno=ENOSYS" ]
	echo 39x > "$tmpdir/fake/syscall_nr"
	echo 1 > "$tmpdir/fake/version"
	out=$(PCTOOLS_LEGACY_MARKER="$tmpdir/fake" "$call")
	check "malformed number: ENOSYS ($out)" [ "$out" = "errno=ENOSYS" ]
fi
done_testing
