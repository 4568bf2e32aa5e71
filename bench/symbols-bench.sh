#!/bin/sh
# symbols-bench.sh BUILDDIR - lib/symbols and monitor against perf script
# with srcline, addr2line (one fork per address and batch) and eu-addr2line,
# side by side in one run on the same addresses.  Prints addresses (or
# samples) per second and peak RSS.  Not a test: numbers vary with the
# machine; read the ratios.
set -eu
B=$(cd "${1:-.}" && pwd)
H="$B/tests/monitor/mon-helper"
SYMRES="$B/tests/symbols/symres"
MON="$B/monitor"
[ -x "$H" ] && [ -x "$SYMRES" ] || { echo "run 'make check' in $B first" >&2; exit 2; }
LIBC=$(ldd "$H" | awk '/libc.so/ { print $3 }')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# measure NAME COUNT CMD...: print NAME, rate, peak RSS (stdin is addrs)
measure() {
	name=$1 count=$2
	shift 2
	/usr/bin/time -f "%e %M" -o t "$@" > /dev/null 2>&1 || true
	read -r secs rss < t
	awk -v n="$name" -v c="$count" -v s="$secs" -v r="$rss" 'BEGIN {
		if (s < 0.01) s = 0.01
		printf "%-38s %10d in %6.2f s = %10.0f /s   RSS %6.1f MiB\n",
			n, c, s, c / s, r / 1024 }'
	echo "$name $count $secs" >> results
}

# 1. Addresses a profile really hits: monitor's own samples of the helper
#    (their file offsets), repeated to 200k; and libc's functions.
"$MON" -u -F 10000 --json -- "$H" hot 2000 2>/dev/null |
	awk -F'"dso_off":' -v h="$H" 'index($0, "\"dso\":\"" h "\"") {
		split($2, a, ","); printf "%x\n", a[1] }' > helper.once
n=$(wc -l < helper.once)
: > addrs.helper
while [ $(wc -l < addrs.helper) -lt 200000 ]; do cat helper.once >> addrs.helper; done
nm -D --defined-only "$LIBC" | awk '$2 ~ /^[TtWi]$/ { print $1 }' | sort -u > libc.funcs
awk '{ for (i = 0; i < 16; i += 4) printf "%x\n", strtonum("0x" $1) + i }' libc.funcs \
	> libc.once 2>/dev/null ||
	python3 -c 'import sys
for l in open("libc.funcs"):
    for i in range(0, 16, 4): print("%x" % (int(l, 16) + i))' > libc.once
: > addrs.libc
while [ $(wc -l < addrs.libc) -lt 50000 ]; do cat libc.once >> addrs.libc; done

echo "== batch symbolization: helper ($n distinct samples -> $(wc -l < addrs.helper) addresses)"
N=$(wc -l < addrs.helper)
measure "lib/symbols (symres, lines+inlines)" $N sh -c "'$SYMRES' '$H' < addrs.helper"
measure "addr2line -f (batch)" $N sh -c "addr2line -f -e '$H' < addrs.helper"
measure "eu-addr2line -f (batch)" $N sh -c "eu-addr2line -f -e '$H' < addrs.helper"
head -300 addrs.helper > a300
measure "addr2line, one fork per address" 300 sh -c \
	"while read a; do addr2line -f -e '$H' \$a; done < a300"

echo "== batch symbolization: libc ($(wc -l < libc.once) distinct -> $(wc -l < addrs.libc))"
N=$(wc -l < addrs.libc)
measure "lib/symbols (symres, lines+inlines)" $N sh -c "'$SYMRES' '$LIBC' < addrs.libc"
measure "addr2line -f (batch)" $N sh -c "addr2line -f -e '$LIBC' < addrs.libc"
measure "eu-addr2line -f (batch)" $N sh -c "eu-addr2line -f -e '$LIBC' < addrs.libc"
# all distinct: the cold path, no cache help
N=$(wc -l < libc.once)
measure "lib/symbols, distinct addresses only" $N sh -c "'$SYMRES' '$LIBC' < libc.once"
measure "addr2line -f, distinct addresses only" $N sh -c "addr2line -f -e '$LIBC' < libc.once"

echo "== samples: perf script -F ip,sym,srcline vs monitor (same helper, 10 kHz)"
if perf record -q -e cpu-clock -F 10000 -o perf.data -- "$H" hot 2000 >/dev/null 2>&1; then
	S=$(perf script -i perf.data -F ip 2>/dev/null | wc -l)
	measure "perf script -F ip,sym,srcline" $S \
		perf script -i perf.data -F ip,sym,srcline
fi
# monitor on a running thread: its own CPU time only (the thread is not
# its child), so samples per CPU-second is what it can sustain.  Run at a
# low and a high rate: the difference is the cost of a sample, without
# the fixed start-up (reading /proc/kallsyms, loading debuginfo).
mon_run() {	# mon_run HZ: prints "samples cpu-seconds rss-kb"
	"$H" hot 3000 2> ready &
	hp=$!
	while ! grep -q ready ready 2>/dev/null; do sleep 0.05; done
	# CPU from perf stat's task-clock (time(1) counts in 10 ms steps)
	/usr/bin/time -f "%M" -o mt perf stat -x, -e task-clock -o pst -- \
		"$MON" -F "$1" "$hp" > mon.out 2> mon.err
	wait $hp
	rm -f ready
	echo "$(grep -c '^[0-9]' mon.out) $(awk -F, '$3 == "task-clock" { print $1 / 1000 }' pst) $(cat mt)"
}
mon_run 1000 > run1
mon_run 20000 > run2
read -r S1 T1 R1 < run1
read -r S T rss < run2
awk -v c="$S" -v t="$T" -v r="$rss" 'BEGIN { if (t < 0.01) t = 0.01
	printf "%-38s %10d in %6.2f s CPU = %8.0f /s   RSS %6.1f MiB\n",
		"monitor (CPU time, live, text out)", c, t, c / t, r / 1024 }'
echo "monitor $S $(awk -v t="$T" 'BEGIN { print (t < 0.01 ? 0.01 : t) }')" >> results
# the cost of one more sample, start-up excluded
awk -v a="$S1" -v b="$S" -v ta="$T1" -v tb="$T" 'BEGIN { d = tb - ta; if (d < 0.01) d = 0.01
	printf "%-38s %10d in %6.2f s CPU = %8.0f /s   (start-up %.2f s CPU)\n",
		"monitor, per extra sample", b - a, d, (b - a) / d, ta - a * d / (b - a) }'
echo "monitor-marginal $((S - S1)) $(awk -v ta="$T1" -v tb="$T" 'BEGIN { d = tb - ta; print (d < 0.01 ? 0.01 : d) }')" >> results

echo "== ratios"
awk '{ rate[$1 " " $2] = $3 / ($4 < 0.01 ? 0.01 : $4) } END {}' /dev/null
awk 'BEGIN { OFS = "" }
	{ n = $0; sub(/ [0-9.]+ [0-9.]+$/, "", n); c = $(NF - 1); s = $NF;
	  if (s < 0.01) s = 0.01; r[++k] = c / s; name[k] = n }
	END {
		# helper: 1 symres, 2 addr2line, 3 eu-addr2line, 4 fork
		printf "helper: lib/symbols / addr2line batch   = %.2fx\n", r[1] / r[2]
		printf "helper: lib/symbols / eu-addr2line      = %.2fx\n", r[1] / r[3]
		printf "helper: lib/symbols / addr2line per fork = %.0fx\n", r[1] / r[4]
		printf "libc:   lib/symbols / addr2line batch   = %.2fx\n", r[5] / r[6]
		printf "libc:   lib/symbols / eu-addr2line      = %.2fx\n", r[5] / r[7]
		printf "libc distinct: lib/symbols / addr2line  = %.2fx\n", r[8] / r[9]
		if (k >= 11) {
			printf "monitor / perf script srcline          = %.0fx\n", r[11] / r[10]
			printf "monitor per extra sample / perf script = %.0fx\n", r[12] / r[10]
			printf "lib/symbols (helper) / perf script     = %.0fx\n", r[1] / r[10]
		}
	}' results
