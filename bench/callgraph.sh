#!/bin/sh
# bench/callgraph.sh - call-graph profiling, pctools against perf, side
# by side in one run, on the same workload (tests/monitor/cg-helper-nofp
# work: a fixed amount of work under DEPTH frames, no frame pointers):
#
#  throughput  samples unwound and aggregated per CPU-second of the tool:
#              monitor --call-graph dwarf --folded (unwinds and
#              aggregates live) against perf record --call-graph dwarf
#              plus perf script (or perf report), which unwind afterwards;
#              both attached to the running workload, each tool's own CPU
#  slowdown    the workload's own CPU time while each tool samples it at
#              the same rate and stack size, over its time alone
#  peak RSS    of each tool (perf: the larger of record and script)
#  stack size  the target's slowdown against the size of the stack copy
#              (SIZES, at the last rate), for both tools
#
# Medians of ROUNDS rounds, the tools run in turn within a round.  The
# real binaries are run, not libtool's wrapper scripts.  Not a test:
# numbers vary; the ratios are what to read.
# usage: bench/callgraph.sh [BUILDDIR] [ROUNDS] [RATES] [DEPTH] [SIZES]
# (CG_ROUNDS=N: rounds of the workload; 3000 is about 2 s of CPU here)
set -eu
b=${1:-.}
rounds=${2:-5}
rates=${3:-"1000 4000"}
depth=${4:-40}
sizes=${5:-"2048 8192 32768 65528"}
monitor="$b/monitor"
work="$b/tests/monitor/cg-helper-nofp"
rusage="$b/tests/pcstat/rusage"
[ -x "$monitor" ] && [ -x "$work" ] && [ -x "$rusage" ] ||
	{ echo "no $monitor, $work or $rusage (give a build dir after make check)" >&2; exit 2; }
if [ -x "$b/.libs/monitor" ]; then
	monitor="$b/.libs/monitor"
	LD_LIBRARY_PATH="$b/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
command -v perf >/dev/null || { echo "perf not installed" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cg-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

python3 - "$monitor" "$work" "$rusage" "$tmp" "$rounds" "$depth" "$sizes" $rates <<'PY'
import os, statistics, subprocess, sys, time

monitor, work, rusage, tmp, rounds, depth, sizes = sys.argv[1:8]
rounds, rates = int(rounds), [int(r) for r in sys.argv[8:]]
sizes = [int(x) for x in sizes.split()]
STACK = 8192
N = int(os.environ.get("CG_ROUNDS", "3000"))  # rounds of the workload: 3000 is about 2 s of CPU
env = dict(os.environ, CG_CPU_FILE=os.path.join(tmp, "cpu"))

def ru(cmd):
    """wall ms, CPU ms, peak RSS KiB of cmd, through the small parent"""
    out = subprocess.run([rusage] + cmd, capture_output=True, text=True,
                         env=env).stdout.split()
    return [float(x) for x in out]

def workload_cpu():
    return float(open(env["CG_CPU_FILE"]).read()) / 1e3     # ms

def attached(cmd_of_pid):
    """start the workload, attach cmd to it; the tool's own usage"""
    w = subprocess.Popen([work, "work", str(N), depth], stderr=subprocess.PIPE,
                         env=env, text=True)
    w.stderr.readline()                                 # "ready PID"
    r = ru(cmd_of_pid(w.pid))
    w.wait()
    return r

def folded_samples(path):
    return sum(int(l.rsplit(" ", 1)[1]) for l in open(path))

def perf_samples(data):
    out = subprocess.run(["perf", "script", "-i", data, "-F", "tid"],
                         capture_output=True, text=True).stdout
    return sum(1 for l in out.splitlines() if l.strip())

med = statistics.median
rec = lambda rate, data, stack=STACK: ["perf", "record", "-q",
    "--no-bpf-event", "--call-graph", "dwarf,%d" % stack, "-F", str(rate),
    "-o", data]
mon = lambda rate, folded, stack=STACK: [monitor, "--call-graph",
    "dwarf,%d" % stack, "-F", str(rate), "--summary", "--folded", folded]

print("call graphs by DWARF unwinding, %d-byte stack copies; workload: "
      "cg-helper-nofp work %d %s (%s frames deep); medians of %d rounds"
      % (STACK, N, depth, depth, rounds))
for rate in rates:
    folded, data = os.path.join(tmp, "f"), os.path.join(tmp, "perf.data")
    t = {k: [] for k in ("mon", "rec", "script", "report", "alone",
                         "wmon", "wperf", "rss_mon", "rss_perf", "n_mon",
                         "n_perf")}
    for _ in range(rounds):
        # throughput: each tool attached to a running workload
        w, c, r = attached(lambda pid: mon(rate, folded) + [str(pid)])
        t["mon"].append(c); t["rss_mon"].append(r)
        t["n_mon"].append(folded_samples(folded))
        w, c1, r1 = attached(lambda pid: rec(rate, data) + ["-p", str(pid)])
        w, c2, r2 = ru(["perf", "script", "-i", data])
        w, c3, r3 = ru(["perf", "report", "-i", data, "--stdio",
                        "--no-children"])
        t["rec"].append(c1); t["script"].append(c2); t["report"].append(c3)
        t["rss_perf"].append(max(r1, r2, r3))
        t["n_perf"].append(perf_samples(data))
        # slowdown: the workload's own CPU, alone and sampled
        ru([work, "work", str(N), depth]); t["alone"].append(workload_cpu())
        ru(mon(rate, os.devnull) + ["--", work, "work", str(N), depth])
        t["wmon"].append(workload_cpu())
        ru(rec(rate, data) + ["--", work, "work", str(N), depth])
        t["wperf"].append(workload_cpu())
    m = {k: med(v) for k, v in t.items()}
    ours = m["n_mon"] / (m["mon"] / 1e3)
    theirs_s = m["n_perf"] / ((m["rec"] + m["script"]) / 1e3)
    theirs_r = m["n_perf"] / ((m["rec"] + m["report"]) / 1e3)
    print("\n-F %d Hz" % rate)
    print("  samples         monitor %7d            perf %7d" % (m["n_mon"], m["n_perf"]))
    print("  tool CPU ms     monitor %7.0f            perf record %.0f + script %.0f (report %.0f)"
          % (m["mon"], m["rec"], m["script"], m["report"]))
    print("  samples/CPU-s   monitor %7.0f            perf+script %7.0f  ratio %.1fx"
          % (ours, theirs_s, ours / theirs_s))
    print("                                          perf+report %7.0f  ratio %.1fx"
          % (theirs_r, ours / theirs_r))
    print("  target slowdown monitor %.3f              perf %.3f          ratio %.3f"
          " (workload alone %.0f ms CPU)"
          % (m["wmon"] / m["alone"], m["wperf"] / m["alone"],
             (m["wmon"] / m["alone"]) / (m["wperf"] / m["alone"]), m["alone"]))
    print("  peak RSS KiB    monitor %7.0f            perf %7.0f          ratio %.2f"
          % (m["rss_mon"], m["rss_perf"], m["rss_mon"] / m["rss_perf"]))

# what the copy costs the target: its slowdown by the size copied
rate, data = rates[-1], os.path.join(tmp, "perf.data")
print("\ntarget slowdown by stack copy size, -F %d Hz (workload alone, "
      "sampled by monitor, by perf record)" % rate)
for size in sizes:
    a, wm, wp = [], [], []
    for _ in range(rounds):
        ru([work, "work", str(N), depth]); a.append(workload_cpu())
        ru(mon(rate, os.devnull, size) + ["--", work, "work", str(N), depth])
        wm.append(workload_cpu())
        ru(rec(rate, data, size) + ["--", work, "work", str(N), depth])
        wp.append(workload_cpu())
    print("  %5d bytes     monitor %.3f              perf %.3f          ratio %.3f"
          % (size, med(wm) / med(a), med(wp) / med(a), med(wm) / med(wp)))
PY
