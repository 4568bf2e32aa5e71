#!/bin/sh
# The example from sysapi(3) builds and counts what it claims.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

count="$top_builddir/examples/count"
set -- $("$count" page-faults 2000)
check "example counts 2000 fresh pages as ~2000 faults (got $1)" \
	[ "$1" -ge 2000 ] && [ "$1" -le 2010 ]
check "example names the event" [ "$2" = page-faults ]
set -- $("$count" task-clock 10)
check "task-clock positive ($1)" [ "$1" -gt 0 ]
"$count" cycles > out 2> err
rc=$?
if "$helpers/can-perf" && ! grep -q 'not supported' err; then
	check "cycles counted on a PMU machine" [ $rc -eq 0 ]
else
	check "cycles without a PMU: exit 1" [ $rc -eq 1 ]
	check "cycles without a PMU: one-line advice" \
		grep -qx "count: 'cycles' is not supported on this machine (no hardware PMU for it, e.g. a VM); use a software event such as cpu-clock or task-clock" err
fi
"$count" cylces > out 2> err
check "unknown event exits 2" [ $? -eq 2 ]
done_testing
