#!/bin/sh
# annotate-nocode.sh - --annotate of a function whose code is in no
# executable section of its file (tests/helpers/data-code: a loop
# assembled into .data and run after mprotect): one line saying so.
# Before: "cannot read its code in ...: not an ELF file, or truncated or
# corrupt", for a valid file.
. "$top_srcdir/tests/test-subr.sh"
need perf_event
[ "$(uname -m)" = x86_64 ] || skip "data-code's loop is x86-64 code"

H="$top_builddir/tests/helpers/data-code"
"$MONITOR" -F 1000 --annotate data_spin -- "$H" > out 2>&1
grep -q '^ *[0-9][0-9]* .* data_spin  ' out ||
	fail "no samples in data_spin: $(head -5 out)"
msg=$(grep -e '--annotate' out)
if [ "$(grep -c -e '--annotate' out)" -eq 1 ] &&
   echo "$msg" | grep -q 'in no executable section of the file' &&
   ! echo "$msg" | grep -q 'ELF'; then
	ok "one line: $msg"
else
	fail "want one line saying no executable section: $msg"
fi
done_testing
