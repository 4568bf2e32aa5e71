#!/bin/sh
# A group with a member this machine cannot count ({task-clock,cycles}
# without a PMU) and a group led by one ({cycles,instructions}): reported
# as perf reports them; -g, which puts every event in one group; a group
# pinned or exclusive ({a,b}:D, :e).
. "$top_srcdir/tests/test-subr.sh"
need perf_event

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
"$PCSTAT" -x, -e cycles -- true 2> pmu.csv
grep -q 'not supported' pmu.csv || skip "a hardware PMU here: cycles counts"

"$PCSTAT" -x, -e '{task-clock,cycles},page-faults' -- true 2> g.csv
check "{task-clock,cycles}: task-clock <not counted>" \
	grep -q '^<not counted>,msec,task-clock,0,' g.csv
check "{task-clock,cycles}: cycles <not supported>" \
	grep -q '^<not supported>,,cycles,' g.csv
check "an event outside the group still counts" \
	grep -Eq '^[0-9]+,,page-faults,' g.csv
"$PCSTAT" -x, -e '{cycles,instructions}' -- true 2> lead.txt
check "{cycles,instructions}: refused, exit 1 ($?)" test $? -eq 1
check "{cycles,instructions}: names the leader" grep -q "'cycles'" lead.txt

# -g: every event in one group, read at once: one run time for them all.
"$PCSTAT" -g -x, -e page-faults,task-clock,cs -- "$helpers/touch-pages" 500 2> all.csv
check "-g: one run time for the three events" \
	test "$(cut -d, -f4 all.csv | sort -u | wc -l)" -eq 1
check "-g: the three counted" test "$(grep -c '^[0-9]' all.csv)" -eq 3

# What perf counts, in perf's order, or says it cannot (the value
# itself, or <not counted> / <not supported>), with unit and name.
shape() { awk -F, '{ print ($1 ~ /^</ ? $1 : "N") "," $2 "," $3 }' "$@"; }

# {a,b}:D and :e pin (reserve) the group through its leader, as perf
# does: the kernel refuses a member that asks itself.
for m in D e De; do
	"$PCSTAT" -x, -e "{page-faults,cs}:$m" -- true 2> pin.csv
	check "{page-faults,cs}:$m: both counted" \
		test "$(grep -c '^[0-9]' pin.csv)" -eq 2
done

if have perf; then
	for ev in "{page-faults,cs}:D" "{page-faults,cs}:e" \
		  "{page-faults:D,cs:D}" "{page-faults,cs:e}"; do
		"$PCSTAT" -x, -e "$ev" -- true 2> p.csv
		perf stat -x, -e "$ev" -- true 2> q.csv
		shape p.csv > x; shape q.csv > y
		diff -u y x || fail "-e '$ev': perf's counts and names"
	done
	# -g merges {...} groups and takes the default events and -d's
	# too: where cycles cannot be counted, nothing in the group is.
	for ev in "-e page-faults,cycles" "-e {page-faults,task-clock},cs" \
		  "-e cs -e page-faults:u" "" "-d"; do
		"$PCSTAT" -g -x, $ev -- true 2> p.csv
		perf stat -g -x, $ev -- true 2> q.csv
		shape p.csv > x; shape q.csv > y
		diff -u y x || fail "-g $ev: perf's counts and names"
	done
	"$PCSTAT" --group -x, -e page-faults -- true 2> /dev/null
	check "--group is -g ($?)" test $? -eq 0
	perf stat -x, -e '{task-clock,cycles},page-faults' -- true 2> pg.csv
	mask g.csv > x; mask pg.csv > y
	diff -u y x || fail "{task-clock,cycles} CSV: the layout of perf's"
	"$PCSTAT" -e '{task-clock,cycles}' -- true 2> g.txt
	perf stat -e '{task-clock,cycles}' -- true 2> pg.txt
	mask g.txt > x; mask pg.txt > y
	diff -u y x || fail "{task-clock,cycles} human: the layout of perf's"
	perf stat -x, -e '{cycles,instructions}' -- true 2> /dev/null
	check "perf refuses {cycles,instructions} too ($?)" test $? -ne 0
else
	without perf "the comparison with perf"
fi
done_testing
