#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# annotate-mntns.sh - kerneltop --sym-annotate of a target in another
# mount namespace (a container) reads the target's file, through the
# process, for its code and its source lines, not the file at that path
# here.  The target runs ./prog in a namespace of its own (unshare -m)
# where spin is bind-mounted over it; here ./prog is data-code, which has
# no hot_spin and no line of spin.c.  Ground truth: nm of spin (where
# hot_spin starts) and spin.c (hot_spin's body lines).
# spin.c is marked inside the namespace: the text shown must be the
# target's.  Before: the lines were "??:0" and the code not hot_spin's
# (data-code, the file here, was read).  Batch (-b) and the screen.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event root binutils
command -v unshare > /dev/null || skip "unshare (util-linux) not installed"

H="$top_builddir/tests/helpers/spin"
spin_in_mntns

first=$(grep -n '^__attribute__((noinline)) unsigned long hot_spin' "$src" | cut -d: -f1)
last=$(awk -v f="$first" 'NR > f && /^}/ { print NR; exit }' "$src")
kt ann -b -n 1 -d 1 -p $pid --sym-annotate hot_spin
[ $rc -eq 0 ] || fail "kerneltop -b --sym-annotate exited $rc: $(tail -2 ann.err)"

# the source lines: the hottest inside hot_spin's body in spin.c
hl=$(sed -n '/^Annotate: hot_spin (.*)$/,/^$/p' ann.out | grep '^>' |
	grep -o 'spin\.c:[0-9]*' | cut -d: -f2)
[ -n "$hl" ] && [ "$hl" -gt "$first" ] && [ "$hl" -lt "$last" ] &&
	sed -n '/^Annotate: hot_spin (.*)$/,/^$/p' ann.out | grep '^>' |
	grep -q ' // in the namespace$' &&
	ok "source lines: the hottest spin.c:$hl (body $first-$last), its text as the target sees it" ||
	fail "source lines: hottest '$hl' not in spin.c:$first-$last: $(head -5 ann.out)"

# the instructions: from the target's hot_spin, under a spin.c header
if ! grep -q '^Annotate: hot_spin (.*), [0-9]* samples' ann.out &&
	grep -q 'capstone' ann.out; then
	echo "note: built without capstone: no instructions to check"
	done_testing
fi
ins=$(sed -n '/^Annotate: hot_spin (.*), [0-9]* samples/,/^$/p' ann.out)
start=$(nm "$H" | awk '$3 == "hot_spin" { sub(/^0+/, "", $1); print $1 }')
at=$(printf '%s\n' "$ins" | awk '{ for (i = 1; i <= NF; i++)
	if ($i ~ /^[0-9a-f]+:$/) { sub(/:$/, "", $i); print $i; exit } }')
[ -n "$start" ] && [ "$at" = "$start" ] &&
	ok "instructions: the target's hot_spin, from $at" ||
	fail "want hot_spin at $start (the target's file), got '$at': $(head -5 ann.out)"
hdr=$(printf '%s\n' "$ins" | grep -o ' spin\.c:[0-9]*' | cut -d: -f2 |
	awk -v f="$first" -v l="$last" '$1 > f && $1 < l' | head -1)
text="$(sed -n "${hdr:-1}p" "$src" | sed 's/^[[:space:]]*//') // in the namespace"
[ -n "$hdr" ] && printf '%s\n' "$ins" | grep " spin\.c:$hdr " |
	grep -qF "$text" &&
	ok "instructions: source header spin.c:$hdr with its text as the target sees it" ||
	fail "no spin.c header of hot_spin's body with its text: $(printf '%s\n' "$ins" | head -8)"

# the annotate screen, on a real terminal: the same lines, code and text
command -v tmux > /dev/null || { echo "note: no tmux: screen not checked"; done_testing; }
kt_start a 160 40 -d 0.5 -p $pid --sym-annotate hot_spin
wait_screen a 'spin\.c:[0-9]+ .* // in the namespace$' 10 &&
	ok "screen: source lines as the target sees them" ||
	fail "screen: no marked spin.c line: $(cat a.screen)"
keys a s
wait_screen a " $start:  " 5 &&
	wait_screen a ' spin\.c:[0-9]+ .* // in the namespace$' 5 &&
	ok "screen: the target's instructions from $start, its text" ||
	fail "screen, s: not the target's hot_spin at $start: $(cat a.screen)"
keys a q
keys a q
keys a q
[ "$(kt_wait_exit a 10)" = 0 ] || fail "kerneltop exit: $(cat a.screen)"
done_testing
