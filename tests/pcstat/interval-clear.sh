#!/bin/sh
# --interval-clear: on a terminal, the screen cleared (on stdout, as perf
# does it) and the header repeated before every interval, in every
# layout; refused when the counts go elsewhere.  Side by side with perf
# under script(1), which gives both a terminal.
. "$top_srcdir/tests/test-subr.sh"
need perf_event
command -v script > /dev/null || skip "no script(1) (util-linux) for a terminal"

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
clear=$(printf '\033[H\033[2J')

"$PCSTAT" --interval-clear -I 100 --interval-count 1 -e task-clock -- true 2> e.txt
check "--interval-clear, stderr not a terminal: exit 2 ($?)" test $? -eq 2
check "--interval-clear, stderr not a terminal: perf's words" \
	grep -q -- '--interval-clear does not work with output' e.txt
script -qec "'$PCSTAT' --interval-clear -o c.txt -I 100 --interval-count 1 -e task-clock -- true" /dev/null > e.txt
check "--interval-clear -o FILE: exit 2 ($?)" test $? -eq 2

# On a terminal: stdout gets exactly one clear (and perf's newline) per
# interval, stderr the counts with a header each time.
script -qec "'$PCSTAT' --interval-clear -I 100 --interval-count 3 -e task-clock -- sleep 1 > so.txt" /dev/null > t.txt
check "--interval-clear: stdout is three clears" \
	test "$(cat so.txt)" = "$(printf '%s\n%s\n%s' "$clear" "$clear" "$clear")"
check "--interval-clear: three headers ($(grep -c '^#  *time' t.txt))" \
	test "$(grep -c '^#  *time' t.txt)" -eq 3
check "--interval-clear: three intervals" \
	test "$(grep -c 'task-clock' t.txt)" -eq 3

if have perf; then
	for fmt in "" -x, -j "-a -A" "-a --per-core"; do
		script -qec "'$PCSTAT' --interval-clear -I 100 --interval-count 2 $fmt -e task-clock -- sleep 0.5" /dev/null > p.out
		script -qec "perf stat --interval-clear -I 100 --interval-count 2 $fmt -e task-clock -- sleep 0.5" /dev/null > q.out
		# the clears are compared unmasked: masking keeps escapes
		check "--interval-clear ${fmt:-human}: two clears, as perf" \
			test "$(grep -cF "$clear" p.out)" -eq 2 -a \
			"$(grep -cF "$clear" q.out)" -eq 2
		mask p.out > x; mask q.out > y
		if ! diff -u y x; then
			fail "--interval-clear ${fmt:-human}: perf's screen"
			echo "perf's, raw:"; cat -v q.out
			echo "ours, raw:"; cat -v p.out
		fi
	done
else
	without perf "the screens beside perf's"
fi
done_testing
