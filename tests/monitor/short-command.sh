#!/bin/sh
# short-command.sh - monitor -g on a command that runs 40 ms of CPU: it
# has exited (a zombie, its /proc maps empty) when monitor reads its
# samples, which must be resolved from its MMAP2 records all the same
# (they were 90% "no mapping"), with frame pointers and with DWARF, and
# its hot function on top, as perf record finds it on the same run.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

H="$top_builddir/tests/monitor/cg-helper-fp"

# top NAME: "FUNCTION SHARE" of the summary's first row, then the
# unresolved share of the samples, in %
top_of() {
	awk '/ samples of .* unresolved$/ { n = $2; u = $(NF - 1) }
	     $2 ~ /%$/ && !f { f = $3; s = $2; sub("%", "", s) }
	     END { printf "%s %s %.1f\n", f, s, n ? 100 * u / n : 100 }' "$1"
}

for cg in fp dwarf; do
	"$MONITOR" --call-graph $cg -e cpu-clock -F 4000 --summary -- \
		"$H" tree 40 > $cg.out 2> $cg.err ||
		fail "$cg: monitor: $(cat $cg.err)"
	read -r fn share unres <<E
$(top_of $cg.out)
E
	awk -v u="$unres" 'BEGIN { exit !(u <= 5) }' &&
		ok "$cg: $unres% of a 40 ms command's samples unresolved" ||
		fail "$cg: $unres% unresolved: $(grep -A1 '^unresolved' $cg.out)"
	[ "$fn" = cg_hot ] && ok "$cg: cg_hot on top ($share%)" ||
		fail "$cg: $fn on top: $(sed -n '/share  function/,+3p' $cg.out)"
	eval "share_$cg=$share"
done

if have perf; then
	perf record -q -g -e cpu-clock -F 4000 -o perf.data -- "$H" tree 40 \
		> perf.out 2>&1 || fail "perf record: $(tail -3 perf.out)"
	perf report -i perf.data --stdio --no-children --sort symbol \
		2> /dev/null | awk '/^ *[0-9.]+%/ && /cg_hot/ {
			sub("%", "", $1); print $1; exit }' > perf.share
	ps=$(cat perf.share)
	awk -v p="$ps" -v m="$share_fp" 'BEGIN { d = p - m
		exit !(p > 0 && (d < 0 ? -d : d) <= 10) }' &&
		ok "cg_hot $share_fp% of the samples, perf record's $ps%" ||
		fail "cg_hot $share_fp%, perf record's '$ps'%"
else
	without perf "the comparison with perf record"
fi
done_testing
