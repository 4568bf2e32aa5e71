#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tasks-names.sh - the task table under an awkward name, and a sort it
# cannot do:
#  - a thread named 'ab<newline>cd' (prctl) is listed whole, the newline
#    shown as \x0a, in --tasks and --tasks-raw;
#  - --tasks-sort by a hardware column where the machine counts no
#    hardware event: refused in one line, exit 2 (with a PMU: sorted).
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event
threads="$top_builddir/tests/pcstat/threads"

"$threads" "$(printf 'ab\ncd')" > ids &
pid=$!
at_exit "kill $pid 2>/dev/null"
retry 10 test -s ids || fail "threads did not start"
set -- $(cat ids)
busy=$2

for raw in "" -raw; do
	"$KERNELTOP" --tasks$raw -b -n 2 -d 0.3 -e cpu-clock -p $pid > kt.out 2> kt.err ||
		fail "--tasks$raw: exit $?: $(cat kt.err)"
	# the busy thread's row: its name is the last field
	got=$(awk -v t=$busy '$2 == t { print $NF }' kt.out | sort -u)
	[ "$got" = 'ab\x0acd' ] && ok "--tasks$raw: the name whole, escaped" ||
		fail "--tasks$raw: name '$got' (want ab\\x0acd): $(cat kt.out)"
done

"$KERNELTOP" --tasks -b -n 1 -d 0.3 -e cpu-clock -p $pid > kt.out 2> kt.err
rc=$?
if grep -q '^hardware events not supported here' kt.out; then
	"$KERNELTOP" --tasks --tasks-sort ipc -b -n 1 -d 0.3 -e cpu-clock \
		-p $pid > sort.out 2> sort.err
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < sort.err)" -eq 1 ] &&
		grep -q 'tasks-sort ipc: .*not shown' sort.err &&
		! grep -q '^kerneltop tasks:' sort.out &&
		ok "no PMU: --tasks-sort ipc refused: $(cat sort.err)" ||
		fail "no PMU: --tasks-sort ipc: exit $rc: $(cat sort.err sort.out)"
else
	"$KERNELTOP" --tasks --tasks-sort ipc -b -n 1 -d 0.3 -e cpu-clock \
		-p $pid > sort.out 2> sort.err &&
		grep -q 'by ipc' sort.out && ok "PMU: sorted by ipc" ||
		fail "PMU: --tasks-sort ipc: $(cat sort.err)"
fi
exit $((nfail > 0))
