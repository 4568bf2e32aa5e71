#!/bin/sh
# trace.sh - perf's tracepoint sort keys in kerneltop -b, on a helper
# whose every switch is known: kt-helper naps sleeps 1 ms at a time as
# "kt-napper", so each sched:sched_switch of it says prev_comm=kt-napper
# and prev_state=S (but for a rare preemption).  Tracepoints alone sort
# by their record's text as perf top does (the print fmt's line, checked
# against perf top's on the same helper), or by its fields (-s
# prev_comm,prev_state; the event's name before the field; --raw-trace
# for the values as recorded); keys that name no field fail in a line.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event tracefs
[ -r /sys/kernel/tracing/events/sched/sched_switch/format ] ||
	skip "no sched:sched_switch format in tracefs"

H="$top_builddir/tests/kerneltop/kt-helper"
spawn_ready "$H" naps 0 || fail "naps helper did not start"
np=$spawned

# share_of FILE ERE...: the summed share of the rows of FILE's last
# frame that match every ERE
share_of() {
	local f=$1
	shift
	kt_rows "$f" | awk -v res="$*" '
		BEGIN { n = split(res, re, " ") }
		{ for (i = 1; i <= n; i++) if ($0 !~ re[i]) next
		  s += $1 }
		END { printf "%.2f\n", s }'
}

# The helper's own count of its switches, asleep and preempted, from
# /proc: csw_mark before a run, asleep_share after it prints the share
# asleep in between -- the truth a tool's prev_state=S share is held to.
# (A loaded machine preempts the napper often: 42% of its switches at a
# load of 9.)
csw_mark() {
	csw0=$(awk '/^voluntary_ctxt/ { v = $2 } /^nonvoluntary_ctxt/ { n = $2 }
		    END { print v, n }' /proc/$np/status)
}
asleep_share() {
	awk -v before="$csw0" '/^voluntary_ctxt/ { v = $2 }
		/^nonvoluntary_ctxt/ { n = $2 }
		END { split(before, b, " "); dv = v - b[1]; dn = n - b[2]
		      printf "%.2f\n", dv + dn ? 100 * dv / (dv + dn) : 0 }' \
		/proc/$np/status
}
# near SHARE TRUTH: a tool's share of the asleep switches against the
# helper's own: frames weigh the last second most, the truth the whole
# run, so 15 points apart at most.  No cap at 100%: under load the
# switches go to hundreds of next tasks, each row of 1 sample in 1794
# printed as 0.06% (0.0557), and 460 such rows summed to 101.36%.
near() {
	awk -v s="$1" -v t="$2" 'BEGIN { d = s - t; exit !(d <= 15 && d >= -15) }'
}

# --- the default: the record's text, as the kernel's print fmt says ---
csw_mark
kt def -b -n 3 -d 1 -e sched:sched_switch -p $np
truth=$(asleep_share)
[ $rc -eq 0 ] || fail "kerneltop -e sched:sched_switch: exit $rc: $(head -2 def.err)"
kt_header def.out | grep -q 'Trace output' &&
	ok "tracepoints alone: sorted by their record (Trace output)" ||
	fail "no Trace output column: $(kt_header def.out)"
first=$(kt_rows def.out | head -1)
case $first in
*"prev_comm=kt-napper prev_pid=$np prev_prio="*" prev_state=S ==> next_comm="*" next_prio="*)
	ok "top row: kt-napper switching out asleep" ;;
*)	fail "top row: '$first'" ;;
esac
s=$(share_of def.out 'prev_comm=kt-napper' 'prev_state=S')
near "$s" "$truth" && ok "asleep: $s% of the switches ($truth% by /proc)" ||
	fail "asleep: $s% of the switches, $truth% by /proc"

# --- against perf top on the same helper: the same text, the same share ---
if have perf; then
	csw_mark
	sleep 4 | COLUMNS=300 timeout -s INT 3.5 perf top --stdio -d 1 \
		-e sched:sched_switch -p $np 2> pt.err | tr -d '\033' |
		awk '/PerfTop:/ { f++; n[f] = 0; next }
		     f && /^ +[0-9.]+% / { r[f, ++n[f]] = $0 }
		     END { for (k = f; k > 0 && !n[k]; k--) ;
			   for (i = 1; k && i <= n[k]; i++) print r[k, i] }' \
		> pt.rows
	truth=$(asleep_share)
	if [ -s pt.rows ]; then
		# perf cuts its lines at 80 columns: the first 50 of the text
		p=$(head -1 pt.rows | sed 's/^ *[0-9.]*% *//' | cut -c1-50)
		o=$(kt_rows def.out | head -1 | sed 's/^ *[0-9.]*% *[0-9]* *//' |
		    cut -c1-50)
		[ "$p" = "$o" ] && ok "the text perf top shows: '$o'" ||
			fail "text: perf top '$p', kerneltop '$o'"
		# of the rows perf printed: its shares leave out what it did
		# not print (83% of them under load, with /proc's 99.97%)
		ps=$(awk '{ all += $1 }
			  /prev_comm=kt-napper/ && /prev_state=S/ { s += $1 }
			  END { printf "%.2f\n", all ? 100 * s / all : 0 }' pt.rows)
		# two runs apart: each against its own run's truth
		near "$ps" "$truth" &&
			ok "asleep: $ps% in perf top ($truth% by /proc)" ||
			fail "asleep: $ps% in perf top, $truth% by /proc"
	else
		fail "perf top -e sched:sched_switch printed no rows: $(head -2 pt.err)"
	fi
else
	without perf "the comparison with perf top"
fi

# --- fields: by name, by event.name, by sys:event.name -------------------
for key in prev_comm,prev_state sched_switch.prev_comm,prev_state \
	   sched:sched_switch.prev_comm,sched:sched_switch.prev_state; do
	csw_mark
	kt fl -b -n 3 -d 1 -e sched:sched_switch -s $key -p $np
	truth=$(asleep_share)
	r=$(kt_rows fl.out | head -1)
	s=$(kt_rows fl.out | awk '$3 == "kt-napper" && $4 == "S" { print $1 + 0 }')
	kt_header fl.out | grep -Eq 'prev_comm +prev_state' &&
	near "$s" "$truth" &&
		ok "-s $key: kt-napper S, $s% ($truth% by /proc)" ||
		fail "-s $key: header '$(kt_header fl.out)', row '$r'"
done

# --- --raw-trace: the values as recorded (TASK_INTERRUPTIBLE is 1) ------
csw_mark
kt raw -b -n 3 -d 1 -e sched:sched_switch -s prev_comm,prev_state \
	--raw-trace -p $np
s=$(kt_rows raw.out | awk '$3 == "kt-napper" && $4 == "1" { print $1 + 0 }')
truth=$(asleep_share)
near "$s" "$truth" && ok "--raw-trace: prev_state 1, $s% ($truth% by /proc)" ||
	fail "--raw-trace: $(kt_rows raw.out | head -2)"
# alone, --raw-trace sorts by every field (perf's trace_fields)
kt rawdef -b -n 2 -d 1 -e sched:sched_switch --raw-trace -p $np
kt_header rawdef.out | grep -Eq 'prev_comm +prev_pid +prev_prio +prev_state +next_comm +next_pid +next_prio' &&
	kt_rows rawdef.out | head -1 | grep -q " kt-napper  *$np  " &&
	ok "--raw-trace alone: a column per field" ||
	fail "--raw-trace alone: '$(kt_header rawdef.out)' '$(kt_rows rawdef.out | head -1)'"

# --- keys that name nothing ---------------------------------------------
kt bad -b -n 1 -d 0.5 -e sched:sched_switch -s no_such_field -p $np
[ $rc -ne 0 ] && [ "$(wc -l < bad.err)" -eq 1 ] &&
	grep -q "unknown sort key 'no_such_field': no tracepoint sampled" bad.err &&
	ok "an unknown field: one line, exit $rc" ||
	fail "an unknown field: exit $rc: $(cat bad.err)"
kt notp -b -n 1 -d 0.5 -e cpu-clock -s trace -p $np
[ $rc -ne 0 ] && grep -q "sample one" notp.err &&
	ok "-s trace without a tracepoint: exit $rc" ||
	fail "-s trace without a tracepoint: exit $rc: $(cat notp.err)"

done_testing
