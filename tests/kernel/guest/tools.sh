#!/bin/busybox sh
# tools.sh - in the patched guest: the project's own library tests and
# tools on the 2008 backend, checked against ground truth and against the
# perf_event_open backend in the same guest.  Prints "PCTEST PASS|FAIL".
# Run by /init when run.sh found a build (PCTOOLS_BUILD).
export LD_LIBRARY_PATH=/lib/pctools
pass() { echo "PCTEST PASS $1"; }
failt() { echo "PCTEST FAIL $1: $2"; }
# expect NAME COND-DESCRIPTION COMMAND...: PASS when COMMAND succeeds.
expect() {
	name=$1 why=$2
	shift 2
	if "$@"; then pass "$name"; else failt "$name" "$why"; fi
}
between() { [ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ]; }

# 1. libsysapi's own suites: the legacy one, and the mainline one on the
#    same kernel (the patch must not disturb perf_event_open).
if [ -x /bin/test-legacy ]; then
	PCTOOLS_BACKEND=legacy /bin/test-legacy > /tmp/tl.out 2>&1
	rc=$?
	expect sysapi-test-legacy "exit $rc: $(grep FAIL /tmp/tl.out | head -3)" [ $rc -eq 0 ]
	sed 's/^/# test-legacy: /' /tmp/tl.out | tail -3
fi
if [ -x /bin/test-count ]; then
	/bin/test-count > /tmp/tc.out 2>&1
	rc=$?
	expect sysapi-test-count-mainline "exit $rc: $(grep FAIL /tmp/tc.out | head -3)" [ $rc -eq 0 ]
fi

# 2. pcstat on the legacy backend: page faults of N pages, CPU time of a
#    spin, and the same figures on perf_event_open.
if [ -x /bin/pcstat ]; then
	# CSV: value,unit,event,...
	csv() { awk -F, -v e="$1" '$3 == e { print int($1) }' "$2"; }
	PCTOOLS_BACKEND=legacy pcstat -x, -e page-faults,task-clock -o /tmp/l.csv -- touch-pages 2000
	rc=$?
	pcstat -x, -e page-faults,task-clock -o /tmp/m.csv -- touch-pages 2000
	lf=$(csv page-faults /tmp/l.csv)
	mf=$(csv page-faults /tmp/m.csv)
	expect pcstat-legacy-runs "exit $rc" [ $rc -eq 0 ]
	expect pcstat-legacy-page-faults "legacy $lf for 2000 pages" between "${lf:-0}" 2000 2300
	d=$(( ${lf:-0} - ${mf:-0} ))
	expect pcstat-legacy-vs-mainline-faults "legacy $lf, perf_event $mf" between "${d#-}" 0 20
	PCTOOLS_BACKEND=legacy pcstat -x, -e task-clock -o /tmp/l2.csv -- spin 300 > /tmp/spin.out
	us=$(cat /tmp/spin.out)
	tc=$(awk -F, '$3 == "task-clock" { print int($1 * 1000) }' /tmp/l2.csv)
	# task-clock is in msec in perf's CSV; the helper prints its rusage in us
	expect pcstat-legacy-task-clock "task-clock ${tc} us vs rusage ${us} us" \
		between "${tc:-0}" $(( ${us:-0} * 95 / 100 )) $(( ${us:-0} * 105 / 100 + 2000 ))
	head -3 /tmp/l.csv | sed 's/^/# pcstat legacy: /'
	# No inherit, no groups on the 2008 call: a group's members count
	# one by one, each notice is one line, and -q silences them.
	pcstat --legacy -x, -e '{page-faults,task-clock}' -o /tmp/g.csv -- touch-pages 1000 2> /tmp/g.err
	gf=$(csv page-faults /tmp/g.csv)
	expect pcstat-legacy-group "page-faults ${gf:-none} for 1000 pages, $(wc -l < /tmp/g.err) notices" \
		sh -c "[ $(wc -l < /tmp/g.err) -eq 2 ] && [ ${gf:-0} -ge 1000 ] && [ ${gf:-0} -le 1300 ]"
	pcstat --legacy -q -e page-faults -- touch-pages 10 2> /tmp/q.err
	expect pcstat-legacy-quiet "-q printed $(head -c 100 /tmp/q.err)" [ ! -s /tmp/q.err ]
fi

# 3. monitor on the legacy backend: the IRQ records, 2008 style and
#    symbolized; hot_spin must top the profile.
if [ -x /bin/monitor ]; then
	monitor --legacy --raw -e cpu-clock -c 1000000 -- spin 300 > /tmp/raw.out 2>/tmp/raw.err
	n=$(grep -c '^IP: 0x[0-9a-f]\{16\}$' /tmp/raw.out)
	expect monitor-legacy-raw "$n 'IP: 0x...' lines ($(head -c 200 /tmp/raw.err))" between "$n" 100 400
	monitor --legacy -e cpu-clock -c 1000000 --summary -- spin 400 > /tmp/sum.out 2>&1
	share=$(awk '$3 == "hot_spin" { sub("%", "", $2); print int($2) }' /tmp/sum.out)
	expect monitor-legacy-hot-spin "hot_spin ${share:-no}% of samples" between "${share:-0}" 70 100
	# Every line of a whole run: under TCG the exec and the dynamic
	# loader take the first ~50 samples, so judge the share, not a prefix.
	monitor --legacy -e cpu-clock -c 1000000 -- spin 400 > /tmp/text.out 2>/dev/null
	pat=' hot_spin+0x[0-9a-f]* .*spin spin.c:[0-9]*$'
	n=$(grep -c "$pat" /tmp/text.out)
	all=$(grep -c '^[0-9]' /tmp/text.out)
	expect monitor-legacy-file-line "$n of $all lines are hot_spin+off spin.c:N" \
		between $(( n * 100 / (all > 0 ? all : 1) )) 70 100
	grep -v "$pat" /tmp/text.out | head -3 | sed 's/^/# other: /' 
	sed 's/^/# monitor legacy: /' /tmp/sum.out | head -4
fi
