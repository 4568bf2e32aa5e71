#!/bin/sh
# -D MS (elapsed from the enable, perf's messages) and -D -1 with
# --control fifo:CTL,ACK: the workload marks the region to count.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

# -D 300 over sleep 0.6: elapsed is the counted 0.3 s, not 0.6 s.
"$PCSTAT" -e task-clock -D 300 -- sleep 0.6 2> d.txt
el=$(awk '/seconds time elapsed/ { print $1 }' d.txt)
check "-D 300 -- sleep 0.6: elapsed $el s from the enable" \
	awk -v e="$el" 'BEGIN { exit !(e >= 0.25 && e < 0.55) }'
check "-D: 'Events disabled' then 'Events enabled' first" \
	test "$(head -2 d.txt | tr '\n' ' ')" = "Events disabled Events enabled "
"$PCSTAT" -e task-clock -D 100 -o out.txt -- sleep 0.2 2> d-err.txt
check "-D with -o: the messages stay on stderr" \
	test "$(cat d-err.txt | tr '\n' ' ')" = "Events disabled Events enabled "
"$PCSTAT" -q -e task-clock -D 100 -- sleep 0.2 2> dq.txt
check "-D -q: no messages" test ! -s dq.txt

# The region between enable and disable: exactly the 2000 pages of the
# second helper (plus its start-up), none of the 3000 or 4000 around it.
mkfifo ctl ack
cat > work.sh <<EOF2
exec 3> ctl 4< ack
"$helpers/touch-pages" 3000
echo enable >&3; read -r a <&4; echo "\$a" > ack1
"$helpers/touch-pages" 2000
echo ping >&3; read -r a <&4; echo "\$a" > ack2
echo disable >&3; read -r a <&4
"$helpers/touch-pages" 4000
EOF2
"$PCSTAT" -x, -e page-faults -D -1 --control fifo:ctl,ack -- sh work.sh 2> c.csv
rc=$?
cat c.csv
pf=$(val page-faults c.csv)
check "--control: exit 0 ($rc)" test "$rc" -eq 0
check "--control: $pf page faults: the 2000 of the enabled region" \
	awk -v v="$pf" 'BEGIN { exit !(v >= 2000 && v <= 2400) }'
check "--control: enable and ping acknowledged" \
	test "$(cat ack1 ack2 | tr -d '\0' | tr '\n' ' ')" = "ack ack "
check "--control: perf's messages" test "$(grep -c '^Events' c.csv)" -eq 3
"$PCSTAT" -e page-faults -D -1 --control fifo:ctl,ack -- sh work.sh 2> c.txt

if have perf; then
	perf stat -x, -e page-faults -D -1 --control fifo:ctl,ack -- sh work.sh 2> perf-c.csv
	ppf=$(val page-faults perf-c.csv)
	check "--control: perf counts $ppf, pcstat $pf (within 10%)" \
		within "$pf" "$ppf" 10
	mask c.csv > a; mask perf-c.csv > b
	diff -u b a || fail "--control CSV: the layout of perf's"
	perf stat -e page-faults -D -1 --control fifo:ctl,ack -- sh work.sh 2> perf-c.txt
	mask c.txt > a; mask perf-c.txt > b
	diff -u b a || fail "--control human: the layout of perf's"
	perf stat -e task-clock -D 300 -- sleep 0.6 2> perf-d.txt
	mask d.txt > a; mask perf-d.txt > b
	diff -u b a || fail "-D: the layout of perf's"
else
	without perf "the comparison with perf stat"
fi
"$PCSTAT" -e page-faults --control pipe:x -- true 2> bad.txt
check "--control pipe:x: exit 2 ($?)" test $? -eq 2
"$PCSTAT" -e page-faults --control fifo:nosuch -- true 2> bad.txt
check "--control fifo:nosuch: exit 2 with advice" grep -q mkfifo bad.txt
done_testing
