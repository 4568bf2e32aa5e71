#!/bin/sh
# examples/countset counts a group around a loop with known answers: the
# page faults of the pages it touches, and CPU time between the loop's
# and the whole program's, as getrusage(2) tells it to the shell.  As
# nobody at perf_event_paranoid 2 it counts user space, and says so.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

ex="$top_builddir/examples/countset"
# ms of CPU the program took (bash's times: getrusage of the children)
l0=$(lost_cpu_ms)
bash -c '"$1" "{task-clock,page-faults}" 2000 200 > out 2> err; times' \
	sh "$ex" > times
cpu_ms=$(sed -n 2p times | awk '{ for (i = 1; i <= 2; i++) {
	split($i, t, /[ms]/); s += t[1] * 60 + t[2] } } END { printf "%.0f", s * 1000 }')
l1=$(lost_cpu_ms)
cat out err
tc=$(awk '$2 == "task-clock" { printf "%.0f", $1 / 1e6 }' out)
pf=$(awk '$2 == "page-faults" { print $1 }' out)
check "page-faults: ${pf:-none} for 2000 fresh pages" \
	[ "${pf:-0}" -ge 2000 ] && [ "${pf:-0}" -le 2300 ]
# the loop's 200 ms of process CPU, give or take clock steps; at most
# the program's own CPU time, plus what all CPUs lost to interrupts and
# the hypervisor meanwhile (task-clock counts it, rusage does not), and
# two ticks of rounding
tick=$((1000 / $(getconf CLK_TCK)))
check "task-clock ${tc:-none} ms >= 90% of the 200 ms loop" [ "${tc:-0}" -ge 180 ]
check "task-clock ${tc:-none} ms <= the program's CPU $cpu_ms ms (+ lost $l0..$l1 ms)" \
	awk -v t="${tc:-0}" -v c="$cpu_ms" -v l="$l0" -v m="$l1" -v k="$tick" \
	'BEGIN { exit !(t <= c * 1.02 + (m - l) + 2 * k) }'
check "no notice as root" [ ! -s err ]

"$ex" '{cylces}' > out 2> err
check "an event list it cannot parse exits 2" [ $? -eq 2 ]

if have root && have setpriv &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -eq 2 ]; then
	chmod 755 "$tmpdir"
	cp "$ex" "$tmpdir/countset" && chmod 755 "$tmpdir/countset"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$tmpdir/countset" '{task-clock,page-faults}' 1000 50 > out 2> err
	check "nobody at paranoid 2 counts (rc $?): $(cat err)" [ ! -s err ]
	pf=$(awk '$2 == "page-faults" { print $1 }' out)
	check "... user space's faults: ${pf:-none} for 1000 pages" \
		[ "${pf:-0}" -ge 1000 ] && [ "${pf:-0}" -le 1300 ]
	check "... and says it counted user space only" \
		grep -qx '(user space only: perf_event_paranoid)' out
else
	echo "note: the paranoid 2 fallback as nobody not run (needs root, setpriv and paranoid 2)"
fi
done_testing
