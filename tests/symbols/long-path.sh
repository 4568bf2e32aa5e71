#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# long-path.sh - a valid program whose path is longer than PATH_MAX (run
# from a deep directory: exec takes a short relative name, the mapping
# keeps the whole path) cannot be opened by that path: monitor -p's
# unresolved line names the cause, ENAMETOOLONG, not "bad ELF".
. "$top_srcdir/tests/test-subr.sh"
need perf_event

seg=$(printf '%0200d' 0)
mkdir deep && cd deep || fail "mkdir"
i=0
while [ $i -lt 22 ]; do
	mkdir $seg && cd $seg || fail "mkdir depth $i"
	i=$((i + 1))
done
[ "$(pwd | wc -c)" -gt 4096 ] || fail "the path is short: $(pwd | wc -c)"
cp "$top_builddir/tests/helpers/spin" ./spin
./spin 600 > /dev/null 2>&1 &
pid=$!
at_exit "kill $pid 2>/dev/null"
"$MONITOR" --summary -p $pid > "$tmpdir/out" 2>&1
rc=$?
cd "$tmpdir"
[ $rc -eq 0 ] || fail "monitor exit $rc: $(sed "s/$seg/D/g" out)"
line=$(grep '^unresolved: .*/spin: ' out | sed "s/$seg/D/g")
case $line in
*"path too long (the file's path is longer than the system allows (PATH_MAX, ENAMETOOLONG)"*)
	ok "the cause named: ${line#*spin: }" ;;
*) fail "spin's unresolved line: '$line' (want 'path too long')" ;;
esac
exit $((nfail > 0))
