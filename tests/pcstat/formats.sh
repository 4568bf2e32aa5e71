#!/bin/sh
# -x and -j parsed strictly, and laid out as perf lays out the same events.
. "$top_srcdir/tests/test-subr.sh"
need perf_event
need python

ev=task-clock,page-faults,context-switches,cycles
"$PCSTAT" -x, -e $ev -- true 2> ours.csv
"$PCSTAT" -x';' -e $ev -- true 2> semi.csv
"$PCSTAT" -j -e $ev -- true 2> ours.json
"$PCSTAT" -r 3 -j -e $ev -- true 2> ours-r.json
"$PCSTAT" -e $ev -- true 2> ours.txt
"$PCSTAT" -e $ev -o out.txt -- true 2> stderr.txt

cat > check.py <<'PY'
import csv, json, sys
keys = ["counter-value", "unit", "event", "event-runtime", "pcnt-running",
        "metric-value", "metric-unit"]
def check_csv(path, sep):
    rows = list(csv.reader(open(path), delimiter=sep))
    assert [r[2] for r in rows] == sys.argv[1].split(","), rows
    for r in rows:
        assert len(r) == 7, r
        if r[0] == "<not supported>":
            assert r[3] == "0" and r[5] == "" and r[6] == "", r
            continue
        float(r[0]); int(r[3]); float(r[4]); float(r[5])
        assert r[1] == ("msec" if r[2] == "task-clock" else ""), r
    assert rows[0][6] == "CPUs utilized", rows[0]
    assert rows[1][6].endswith("/sec"), rows[1]
def check_json(path, extra):
    for line in open(path):
        o = json.loads(line)
        want = keys[:3] + extra + keys[3:]
        assert list(o) == want, (list(o), want)
        assert isinstance(o["counter-value"], str)
        assert isinstance(o["event-runtime"], int)
check_csv("ours.csv", ",")
check_csv("semi.csv", ";")
check_json("ours.json", [])
check_json("ours-r.json", ["variance"])
PY
check "CSV and JSON parse strictly" "$PYTHON3" check.py $ev

grep -q "^ Performance counter stats for 'true':" ours.txt || fail "std header"
grep -q '^ *[0-9.]* seconds time elapsed' ours.txt || fail "std footer"
grep -q '^# started on ' out.txt && grep -q 'page-faults' out.txt ||
	fail "-o FILE does not hold the counts"
[ -s stderr.txt ] && fail "-o FILE still printed to stderr"

# perf's big numbers: the std layout groups thousands as the locale says;
# CSV and JSON stay parseable (C locale) whatever the user's locale is.
mkdir -p loc
if localedef -i en_US -f UTF-8 "$PWD/loc/en_US.UTF-8" >/dev/null 2>&1; then
	LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8 "$PCSTAT" -e page-faults -- \
		"$helpers/touch-pages" 3000 2> big.txt
	grep -Eq '^ +[0-9],[0-9]{3} +page-faults' big.txt ||
		fail "no thousands separator under en_US: $(grep faults big.txt)"
	LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8 "$PCSTAT" -x, -e page-faults -- \
		"$helpers/touch-pages" 3000 2> big.csv
	grep -Eq '^[0-9]{4},,page-faults,' big.csv ||
		fail "CSV under en_US is not plain: $(cat big.csv)"
	if localedef -i de_DE -f UTF-8 "$PWD/loc/de_DE.UTF-8" >/dev/null 2>&1; then
		LOCPATH=$PWD/loc LC_ALL=de_DE.UTF-8 "$PCSTAT" -j -e task-clock \
			-- true 2> de.json
		"$PYTHON3" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' \
			de.json || fail "JSON under de_DE does not parse"
	fi
	ok "locale: grouped std output, plain CSV/JSON"
else
	echo "note: localedef cannot build en_US here; locale checks not run"
fi

# The same layout as perf: numbers masked, byte for byte.
if have_perf; then
	mask() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/K\/sec|M\/sec/\/sec/g'; }
	for f in "" "-x," "-j"; do
		perf stat $f -e $ev -- true 2>&1 | mask > perf.out
		"$PCSTAT" $f -e $ev -- true 2>&1 | mask > ours.out
		if diff -u perf.out ours.out; then ok "layout '$f' as perf"
		else fail "layout '$f' differs from perf"; fi
	done
	perf stat -e $ev -- true 2>&1 | awk '/task-clock|cycles/ { print length($0) }' > perf.len
	"$PCSTAT" -e $ev -- true 2>&1 | awk '/task-clock|cycles/ { print length($0) }' > ours.len
	diff perf.len ours.len || fail "std line widths differ from perf"
else
	without perf "the layout comparisons with perf stat"
fi
done_testing
