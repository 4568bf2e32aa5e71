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
: "${PYTHON3:=python3}"
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

# Prerequisites, as git's test_have_prereq: what a test needs of the
# machine, each probed once.  `need NAME...` skips the whole test (saying
# why) without it; `have_NAME` guards a part of a test, and `without NAME
# WHAT` says in the log which part was not run, so nothing is skipped
# silently.
#
#	perf_event  perf_event_open usable here (paranoid level, seccomp)
#	perf        Debian's perf, the reference tool, runs here
#	python      python3 ($PYTHON3), for JSON and signals
#	strace      strace, to see which system calls and execs happen
#	binutils    nm, addr2line, objcopy
#	mandoc      mandoc, to lint the man pages
#	setpriv     setpriv (util-linux), to become another user
#	root        running as root
prereq_probe() {
	case $1 in
	perf_event) "$helpers/can-perf" ;;
	perf) command -v perf >/dev/null 2>&1 &&
		perf stat -e task-clock -x, -- true >/dev/null 2>&1 ;;
	python) command -v "$PYTHON3" >/dev/null 2>&1 ;;
	strace) command -v strace >/dev/null 2>&1 ;;
	binutils) command -v nm >/dev/null 2>&1 &&
		command -v addr2line >/dev/null 2>&1 &&
		command -v objcopy >/dev/null 2>&1 ;;
	mandoc) command -v mandoc >/dev/null 2>&1 ;;
	setpriv) command -v setpriv >/dev/null 2>&1 ;;
	root) [ "$(id -u)" -eq 0 ] ;;
	*) echo "test-subr.sh: unknown prerequisite '$1'" >&2; exit 99 ;;
	esac
}

prereq_why() {
	case $1 in
	perf_event) echo "perf_event_open unusable here (paranoid level or seccomp)" ;;
	perf) echo "perf (linux-perf) not installed or perf stat does not run here" ;;
	python) echo "python3 not installed" ;;
	strace) echo "strace not installed" ;;
	binutils) echo "binutils (nm, addr2line, objcopy) missing" ;;
	mandoc) echo "mandoc not installed" ;;
	setpriv) echo "setpriv (util-linux) not installed" ;;
	root) echo "not running as root" ;;
	esac
}

# have NAME: true when the machine has NAME (probed once per test).
have() {
	eval "prereq_got=\${prereq_$1:-}"
	if [ -z "$prereq_got" ]; then
		if prereq_probe "$1"; then prereq_got=yes; else prereq_got=no; fi
		eval "prereq_$1=$prereq_got"
	fi
	[ "$prereq_got" = yes ]
}
have_perf() { have perf; }
have_python() { have python; }
have_strace() { have strace; }

# need NAME...: skip the test unless the machine has each NAME.
need() {
	for prereq in "$@"; do
		have "$prereq" || skip "$(prereq_why "$prereq")"
	done
}

# without NAME WHAT: log that WHAT was not run for want of NAME.
without() {
	echo "note: $(prereq_why "$1"): $2 not run"
}

# done_testing: end the test with the right status.
done_testing() {
	if [ "$nfail" -ne 0 ]; then
		echo "$test_name: $nfail check(s) failed" >&2
		exit 1
	fi
	exit 0
}
