#!/bin/sh
# annotate-mntns.sh - --annotate of a target in another mount namespace
# (a container) shows the target's code and source lines, read through
# the process, not the file at that path here.  The target runs ./prog in
# a namespace of its own (unshare -m) where spin is bind-mounted over it;
# here ./prog is data-code, which has no hot_spin and no line of spin.c.
# Ground truth: nm of spin, whose hot_spin's first instruction the view
# must start at, and spin.c, hot_spin's body lines, one of which must head
# its instructions with its text as the target sees it (spin.c is marked
# inside the namespace).
# Before: "cannot read its code in .../prog" (the file here was read),
# then "(no source line)" headers (the line table here was read).
. "$top_srcdir/tests/test-subr.sh"
need perf_event root
command -v unshare > /dev/null || skip "unshare (util-linux) not installed"

H="$top_builddir/tests/helpers/spin"
spin_in_mntns
# -n: the target still runs when the view is made (its root is there)
"$MONITOR" -n 1000 -p $pid --annotate hot_spin > out 2> err ||
	fail "monitor -p --annotate exited $?: $(tail -2 err)"
start=$(nm "$H" | awk '$3 == "hot_spin" { sub(/^0+/, "", $1); print $1 }')
first=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9a-f]+:$/) {
	sub(/:$/, "", $i); print $i; exit } }' out)
[ -n "$start" ] && [ "$first" = "$start" ] &&
	ok "the target's hot_spin, from $first" ||
	fail "want hot_spin at $start (the target's file), got '$first': $(head -5 out; tail -2 err)"

lo=$(grep -n '^__attribute__((noinline)) unsigned long hot_spin' "$src" | cut -d: -f1)
hi=$(awk -v f="$lo" 'NR > f && /^}/ { print NR; exit }' "$src")
hdr=$(grep -o ' spin\.c:[0-9]*' out | cut -d: -f2 |
	awk -v f="$lo" -v l="$hi" '$1 > f && $1 < l' | head -1)
text="$(sed -n "${hdr:-1}p" "$src" | sed 's/^[[:space:]]*//') // in the namespace"
[ -n "$hdr" ] && grep " spin\.c:$hdr " out | grep -qF "$text" &&
	ok "source header spin.c:$hdr with its text as the target sees it" ||
	fail "no spin.c header of hot_spin's body ($lo-$hi) with its text: $(head -8 out)"
done_testing
