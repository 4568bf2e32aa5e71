#!/bin/sh
# unwind.sh - lib/unwind unwinds a stack copy through .eh_frame and
# through .debug_frame (test-unwind.c), with no frame pointer to help.
. "$top_srcdir/tests/test-subr.sh"

T="$top_builddir/tests/unwind"
"$T/test-unwind" eh-frame > out 2>&1; rc=$?
[ $rc -eq 77 ] && skip "$(tail -1 out)"
[ $rc -eq 0 ] && ok "eh_frame: $(grep -c ' #' out) frames, main reached" ||
	{ cat out; fail "eh_frame chain"; }

# the second build must really lean on .debug_frame for our functions
if command -v readelf >/dev/null 2>&1; then
	readelf -S "$T/test-unwind-dbg" | grep -q '\.debug_frame' ||
		fail "test-unwind-dbg has no .debug_frame: the build flags changed"
	readelf --debug-dump=frames "$T/test-unwind-dbg" 2>/dev/null |
		grep -q 'FDE' || fail "no FDEs in test-unwind-dbg"
fi
"$T/test-unwind-dbg" debug-frame > out 2>&1; rc=$?
[ $rc -eq 0 ] && ok "debug_frame: $(grep -c ' #' out) frames, main reached" ||
	{ cat out; fail "debug_frame chain"; }
# A frame without CFI whose frame pointer leads out of every mapping:
# the chain ends there (test-unwind.c, check_guess_out_of_maps; it runs
# in both runs above), and no read depends on memory never written.
if ! have valgrind; then
	without valgrind "the made-up stack under valgrind"
elif sanitized "$T/test-unwind"; then
	echo "note: ASan build: the made-up stack is not run under valgrind"
else
	valgrind -q --error-exitcode=9 "$T/test-unwind" guess > vg.out 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok "made-up stack under valgrind: $(head -1 vg.out)" ||
		{ cat vg.out; fail "made-up stack under valgrind: exit $rc"; }
fi
done_testing
