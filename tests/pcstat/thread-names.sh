#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# thread-names.sh - --per-thread under a name that is no plain word: a
# thread named 'ab<newline>cd,e"f' (prctl) is shown whole, its newline
# escaped, in -x, (one field, quoted as RFC 4180 wants: Python's csv
# module reads it back), in -x';' (the comma needs no quotes there, the
# double quote does) and in -j (JSON gives the name back byte for byte).
. "$top_srcdir/tests/test-subr.sh"
need perf_event
need python
threads="$top_builddir/tests/pcstat/threads"

name=$(printf 'ab\ncd,e"f')
"$threads" "$name" > ids &
pid=$!
at_exit "kill $pid 2>/dev/null"
retry 10 test -s ids || fail "threads did not start"
set -- $(cat ids)
busy=$2

"$PCSTAT" -t $busy --per-thread -x, -e task-clock --timeout 100 2> comma.csv
"$PCSTAT" -t $busy --per-thread -x';' -e task-clock --timeout 100 2> semi.csv
"$PCSTAT" -t $busy --per-thread -j -e task-clock --timeout 100 2> out.json

cat > check.py <<'PY'
import csv, json, sys
tid = sys.argv[1]
shown = 'ab\\x0acd,e"f-' + tid    # as a person sees it: the newline escaped
for path, sep in (("comma.csv", ","), ("semi.csv", ";")):
    lines = open(path).read().splitlines()
    assert len(lines) == 1, (path, lines)
    row = next(csv.reader(lines, delimiter=sep))
    assert len(row) == 8, (path, row)
    assert row[0] == shown, (path, row[0], shown)
    assert row[3] == "task-clock", (path, row)
    # quoted only where the format needs it
    assert lines[0].startswith('"') or sep == ",", (path, lines[0])
obj = json.loads(open("out.json").read())
assert obj["thread"] == 'ab\ncd,e"f-' + tid, obj["thread"]
print("ok")
PY
out=$(python3 check.py $busy 2>&1)
[ "$out" = ok ] && ok "the name whole in -x, -x';' and -j" ||
	fail "$out: $(cat comma.csv semi.csv out.json)"
exit $((nfail > 0))
