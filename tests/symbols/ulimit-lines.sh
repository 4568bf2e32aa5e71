#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ulimit-lines.sh - monitor --call-graph dwarf under a tight 'ulimit -v':
# libdw reading a line table near the limit crashed (SIGSEGV as the stack
# could not grow, SIGABRT on an allocation inside its hash tables) in
# 4 runs of 24 between 22 and 44 MB.  Every run now exits without a
# signal: counted (0), or a one-line message that names the limit (1).
. "$top_srcdir/tests/test-subr.sh"
need perf_event
# ASan reserves terabytes of addresses for its shadow: no run of a
# sanitized build fits any of these limits
! sanitized "$MONITOR" || skip "ASan build: ulimit -v leaves no room for its shadow memory"

spin="$top_builddir/tests/helpers/spin"
runs=0 counted=0
for kb in 22000 24000 26000 28000 30000 32000 34000 36000 38000 40000 42000 44000; do
	for i in 1; do
		(ulimit -v $kb && exec "$MONITOR" --call-graph dwarf --summary -- "$spin" 100) > out 2> err
		rc=$?
		# the loader itself may not fit the lowest limits: not monitor's
		grep -q 'error while loading shared libraries' err && continue
		runs=$((runs + 1))
		if [ $rc -ge 128 ]; then
			fail "ulimit -v $kb: killed by signal $((rc - 128)): $(tail -2 err)"
		elif [ $rc -ne 0 ] && ! tail -1 err | grep -q "ulimit -v\|memory"; then
			fail "ulimit -v $kb: exit $rc without a clear message: $(tail -2 err)"
		fi
		[ $rc -eq 0 ] && counted=$((counted + 1))
	done
done
ok "$runs runs under ulimit -v, no signal ($counted counted)"
exit $((nfail > 0))
