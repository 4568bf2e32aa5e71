#!/bin/sh
# annotate-mntns.sh - --annotate of a target in another mount namespace
# (a container) shows the target's code, read through the process, not
# the file at that path here.  The target runs ./prog in a namespace of
# its own (unshare -m) where hot-insn is bind-mounted over it; here
# ./prog is data-code, which has no hot_insns.  Ground truth: nm of
# hot-insn, whose hot_insns' first instruction the view must start at.
# Before: "cannot read its code in .../prog" (the file here was read).
. "$top_srcdir/tests/test-subr.sh"
need perf_event root
command -v unshare > /dev/null || skip "unshare (util-linux) not installed"

H="$top_builddir/tests/helpers/hot-insn"
cp "$top_builddir/tests/helpers/data-code" prog
unshare -m sh -c "mount --bind '$H' '$PWD/prog' && exec '$PWD/prog' 800" \
	> /dev/null 2> ns.err &
pid=$!
at_exit "kill $pid 2> /dev/null"
retry 10 grep -qx prog /proc/$pid/comm ||
	skip "cannot run a program in a mount namespace of its own: $(cat ns.err)"
"$MONITOR" -p $pid --annotate hot_insns > out 2> err ||
	fail "monitor -p --annotate exited $?: $(tail -2 err)"
start=$(nm "$H" | awk '$3 == "hot_insns" { sub(/^0+/, "", $1); print $1 }')
first=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9a-f]+:$/) {
	sub(/:$/, "", $i); print $i; exit } }' out)
[ -n "$start" ] && [ "$first" = "$start" ] &&
	ok "the target's hot_insns, from $first" ||
	fail "want hot_insns at $start (the target's file), got '$first': $(head -5 out; tail -2 err)"
done_testing
