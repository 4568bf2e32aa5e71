#!/bin/sh
# formats.sh - --raw prints the 2008 lines, --json valid objects, -n stops.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

H="$top_builddir/tests/monitor/mon-helper"

"$MONITOR" --raw -n 20 -F 1000 -- "$H" hot 300 > raw 2>/dev/null
n=$(wc -l < raw)
[ "$n" -eq 20 ] && ! grep -qv '^IP: 0x[0-9a-f]\{16\}$' raw &&
	ok "--raw -n 20: 20 'IP: 0x%016llx' lines" || fail "--raw: $n lines, $(head -2 raw)"

"$MONITOR" --json -n 50 -F 1000 -- "$H" hot 300 > json 2>/dev/null
n=$(wc -l < json)
[ "$n" -eq 50 ] || fail "--json -n 50 gave $n lines"
if have_python; then
	"$PYTHON3" - json <<'PY' && ok "--json: $n valid objects" || fail "--json invalid"
import json, sys
keys = {"time", "pid", "tid", "cpu", "event", "ip", "kernel", "sym", "off",
        "dso", "dso_off", "file", "line", "cause", "inlined"}
hot = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert set(o) == keys, set(o) ^ keys
    assert o["event"] == "cpu-clock", o["event"]
    hot += o["sym"] == "hot_spin" and o["file"].endswith("mon-helper.c")
assert hot > 0
PY
else
	without python "the JSON validity check"
fi

# text: seven fields on a resolved user sample
"$MONITOR" -u -n 30 -F 1000 -- "$H" hot 300 > text 2>/dev/null
awk '$5 ~ /^hot_spin\+0x/ && NF == 7 &&
     $1 ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ &&
     $4 ~ /^0x[0-9a-f]+$/ && length($4) == 18 &&
     $7 ~ /^mon-helper.c:[0-9]+$/ { ok++ }
     END { exit ok < 1 }' text && ok "text lines: time tid cpu ip sym+off dso file:line" ||
	fail "text: $(head -2 text)"
# piped to head: monitor ends with head (SIGPIPE, 141, or 0 when its
# caller ignores SIGPIPE), quietly, long before the 20 s target does
start=$(date +%s)
( "$MONITOR" -F 1000 -- "$H" hot 20000 2> pipe.err; echo $? > pipe.rc ) |
	head -1 > /dev/null
# the helper runs on alone, as after -n: stop it by the pid it printed
hp=$(sed -n 's/^ready \([0-9]*\)$/\1/p' pipe.err)
[ -n "$hp" ] && kill -KILL "$hp" 2>/dev/null
rc=$(cat pipe.rc); took=$(( $(date +%s) - start ))
{ [ "$rc" -eq 141 ] || [ "$rc" -eq 0 ]; } && [ "$took" -lt 15 ] &&
	! grep -v -e 'sampling cpu-clock' -e '^ready ' pipe.err | grep -q . &&
	ok "| head -1: status $rc after ${took}s, nothing on stderr" ||
	fail "| head -1: status $rc after ${took}s: $(cat pipe.err)"

done_testing
