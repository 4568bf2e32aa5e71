#!/bin/sh
# Tracepoints are sampled at each occurrence without -c or -F, as perf
# record and perf top sample them, and named as the user wrote them:
# monitor against a known count of page faults and against perf record;
# kerneltop's header with a tracepoint beside a clock event.
. "$top_srcdir/tests/test-subr.sh"
need perf_event tracefs
tp=exceptions:page_fault_user
[ -r /sys/kernel/tracing/events/exceptions/page_fault_user/id ] ||
	skip "no $tp tracepoint in this kernel"

# touch-pages N faults once per page, plus its start-up (about 60)
n=3000
"$MONITOR" -e $tp --summary -- "$helpers/touch-pages" $n > sum.out 2> sum.err
check "monitor -e $tp: exit 0 ($?)" test $? -eq 0
got=$(sed -n "s/^monitor: \([0-9]*\) samples of $tp on .*, \([0-9]*\) lost, .*/\1 \2/p" sum.out)
check "monitor -e $tp: named as written: $(head -1 sum.out)" test -n "$got"
set -- $got 0 0
check "monitor -e $tp: $1 samples ($2 lost), one per fault of $n pages" \
	awk -v v="$1" -v l="$2" -v n=$n 'BEGIN { exit !(l == 0 && v >= n && v <= n + 200) }'
if have_perf; then
	perf record -q -o perf.data -e $tp -- "$helpers/touch-pages" $n 2> /dev/null
	p=$(perf script -i perf.data 2> /dev/null | grep -c " $tp: ")
	check "monitor's $1 samples of $tp like perf record's $p, within 1%" \
		within "$1" "$p" 1
else
	without perf "the count against perf record"
fi
"$MONITOR" -c 1000 -e $tp --summary -- "$helpers/touch-pages" $n > c.out 2> c.err
c=$(sed -n "s/^monitor: \([0-9]*\) samples of $tp .*/\1/p" c.out)
check "monitor -c 1000 -e $tp: $c samples, a period given is kept" \
	awk -v v="$c" -v n=$n 'BEGIN { exit !(v >= n / 1000 - 1 && v <= n / 1000 + 1) }'

# --script: a tracepoint's sample line is perf script's, its record's
# text after the event (the print fmt's, through lib/trace), with the
# CPU and no ip.  sleep switches out asleep once at least, as itself.
ss=sched:sched_switch
line_re="^ +sleep +[0-9]+ \\[[0-9]{3}\\] +[0-9]+\\.[0-9]{6}: $ss: prev_comm=sleep prev_pid=[0-9]+ prev_prio=[0-9]+ prev_state=S ==> next_comm=.+ next_pid=[0-9]+ next_prio=[0-9]+$"
"$MONITOR" --script -e $ss -- sleep 0.05 > tp.out 2> tp.err
check "monitor --script -e $ss: exit 0 ($?): $(head -1 tp.err)" test $? -eq 0
check "monitor --script -e $ss: sleep switched out asleep, as perf script writes it: $(head -1 tp.out)" \
	grep -Eq "$line_re" tp.out
# every line of sleep's own: its pid as prev_pid
check "monitor --script -e $ss: each record's prev_pid is the line's pid" \
	awk '{ split($7, p, "="); if (p[1] != "prev_pid" || p[2] != $2) exit 1 }' tp.out
if have_perf; then
	perf record -q -o ss.data -e $ss -- sleep 0.05 2> /dev/null
	perf script -i ss.data 2> /dev/null > ss.perf
	check "perf script's line has the same form: $(head -1 ss.perf)" \
		grep -Eq "$line_re" ss.perf
else
	without perf "the line against perf script's"
fi
"$MONITOR" --fields comm,tid,event,trace -e $ss -- sleep 0.05 > tf.out 2>&1
check "--fields comm,tid,event,trace: $(head -1 tf.out)" \
	grep -Eq "^ +sleep +[0-9]+ $ss: prev_comm=sleep " tf.out

# kerneltop: a tracepoint beside cpu-clock, each at its own rate, in one
# ring (their samples must read alike).
if have kerneltop; then
	"$KERNELTOP" -b -n 1 -d 0.3 -e cpu-clock -e sched:sched_switch > kt.out 2> kt.err
	check "kerneltop -e cpu-clock -e sched:sched_switch: exit 0 ($?): $(cat kt.err)" \
		test $? -eq 0
	check "kerneltop's header: each event at its rate: $(head -1 kt.out)" \
		grep -q '^kerneltop: .* cpu-clock 4000 Hz,sched:sched_switch every 1 ' kt.out
	check "kerneltop's weight columns: each event's name whole" \
		grep -Eq '^ *Weight +cpu-clock +sched:sched_switch +Symbol' kt.out
else
	without kerneltop "kerneltop's tracepoint sampling"
fi
done_testing
