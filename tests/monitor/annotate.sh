#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# annotate.sh - monitor --annotate SYM against ground truth: a helper
# whose hot loop is a known instruction sequence (tests/helpers/hot-insn)
# has >= 95% of its samples inside the loop's address range, and the
# hottest instruction is the one perf annotate --stdio names on a run of
# the same helper; each run's source header carries its line's text (a
# FIFO where the source was: file:line alone, no hang); a function not
# sampled, or not there, is one line.
. "$top_srcdir/tests/test-subr.sh"
need perf_event binutils

H="$helpers/hot-insn"
mon() { timeout -k 5 60 "$MONITOR" "$@"; }

"$H" --range > range || fail "hot-insn --range exited $?"
base=$(nm "$H" | awk '$3 == "hot_insns" { print $1 }')
[ -n "$base" ] || fail "nm finds no hot_insns in $H"
set -- $(cat range)
lo=$(printf '%x' $((0x$base + $1)))
hi=$(printf '%x' $((0x$base + $2)))

# rows "ADDR COUNT" of monitor's annotation
rows() {
	awk '/^[ >] *[0-9.]+% +[0-9]+ +[0-9a-f]+:/ {
		sub(/^>/, " "); sub(/:$/, "", $3); print $3, $2 }' "$1"
}

# perf, where it runs, samples the same run of the helper as monitor
# does, so that both see the same timing: the share of each instruction
# moves from one run to the next by more than the sampling error (a
# loaded host: 10.7 points between two runs).
perf_ok=
if have_perf && perf record -q -e cpu-clock -F 1000 -o probe.data -- true \
		>/dev/null 2>&1; then
	perf_ok=1
	timeout -k 5 90 perf record -q -e cpu-clock -F 1000 -o perf.data -- \
		"$MONITOR" -F 1000 --annotate hot_insns -- "$H" 1000 > out 2> err
	rc=$?
else
	mon -F 1000 --annotate hot_insns -- "$H" 1000 > out 2> err
	rc=$?
fi
grep -q "built without LLVM" err &&
	skip "monitor was built without LLVM's disassembler: no instruction view"
[ "$rc" -eq 0 ] || fail "monitor --annotate exited $rc: $(tail -2 err)"
grep -q "skid" out || fail "no skid note: $(head -3 out)"
total=$(sed -n 's/^monitor: \([0-9]*\) samples of.*/\1/p' err)
rows out > mine
inloop=$(awk -v lo="$lo" -v hi="$hi" '
	function hex(s,  i, v) { v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	hex($1) >= hex(lo) && hex($1) < hex(hi) { n += $2 } END { print n + 0 }' mine)
[ "${total:-0}" -ge 500 ] || fail "only '${total}' samples in 1 s at 1 kHz"
# of the function's samples: at load 25 the start of the process (the
# host's stalls counted as its CPU time) took 5.8% of the run's
infn=$(awk '{ n += $2 } END { print n + 0 }' mine)
pct=$(awk -v a="$inloop" -v t="$infn" 'BEGIN { printf "%.1f", t ? 100 * a / t : 0 }')
awk -v p="$pct" 'BEGIN { exit !(p >= 95) }' &&
	ok "$pct% of hot_insns' $infn samples (of $total) inside the loop ($lo-$hi)" ||
	fail "only $pct% of hot_insns' $infn samples (of $total) inside the loop $lo-$hi: $(cat mine)"
hot=$(awk '/^>/ { sub(/:$/, "", $4); print $4 }' out)
[ -n "$hot" ] || fail "no hottest instruction marked: $(cat out)"

# perf on the same run: the same hottest instruction, and each
# instruction's share within 10 points of perf's (two samples of 1000
# from one distribution: the difference's standard deviation is at most
# 2.3 points).
if ! have_perf; then
	without perf "the comparison with perf annotate"
elif [ -n "$perf_ok" ]; then
	perf annotate --stdio -i perf.data hot_insns 2>/dev/null |
		awk '/^ *[0-9.]+ : +[0-9a-f]+:/ { sub(/:$/, "", $3); print $3, $1 }' \
		> theirs
	phot=$(sort -k2,2gr theirs | head -1 | cut -d' ' -f1)
	if [ -n "$phot" ] && [ "$phot" = "$hot" ]; then
		ok "hottest instruction $hot in both ($(grep "^$hot " theirs | cut -d' ' -f2)% perf)"
	else
		fail "hottest: monitor $hot, perf '$phot': $(cat theirs)"
	fi
	worst=$(awk -v t="$infn" 'NR == FNR { mine[$1] = 100 * $2 / t; next }
		{ d = mine[$1] - $2; if (d < 0) d = -d; if (d > w) w = d }
		END { printf "%.1f", w }' mine theirs)
	awk -v w="$worst" 'BEGIN { exit !(w <= 10) }' &&
		ok "every instruction's share within $worst points of perf's" ||
		fail "an instruction's share is $worst points from perf's: $(cat mine) / $(cat theirs)"
else
	echo "note: perf record does not run here; comparison skipped"
fi

# Untrusted ELF: a copy whose .symtab gives hot_insns 1 GiB.  The code
# read stops at the end of .text, the section that holds it.
if have python; then
	"$PYTHON3" - "$H" big <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum = struct.unpack_from('<HH', data, 0x3a)
sh = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
      for i in range(shnum)]
for s in sh:
    if s[1] != 2:               # SHT_SYMTAB
        continue
    strtab = sh[s[6]]
    for off in range(s[4], s[4] + s[5], 24):
        name, = struct.unpack_from('<I', data, off)
        end = data.index(0, strtab[4] + name)
        if data[strtab[4] + name:end] == b'hot_insns':
            struct.pack_into('<Q', data, off + 16, 1 << 30)
open(sys.argv[2], 'wb').write(data)
PY
	chmod +x big
	set -- $(objdump -h big | awk '$2 == ".text" { print $4, $3 }')
	tend=$((0x$1 + 0x$2))
	mon -F 1000 --annotate hot_insns -- ./big 300 > big.out 2> big.err
	rc=$?
	last=$(awk '/^[ >] *([0-9.]+%)? +([0-9]+ +)?[0-9a-f]+:  / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9a-f]+:$/) a = $i }
		END { sub(/:$/, "", a); print a }' big.out)
	if [ "$rc" -eq 0 ] && [ -n "$last" ] && [ $((0x$last)) -lt "$tend" ]; then
		ok "a 1 GiB symbol: instructions up to $last, inside .text (ends $(printf %x $tend))"
	else
		fail "a 1 GiB symbol: exit $rc, last instruction '$last', .text ends $(printf %x $tend): $(tail -3 big.err)"
	fi
fi

# The source line above each run of instructions, with its text: on
# spin's hot_spin (C, -g), every header's text is that line of spin.c.
# The helper's and a copy's built in ./rel as "cc ../src/spin.c": a
# relative name is of the directory it was compiled in (DW_AT_comp_dir),
# not of ours (ccache with CCACHE_BASEDIR makes the helper's relative
# too: "no text" then, taken for the load of the machine).
src="$top_srcdir/tests/helpers/spin.c"
CC=${CC:-cc}
mkdir rel src
cp "$src" src/spin.c
# shellcheck disable=SC2086 # CC may be "ccache gcc"
(cd rel && $CC -g -O1 -o ../rel-spin ../src/spin.c) 2> cc.err ||
	fail "$CC cannot build spin.c: $(head -3 cc.err)"
for bin in "$helpers/spin" ./rel-spin; do
	mon -F 1000 --annotate hot_spin -- "$bin" 300 > spin.out 2> spin.err ||
		fail "monitor --annotate hot_spin exited $?: $(tail -2 spin.err)"
	# headers "spin.c:N  TEXT" as "N<TAB>TEXT", blanks squeezed
	awk '/^ +([^ ]*\/)?spin\.c:[0-9]+  / { sub(/^ +([^ ]*\/)?spin\.c:/, "")
		n = $1; sub(/^[0-9]+  /, ""); gsub(/[ \t]+/, " "); print n "\t" $0 }' \
		spin.out > headers
	nh=$(wc -l < headers)
	bad=$(while IFS="$(printf '\t')" read -r n text; do
		want=$(sed -n "${n}p" "$src" | tr -s ' \t' '  ' | sed 's/ $//')
		[ "$text" = "$want" ] || echo "spin.c:$n '$text' != '$want'"
	done < headers)
	[ "$nh" -ge 2 ] && [ -z "$bad" ] &&
		ok "$bin: $nh source headers, each with its line's text" ||
		fail "$bin: source headers ($nh): ${bad:-none}: $(head -12 spin.out)"
done

# A source path the target's DWARF names is untrusted: a FIFO planted
# there is not opened (no hang), and the headers keep file:line.
mkdir fifo-src
cp "$src" fifo-src/spin.c
# shellcheck disable=SC2086
if $CC -g -O1 -o fifo-spin fifo-src/spin.c 2> cc.err; then
	rm fifo-src/spin.c
	mkfifo fifo-src/spin.c
	mon -F 1000 --annotate hot_spin -- ./fifo-spin > ff.out 2> ff.err
	rc=$?
	[ $rc -eq 0 ] && grep -Eq '^ +spin\.c:[0-9]+$' ff.out &&
		! grep -Eq '^ +spin\.c:[0-9]+  ' ff.out &&
		ok "a FIFO for the source: file:line alone, exit 0" ||
		fail "a FIFO for the source: exit $rc: $(grep 'spin\.c' ff.out | head -3) $(tail -2 ff.err)"
else
	fail "$CC cannot build spin.c: $(head -3 cc.err)"
fi

# A function that was not sampled, or is not there: one line, exit 1.
cp "$H" stripped && strip stripped
fault_table <<ROWS
1 | ^monitor: --annotate no_such_fn: no sample in a function of that name | mon -F 1000 --annotate no_such_fn -- "$H" 100
1 | ^monitor: --annotate main: no sample in a function of that name       | mon -q -c 1000000000 --annotate main -- "$H" 50
1 | ^monitor: --annotate hot_insns: no sample in a function of that name  | mon -F 1000 --annotate hot_insns -- ./stripped 100
2 | --raw does not resolve samples: no annotation                          | mon --raw --annotate hot_insns -- "$H" 10
ROWS
done_testing
