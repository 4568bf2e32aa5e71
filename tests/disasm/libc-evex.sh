#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libc-evex.sh - the instruction view on the machine's own libc: every
# instruction of one AVX-512 (*_evex) function starts where objdump -d
# starts one, no row is undecodable where objdump decodes, and the view
# has no start objdump lacks (capstone 4 printed .byte on EVEX code and
# lost the alignment: 229 rows where objdump has 172).  The function is
# found by name in libc's debug file; no address is assumed.
. "$top_srcdir/tests/test-subr.sh"
need binutils

DF="$top_builddir/tests/disasm/disasm-func"
# the libc this machine runs: the one awk maps
libc=$(awk '$6 ~ /\/libc\.so/ { print $6; exit }' /proc/self/maps)
[ -n "$libc" ] || skip "no libc.so mapped by awk (static or other libc)"
id=$(readelf -n "$libc" 2> /dev/null | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
syms=$libc
[ -n "$id" ] && [ -f "$dbg" ] && syms=$dbg
# __memchr_evex where there is one, else the first *_evex function
nm -S --defined-only "$syms" 2> /dev/null |
	awk '$3 ~ /^[tT]$/ && $4 ~ /_evex$/ && $2 !~ /^0*$/ { print $1, $2, $4 }' |
	sort -k3 > evex
[ -s evex ] || skip "no *_evex function in $libc's symbols (install libc6-dbg; or a libc without AVX-512 code)"
set -- $(awk '$3 == "__memchr_evex"' evex) $(head -n1 evex)
start=$((0x$1)) size=$((0x$2)) name=$3

"$DF" "$libc" "$start" > view 2> view.err
rc=$?
[ $rc -eq 77 ] && skip "$(cat view.err)"
[ $rc -eq 0 ] || { fail "disasm-func $name: $(cat view.err)"; done_testing; }
[ "$(head -n1 view)" = "$(printf 'func 0x%x %d' $start $size)" ] ||
	fail "$name: the view reads $(head -n1 view), nm says 0x$1 $size"

# objdump's starts: lines with an address, bytes and a mnemonic (a long
# instruction's second line holds bytes only)
objdump -d --start-address=$start --stop-address=$((start + size)) \
	"$libc" > objdump.out
awk -F'\t' 'NF >= 3 && $1 ~ /^ *[0-9a-f]+:$/ {
		sub(/^ */, "", $1); sub(/:$/, "", $1); print "0x" $1 }' objdump.out > want
sed 1d view | cut -f1 | sed 's/^0x0*/0x/' > got
[ -s want ] || fail "objdump decodes nothing at $name"
if cmp -s want got; then
	ok "$name: the view's $(wc -l < got) instruction starts are objdump's"
else
	fail "$name: $(wc -l < got) rows, objdump $(wc -l < want); first difference: $(diff want got | grep -m2 '^[<>]' | tr '\n' ' ')"
fi
bad=$(grep -c 'undecodable\|\.byte' view)
if ! grep -q '(bad)' objdump.out && [ "$bad" -ne 0 ]; then
	fail "$name: $bad undecodable rows where objdump decodes every byte"
fi
hot=$(grep -m1 kmov view | cut -f2)
[ -z "$hot" ] || ok "$name: mask instructions decoded ($hot)"
done_testing
