# test-subr.sh - sourced by every shell test (elfutils style).
#
# Each test runs in its own temporary directory ($tmpdir, removed on exit),
# with the build's programs found through $top_builddir.  Exit codes follow
# automake: 0 pass, 1 fail, 77 skip (only when the machine lacks what the
# test needs; say why), 99 hard error.
set -u

: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
top_builddir=$(cd "$top_builddir" && pwd)
top_srcdir=$(cd "$top_srcdir" && pwd)
helpers="$top_builddir/tests/helpers"
PCSTAT="$top_builddir/pcstat"
MONITOR="$top_builddir/monitor"
export LC_ALL=C

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/pctools-test.XXXXXX") || exit 99
trap 'rm -rf "$tmpdir"' EXIT
cd "$tmpdir" || exit 99

test_name=$(basename "$0" .sh)
nfail=0

# skip REASON: the machine cannot run this test.
skip() {
	echo "SKIP: $test_name: $*"
	exit 77
}

# fail MESSAGE: record a failure and go on; the test exits 1 at the end.
fail() {
	echo "FAIL: $test_name: $*" >&2
	nfail=$((nfail + 1))
}

# ok MESSAGE: a passing check, for the log.
ok() {
	echo "ok: $*"
}

# check DESCRIPTION COMMAND...: run COMMAND, fail with DESCRIPTION unless 0.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# testrun_compare EXPECTED-FILE COMMAND...: stdout must equal the file.
testrun_compare() {
	local expected=$1
	shift
	"$@" > "$tmpdir/out.actual" 2>&1
	if ! diff -u "$expected" "$tmpdir/out.actual"; then
		fail "output of '$*' differs"
	fi
}

# within A B PCT: |A - B| <= PCT% of B (floats allowed).
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d;
		exit !(d <= (b < 0 ? -b : b) * p / 100.0) }'
}

# need_perf_event: skip unless software perf events can be opened here.
need_perf_event() {
	"$helpers/can-perf" || skip "perf_event_open unusable here (paranoid level or seccomp)"
}

# need_perf: skip unless Debian's perf (the reference tool) runs here.
need_perf() {
	command -v perf >/dev/null 2>&1 || skip "perf (linux-perf) not installed"
	perf stat -e task-clock -x, -- true >/dev/null 2>&1 || skip "perf stat does not run here"
}

# done_testing: end the test with the right status.
done_testing() {
	if [ "$nfail" -ne 0 ]; then
		echo "$test_name: $nfail check(s) failed" >&2
		exit 1
	fi
	exit 0
}
