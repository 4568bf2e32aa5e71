#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# annotate-insn.sh - kerneltop's annotate screen, on a real terminal
# (tmux): the s key switches to the instructions of the function with
# their samples, the hottest marked, highlighted and inside the known loop
# of tests/helpers/hot-insn (found with nm and the helper's own offsets,
# no address assumed), a line on skid; s again goes back to the source
# lines.  The footer and the help come from the screen's key table.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event tmux binutils

H="$helpers/hot-insn"
"$H" 600000 > /dev/null &
hp=$!
at_exit "kill $hp 2> /dev/null"

set -- $("$H" --range)
base=$(nm "$H" | awk '$3 == "hot_insns" { print $1 }')
[ -n "$base" ] || fail "nm finds no hot_insns in $H"
lo=$((0x$base + $1)) hi=$((0x$base + $2))

kt_start a 120 40 -d 0.5 -p $hp --sym-annotate hot_insns
wait_screen a '^Annotate: hot_insns \(' 10 ||
	fail "no annotate screen: $(cat a.screen)"
# a build without LLVM: one line says what the view needs, s too
if screen_has a 'built without LLVM'; then
	keys a s
	wait_screen a '^no instruction view: built without LLVM.s disassembler \(install llvm-14-dev' 5 &&
		ok "without LLVM: $(grep -m1 LLVM a.screen)" ||
		fail "without LLVM: $(cat a.screen)"
	keys a q
	keys a q
	[ "$(kt_wait_exit a 10)" = 0 ] || fail "kerneltop exit: $(cat a.screen)"
	done_testing
fi
screen_has a 's insns/source' && ok "footer: s insns/source" ||
	fail "footer lacks the s key: $(tail -1 a.screen)"
keys a s
if wait_screen a '^cpu-clock samples land a few instructions after the cause \(skid\)' 5 &&
	wait_screen a '^> *[0-9.]+% +[0-9]+ +[0-9a-f]+:  ' 5; then
	hl=$(grep '^>' a.screen | head -1)
	addr=$(printf '%s\n' "$hl" | awk '{ sub(/:$/, "", $4); print $4 }')
	if [ $((0x$addr)) -ge $lo ] && [ $((0x$addr)) -lt $hi ]; then
		ok "instructions: the hottest ($hl) inside the loop"
	else
		fail "hottest '$hl' outside the loop $(printf '%x-%x' $lo $hi)"
	fi
	tm capture-pane -p -e -t a | grep '^[^>]*>' | grep "$addr:" |
		grep -q "$(printf '\033')\[" && ok "the hottest highlighted" ||
		fail "the hottest instruction is not highlighted"
	screen_has a '(no source line)|[a-z-]+\.c:[0-9]+$' ||
		fail "no source line header above the instructions"
else
	fail "s: no instruction view: $(cat a.screen)"
fi
keys a s
wait_screen a 'file:line +source' 5 && ok "s again: the source lines" ||
	fail "s again: $(head -3 a.screen)"
keys a h
wait_screen a 'instructions with their samples' 5 &&
	ok "help: the s key" || fail "help lacks s: $(cat a.screen)"
keys a q
keys a q
wait_screen a '^ *Overhead ' 5 || fail "q: no table: $(cat a.screen)"
keys a q
[ "$(kt_wait_exit a 10)" = 0 ] || fail "kerneltop exit: $(cat a.screen)"
done_testing
