#!/bin/sh
# --openmetrics: every file pcstat writes is one promtool (Prometheus' own
# checker) accepts; it is rewritten whole every interval with totals that
# only grow and add up to the intervals; a write error ends pcstat with
# exit 1 and one line.
. "$top_srcdir/tests/test-subr.sh"
need_perf_event
command -v promtool >/dev/null 2>&1 ||
	skip "promtool not installed (apt-get install prometheus; ./bootstrap does)"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
command -v "$PYTHON3" >/dev/null 2>&1 || skip "python3 needed"

# promcheck FILE WHAT: promtool check metrics accepts FILE.
promcheck() {
	if promtool check metrics < "$1" > promtool.out 2>&1; then
		ok "promtool accepts $2"
	else
		sed 's/^/	/' promtool.out "$1" >&2
		fail "promtool rejects $2"
	fi
}

# 1. The C test's cases: hostile thread names, per CPU, per thread.
mkdir syn
"$top_builddir/tests/pcstat/test-openmetrics" syn > /dev/null ||
	fail "test-openmetrics failed"
for f in syn/*.prom; do
	promcheck "$f" "synthetic $(basename "$f")"
done

# 2. A command with a known answer: the final file's total is the sum of
#    the intervals pcstat printed, and what the helper touched.
"$PCSTAT" -I 100 -x, -o iv.csv -e page-faults,task-clock \
	--openmetrics cmd.prom -- "$helpers/touch-pages" 3000 10
check "pcstat -I --openmetrics with a command exits 0" [ $? -eq 0 ]
promcheck cmd.prom "the file of a command"
total=$(sed -n 's/^pcstat_events_total{event="page-faults"} //p' cmd.prom)
sum=$(awk -F, '$4 == "page-faults" { s += $2 } END { print s + 0 }' iv.csv)
check "page-faults total $total is the sum of the intervals ($sum)" \
	[ "${total:-x}" = "$sum" ]
check "page-faults total $total for 30000 pages" \
	[ "${total:-0}" -ge 30000 ] && [ "${total:-0}" -le 30400 ]
grep -q '^pcstat_clock_seconds_total{event="task-clock"} [0-9]*\.[0-9]\{9\}$' cmd.prom ||
	fail "task-clock not in exact seconds: $(grep task-clock cmd.prom)"
[ "$(tail -n 1 cmd.prom)" = "# EOF" ] || fail "the file does not end with # EOF"

# 3. System-wide, every 100 ms: each version read while pcstat runs is
#    whole and valid, and the enabled time only grows between versions.
# The poller starts first (python may take a while to start on a busy
# machine) and reads until pcstat has ended.
cat > poll.py <<'PY'
import os, sys, time
path, done, out = sys.argv[1:4]
seen = []
open(out + "/ready", "w").close()
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    ended = os.path.exists(done)
    try:
        text = open(path).read()
    except FileNotFoundError:
        text = None
    if text is not None and (not seen or text != seen[-1]):
        seen.append(text)
    if ended:
        break
    time.sleep(0.005)
for i, text in enumerate(seen):
    with open("%s/v%03d.prom" % (out, i), "w") as f:
        f.write(text)
PY
mkdir versions
"$PYTHON3" poll.py sys.prom done versions &
poller=$!
for i in $(seq 200); do [ -e versions/ready ] && break; sleep 0.05; done
rm -f versions/ready
"$PCSTAT" -a -q -I 100 --interval-count 8 -e page-faults,cpu-clock \
	--openmetrics sys.prom
check "pcstat -a -I --openmetrics exits 0" [ $? -eq 0 ]
touch done
wait $poller
n=$(ls versions | wc -l)
check "several versions seen while it ran ($n of 8)" [ "$n" -ge 2 ]
prev=0
for f in versions/*.prom; do
	[ "$(tail -n 1 "$f")" = "# EOF" ] || fail "$f: a partial file was visible"
	promtool check metrics < "$f" > /dev/null 2>&1 || {
		promcheck "$f" "$f"
		continue
	}
	ena=$(sed -n 's/^pcstat_enabled_seconds_total{event="cpu-clock"} //p' "$f")
	awk -v a="$ena" -v b="$prev" 'BEGIN { exit !(a > b) }' ||
		fail "$f: enabled seconds $ena after $prev"
	prev=$ena
done
ok "$n versions whole, valid and growing"
ls -a . | grep -q '^\.sys\.prom\.' && fail "a temporary was left beside the file"

# 4. Per CPU, and per thread of a process with a hostile name.
"$PCSTAT" -a -A -q -I 100 --interval-count 2 -e page-faults,cpu-clock \
	--openmetrics cpu.prom
promcheck cpu.prom "-a -A"
ncpu=$(grep -c '^pcstat_events_total{event="page-faults",cpu="[0-9]*"}' cpu.prom)
check "one page-faults series per online CPU ($ncpu)" \
	[ "$ncpu" -eq "$(getconf _NPROCESSORS_ONLN)" ]
cp "$helpers/spin" 'sp"in\x'
./'sp"in\x' 3000 2 > /dev/null &
spin=$!
wait_exec $spin 'sp"in\x' || fail "spin did not start"
"$PCSTAT" -p $spin --per-thread -q -I 100 --interval-count 2 \
	-e task-clock,page-faults --openmetrics thr.prom
kill $spin 2> /dev/null
wait $spin 2> /dev/null
promcheck thr.prom "--per-thread with a quote and a backslash in the name"
grep -q "thread=\"sp\\\\\"in\\\\\\\\x-$spin\"" thr.prom ||
	fail "thread label not escaped: $(grep -m1 thread= thr.prom)"

# 5. Write errors: exit 1 and one line, before counting and during it.
"$PCSTAT" -I 100 --openmetrics nodir/x.prom -- true 2> err
rc=$?
check "missing directory: exit 1 (got $rc)" [ $rc -eq 1 ]
check "missing directory: one line" \
	[ "$(cat err)" = "pcstat: cannot write 'nodir/x.prom': No such file or directory (the directory does not exist: create it, or name another)" ]
mkdir gone
"$PCSTAT" -q -I 50 -e task-clock --openmetrics gone/x.prom -- \
	sh -c 'echo $$ > child.pid; exec sleep 10' 2> err &
pid=$!
for i in $(seq 200); do [ -e gone/x.prom ] && break; sleep 0.05; done
# (renamed away first: an rm -rf racing pcstat's next temporary file
# in it may leave the directory in place)
mv gone gone.old && rm -rf gone.old
wait $pid
rc=$?
# pcstat leaves the command running, as when it is killed.
kill "$(cat child.pid)" 2> /dev/null
check "directory removed while counting: exit 1 (got $rc)" [ $rc -eq 1 ]
check "directory removed while counting: one line" \
	[ "$(cat err)" = "pcstat: cannot write 'gone/x.prom': No such file or directory (the directory does not exist: create it, or name another)" ]
# A full disk, as RLIMIT_FSIZE (SIGXFSZ ignored) makes every write fail;
# stderr stays a pipe so that the message itself gets out.
cat > fsize.py <<'PY'
import resource, signal, subprocess, sys
def limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
p = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, preexec_fn=limit,
                   restore_signals=False)
sys.stdout.write("%d\n%s" % (p.returncode, p.stderr.decode()))
PY
"$PYTHON3" fsize.py "$PCSTAT" -q -I 50 --interval-count 2 -e task-clock \
	--openmetrics big.prom -- sleep 0.3 > fsize.out
check "write error (EFBIG): exit 1, one line ($(tr '\n' '|' < fsize.out))" \
	[ "$(cat fsize.out)" = "1
pcstat: cannot write 'big.prom': File too large" ]
check "write error: no file, no temporary left" \
	[ -z "$(ls -a | grep 'big\.prom')" ]

# 6. Usage.
"$PCSTAT" --openmetrics u.prom -- true 2> err
check "--openmetrics without -I: exit 2" [ $? -eq 2 ]
"$PCSTAT" -I 100 -e page-faults,page-faults --openmetrics u.prom -- true 2> err
check "the same event twice: exit 2" [ $? -eq 2 ]
grep -q "event 'page-faults' given twice" err || fail "twice: $(cat err)"
done_testing
