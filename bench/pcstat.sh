#!/bin/sh
# bench/pcstat.sh - pcstat against perf stat, side by side in one run.
# Prints ratios pcstat/perf of wall time, CPU time (user+sys) and peak RSS
# for `-- true`, `-r 20 -- true` and a 1-second workload, and the
# workload's own slowdown under counting.  Not a test: numbers vary.
# usage: bench/pcstat.sh [BUILDDIR] [ROUNDS]
#
# pcstat is timed as installed, as perf is: `make install DESTDIR=` into
# a temporary directory, its libsysapi found by the loader through the
# ld.so cache (ldconfig DIR, as root; the cache is rebuilt without it on
# exit), not the build tree's RUNPATH link.  Without root the library is
# found through LD_LIBRARY_PATH, which the command inherits: say so.
set -eu
b=${1:-.}
rounds=${2:-30}
spin="$b/tests/helpers/spin"
rusage="$b/tests/pcstat/rusage"
ev=task-clock,page-faults,context-switches
[ -f "$b/Makefile" ] && [ -x "$rusage" ] ||
	{ echo "no $b/Makefile or $rusage (give a build dir after make check)" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf not installed" >&2; exit 2; }
inst=$(mktemp -d "${TMPDIR:-/tmp}/pcstat-bench.XXXXXX")
cleanup() {
	rm -rf "$inst"
	[ -z "${cached:-}" ] || ldconfig
}
trap cleanup EXIT
trap 'exit 1' INT TERM
make -s -C "$b" install DESTDIR="$inst/root" > "$inst/install.log" 2>&1 ||
	{ cat "$inst/install.log" >&2; exit 2; }
pcstat=$(find "$inst/root" -path '*/bin/pcstat' -type f | head -1)
lib=$(dirname "$(find "$inst/root" -name 'libsysapi.so.0' | head -1)")
if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then
	ldconfig "$lib" && cached=1
	how="ld.so cache"
else
	LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	how="LD_LIBRARY_PATH (not root: the command pays for it too)"
fi
case $(readelf -d "$pcstat" 2>/dev/null) in
*RUNPATH*|*RPATH*) echo "warning: $pcstat has a RUNPATH" >&2 ;;
esac

# measure ROUNDS CMD1 CMD2 (each a \037-separated argv): the medians of
# wall ms, CPU ms and peak RSS KiB of each, run in turn (pairwise) through
# tests/pcstat/rusage, a small parent whose size does not leak into RSS.
measure() {
	python3 - "$rusage" "$@" <<'PY'
import statistics, subprocess, sys
ru, n, cmds = sys.argv[1], int(sys.argv[2]), [c.split("\x1f") for c in sys.argv[3:]]
res = [[] for _ in cmds]
for _ in range(n):
    for i, c in enumerate(cmds):
        out = subprocess.run([ru] + c, capture_output=True, text=True).stdout
        res[i].append([float(x) for x in out.split()])
for r in res:
    print(" ".join("%.3f" % statistics.median(x[k] for x in r) for k in range(3)))
PY
}

row() {	# row NAME ROUNDS ARGS...: pcstat vs perf stat with the same ARGS
	name=$1 n=$2; shift 2
	us=$(printf '%s\037' "$pcstat" "$@"); us=${us%?}
	them=$(printf '%s\037' perf stat "$@"); them=${them%?}
	measure "$n" "$us" "$them" | { read -r w1 c1 r1; read -r w2 c2 r2
	  awk -v n="$name" -v w1="$w1" -v w2="$w2" -v c1="$c1" -v c2="$c2" \
	      -v r1="$r1" -v r2="$r2" 'BEGIN {
		printf "%-22s wall %8.2f/%8.2f ms = %.3f  cpu %7.2f/%7.2f ms = %.3f  rss %6d/%6d KiB = %.3f\n",
		n, w1, w2, w1 / w2, c1, c2, (c2 ? c1 / c2 : 0), r1, r2, r1 / r2 }'; }
}

echo "installed pcstat ($pcstat, libsysapi via $how) / perf stat"
echo "medians of pairwise runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
row "-- true" "$rounds" -e $ev -- true
row "default -- true" "$rounds" -- true
row "-r 20 -- true" 5 -r 20 -e $ev -- true
row "1 s workload" 3 -e $ev -- "$spin" 1000
# The workload's own CPU time (it reports getrusage): counted vs not.
bare=$("$spin" 1000); counted=$("$pcstat" -e $ev -- "$spin" 1000 2>/dev/null)
awk -v a="$counted" -v b="$bare" 'BEGIN {
	printf "workload slowdown under pcstat: %.4f (own CPU %d vs %d us)\n", a / b, a, b }'
