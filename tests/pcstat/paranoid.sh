#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# paranoid.sh - at each perf_event_paranoid level, what pcstat advises an
# unprivileged user it refuses works: the level named is set, and the
# same command then counts.  -a and -C need 0 (the old advice said 1,
# where it already was at 1); a task's kernel space needs 1 (or 2 and
# ':u').  The level is set for the table's rows under a lock on the
# sysctl's file, and put back whatever happens.
. "$top_srcdir/tests/test-subr.sh"
need perf_event
[ "$(id -u)" = 0 ] || skip "needs root to set perf_event_paranoid and become another user"
need setpriv
sysctl=/proc/sys/kernel/perf_event_paranoid
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }
old=$(cat $sysctl)
exec 9< $sysctl
flock 9 || skip "no lock on $sysctl"
at_exit "echo $old > $sysctl"
echo "$old" > $sysctl 2> /dev/null || skip "cannot write $sysctl"

# LEVEL | ARGS: refused at LEVEL; the advice's level lets it count
while IFS='|' read -r level args; do
	what="paranoid ${level% }: pcstat$args"
	echo $level > $sysctl
	nobody "$PCSTAT" $args -e task-clock -- true > out 2> err
	rc=$?
	fix=$(sed -n "s/.*'sysctl kernel.perf_event_paranoid=\(-\{0,1\}[0-9]*\)'.*/\1/p" err)
	if [ $rc -ne 1 ] || [ "$(wc -l < err)" -ne 1 ] || [ -z "$fix" ] ||
	   ! grep -q "perf_event_paranoid is ${level% }" err; then
		fail "$what: exit $rc, '$(cat err)' (want the level and a fix, one line)"
		continue
	fi
	echo $fix > $sysctl
	nobody "$PCSTAT" $args -e task-clock -- true > out 2> err2
	rc=$?
	[ $rc -eq 0 ] && ok "$what: the advised level $fix works" ||
		fail "$what: at the advised level $fix still exit $rc: $(cat err2) (advice: $(cat err))"
done <<ROWS
1 | -a
2 | -a
3 | -a
1 | -C 0
2 | -C 0
3 | -C 0
3 | -e task-clock:k
ROWS
echo "$old" > $sysctl
exit $((nfail > 0))
