#!/bin/sh
# per-cpu.sh - -a -A counts each CPU's events on that CPU: a workload
# pinned to one CPU (taskset) that faults a known number of pages shows
# them on its CPU, not on the others, as perf stat -a -A shows them on
# the same command.  (perf stat's command runs where perf's walk of the
# CPUs left it, pcstat's where pcstat runs: unpinned, the split of a
# command's own faults between CPUs differs between the two, and is no
# measure of either.)
. "$top_srcdir/tests/test-subr.sh"
need perf_event
command -v taskset > /dev/null || skip "taskset (util-linux) not installed"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "one CPU: nothing to attribute"

T="$top_builddir/tests/helpers/touch-pages"
# 25000 fresh pages 8 times: 200,000 faults in a few tenths of a second,
# against a few thousand a second from the rest of a busy machine
known=200000

# faults_on FILE CPU: the page-faults of CPUn in a -A -x, report
faults_on() {
	awk -F, -v c="CPU$2" '$1 == c && $4 == "page-faults" { print $2 }' "$1"
}
for cpu in 0 1; do
	other=$((1 - cpu))
	"$PCSTAT" -a -A -x, -e cpu-clock,page-faults -- \
		taskset -c $cpu "$T" 25000 8 2> pc$cpu.csv
	on=$(faults_on pc$cpu.csv $cpu) off=$(faults_on pc$cpu.csv $other)
	# All of the workload's faults on its CPU, with what else ran there
	# meanwhile (other tests: tens of thousands, on either CPU); the
	# other CPU only the rest of the machine's.
	if [ -n "$on" ] && [ -n "$off" ] && [ "$on" -ge $known ] &&
	   [ "$off" -lt "$on" ]; then
		ok "pinned to CPU$cpu: CPU$cpu $on, CPU$other $off page-faults"
	else
		fail "pinned to CPU$cpu: CPU$cpu '$on', CPU$other '$off' (want >= $known, and more than CPU$other): $(cat pc$cpu.csv)"
	fi
	if have_perf; then
		perf stat -a -A -x, -e cpu-clock,page-faults -o pf$cpu.csv -- \
			taskset -c $cpu "$T" 25000 8
		pon=$(faults_on pf$cpu.csv $cpu) poff=$(faults_on pf$cpu.csv $other)
		[ -n "$pon" ] && [ "$pon" -ge $known ] && [ "$poff" -lt "$pon" ] &&
			ok "perf agrees: CPU$cpu $pon, CPU$other $poff" ||
			fail "perf: CPU$cpu '$pon', CPU$other '$poff'"
	fi
done
done_testing
