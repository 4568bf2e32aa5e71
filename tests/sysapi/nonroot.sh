#!/bin/sh
# An unprivileged user either counts user space or gets advice that names
# the paranoid level and the fix; never a silent zero.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

[ "$(id -u)" = 0 ] || skip "needs root to become another user"
need setpriv
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)

# A private copy the nobody user can run, wherever the build lives.
chmod 755 "$tmpdir"
cp "$top_builddir/examples/count" "$tmpdir/count"
chmod 755 "$tmpdir/count"
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"
}

as_nobody "$tmpdir/count" page-faults:u 1000 > out 2> err
rc=$?
if [ "$paranoid" -le 2 ]; then
	check "nobody counts its own user-space faults (rc $rc)" [ $rc -eq 0 ]
	n=$(cut -d' ' -f1 out)
	check "nobody's count is right ($n)" [ "${n:-0}" -ge 1000 ] && [ "${n:-0}" -le 1010 ]
fi

as_nobody "$tmpdir/count" page-faults 1000 > out 2> err
rc=$?
if [ "$paranoid" -ge 2 ]; then
	check "kernel counting refused for nobody at paranoid $paranoid (rc $rc)" [ $rc -eq 1 ]
	check "advice names the level" grep -q "perf_event_paranoid is $paranoid" err
	check "advice names the fixes" grep -q "CAP_PERFMON.*sysctl kernel.perf_event_paranoid=1.*':u' modifier" err
	check "advice is one line" [ "$(wc -l < err)" -eq 1 ]
else
	check "nobody counts at paranoid $paranoid" [ $rc -eq 0 ]
fi
done_testing
