#!/bin/sh
# kernel.sh - kernel addresses through /proc/kallsyms: every sampled text
# symbol, at an offset inside it, comes back with its name and module.
. "$top_srcdir/tests/test-subr.sh"

SYMRES="$top_builddir/tests/symbols/symres"
[ -r /proc/kallsyms ] || skip "/proc/kallsyms not readable"
awk '$1 != "0000000000000000" { exit 0 } END { exit NR == 0 }' /proc/kallsyms ||
	skip "kptr_restrict hides kernel addresses here (the hidden case is in test-units)"

# Text symbols whose address no other symbol shares (offsets inside a
# symbol are covered by test-units).
awk '$2 ~ /^[tTwW]$/ { print }' /proc/kallsyms | sort -k1,1 > text
awk '{ a[NR] = $1; n[NR] = $3; m[NR] = ($4 == "" ? "[kernel.kallsyms]" : $4) }
     END { for (i = 2; i < NR; i++)
		if (a[i] != a[i-1] && a[i] != a[i+1] && i % 997 == 0)
			print a[i], n[i], m[i] }' text > pick
n=$(wc -l < pick)
[ "$n" -gt 10 ] || fail "only $n symbols picked"
# (the shell's arithmetic is signed 64-bit: no sums on kernel addresses)
awk '{ print $1 }' pick > addrs
"$SYMRES" -k < addrs | awk '{ print $2 }' > got
awk '{ print $2 "+0x0" }' pick > want
if cmp -s got want; then
	ok "$n kernel symbols resolve to their names"
else
	fail "kernel symbols: $(diff want got | head -6)"
fi
done_testing
