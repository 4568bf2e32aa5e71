#!/bin/sh
# pcstat's OpenMetrics file through its real consumer: node_exporter's
# textfile collector, on 127.0.0.1, serves pcstat's counters on /metrics
# with their types and the page faults of a helper that touches a known
# number of pages.  As root, node_exporter runs as nobody, as the packaged
# service runs unprivileged: pcstat's file must be readable to it.
. "$top_srcdir/tests/test-subr.sh"
need_perf_event
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
command -v "$PYTHON3" >/dev/null 2>&1 || skip "python3 needed"
ne=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	skip "prometheus-node-exporter not installed (./bootstrap installs it)"

# node_exporter is stopped by the script that starts it; this is for an
# interrupted test.
trap '[ -s ne.pid ] && kill "$(cat ne.pid)" 2> /dev/null; cd /; rm -rf "$tmpdir"' EXIT

umask 022
mkdir textfile
"$PCSTAT" -I 100 -e page-faults,task-clock \
	--openmetrics textfile/pcstat.prom -- "$helpers/touch-pages" 4000 2> pcstat.err
check "pcstat --openmetrics exits 0" [ $? -eq 0 ]

runas=
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1 &&
   command -v setpriv > /dev/null 2>&1; then
	chmod 755 "$tmpdir"
	runas="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups --"
fi

cat > scrape.py <<'PY'
import os, re, socket, subprocess, sys, time, urllib.request
ne, textdir, runas = sys.argv[1], sys.argv[2], sys.argv[3].split()

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def scrape(port, proc):
    # Until it answers, or exits (its port was taken after all).
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            url = "http://127.0.0.1:%d/metrics" % port
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.read().decode()
        except OSError:
            time.sleep(0.05)
    return None

body = None
log = open("ne.log", "w")
for attempt in range(5):
    port = free_port()
    proc = subprocess.Popen(runas + [ne,
        "--web.listen-address=127.0.0.1:%d" % port,
        "--collector.disable-defaults", "--collector.textfile",
        "--collector.textfile.directory=" + textdir,
        "--web.disable-exporter-metrics"], stdout=log, stderr=log)
    open("ne.pid", "w").write(str(proc.pid))
    try:
        body = scrape(port, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.unlink("ne.pid")
    if body is not None:
        break
if body is None:
    sys.exit("node_exporter never answered on 127.0.0.1 (see ne.log)")
open("metrics.txt", "w").write(body)

fails = []
def value(name, labels=None):
    sel = "" if labels is None else r"\{%s\}" % re.escape(labels)
    m = re.search(r"^%s%s (\S+)$" % (re.escape(name), sel), body, re.M)
    if not m:
        fails.append("no %s{%s}" % (name, labels))
        return None
    return float(m.group(1))
for fam in ("pcstat_events_total", "pcstat_clock_seconds_total",
            "pcstat_enabled_seconds_total", "pcstat_running_seconds_total"):
    if "# TYPE %s counter\n" % fam not in body:
        fails.append("%s is not served as a counter" % fam)
if "# TYPE pcstat_event_supported gauge\n" not in body:
    fails.append("pcstat_event_supported is not served as a gauge")
pf = value("pcstat_events_total", 'event="page-faults"')
if pf is not None and not 4000 <= pf <= 4400:
    fails.append("page-faults %s for 4000 pages" % pf)
tc = value("pcstat_clock_seconds_total", 'event="task-clock"')
if tc is not None and not 0 < tc < 10:
    fails.append("task-clock %s s" % tc)
ena = value("pcstat_enabled_seconds_total", 'event="page-faults"')
run = value("pcstat_running_seconds_total", 'event="page-faults"')
if ena is not None and run is not None and not 0 < run <= ena:
    fails.append("running %s s, enabled %s s" % (run, ena))
if value("node_textfile_scrape_error") not in (0, None):
    fails.append("node_textfile_scrape_error is not 0")
print("page-faults %s, task-clock %s s, enabled %s s, running %s s" %
      (pf, tc, ena, run))
for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
PY
"$PYTHON3" scrape.py "$ne" "$tmpdir/textfile" "$runas" > scrape.out 2>&1
rc=$?
cat scrape.out
check "node_exporter serves pcstat's counters with plausible values" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 20 ne.log >&2
check "node_exporter stopped" [ ! -e ne.pid ]
done_testing
