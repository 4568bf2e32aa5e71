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
KERNELTOP="$top_builddir/kerneltop"
export LC_ALL=C

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/pctools-test.XXXXXX") || exit 99
# at_exit COMMAND: run the shell COMMAND when the test ends (last added
# first), before $tmpdir is removed: stop helpers, tmux servers.
on_exit=
at_exit() {
	on_exit="$1; $on_exit"
}
trap 'eval "$on_exit"; rm -rf "$tmpdir"' EXIT
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

# lost_cpu_ms: the time all CPUs have lost to interrupts and to the
# hypervisor (irq, softirq and steal of /proc/stat's "cpu" line), in ms.
# task-clock runs on the wall clock while a task is on a CPU; rusage and
# the thread's CPU clock leave this time out (3% of 400 ms seen on a busy
# VM), so a bound between the two needs the difference of two readings.
lost_cpu_ms() {
	awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" {
		print ($7 + $8 + $9) * 1000 / hz; exit }' /proc/stat
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
#	tmux        tmux, to drive a program on a real terminal
#	kerneltop   kerneltop built (configure builds it only with ncursesw)
#	valgrind    valgrind, to watch a program's reads of memory
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
	tmux) command -v tmux >/dev/null 2>&1 ;;
	kerneltop) [ -x "$KERNELTOP" ] ;;
	valgrind) command -v valgrind >/dev/null 2>&1 &&
		valgrind -q --error-exitcode=9 true 2>/dev/null ;;
	# perf mounts tracefs itself when root; so do the tests
	tracefs) [ -d /sys/kernel/tracing/events ] ||
		{ have root && mount -t tracefs nodev /sys/kernel/tracing \
			2> /dev/null; [ -d /sys/kernel/tracing/events ]; } ;;
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
	tmux) echo "tmux not installed" ;;
	kerneltop) echo "kerneltop not built (configure found no ncursesw)" ;;
	valgrind) echo "valgrind not installed" ;;
	tracefs) echo "tracefs not mounted at /sys/kernel/tracing" ;;
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

# spawn_ready CMD...: start CMD in the background and wait (10 s at most)
# for the "ready PID ..." line the test helpers print on stderr.  Sets
# $spawned (its pid) and $ready (the words after "ready"); 1 when none
# came.  The process is killed when the test ends.
spawn_n=0
spawn_ready() {
	local n=0
	spawn_n=$((spawn_n + 1))
	: > "$tmpdir/spawn.$spawn_n"
	"$@" > /dev/null 2> "$tmpdir/spawn.$spawn_n" &
	spawned=$!
	at_exit "kill $spawned 2>/dev/null"
	while ! grep -q '^ready' "$tmpdir/spawn.$spawn_n" && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	ready=$(sed -n 's/^ready //p' "$tmpdir/spawn.$spawn_n" | head -1)
	[ -n "$ready" ]
}

# bg_start NAME CMD...: CMD in the background, its exit status kept;
# bg_wait NAME waits for it and sets $rc to that status.  Independent
# runs of one test go at once this way (most of a run is a wait), each
# read once it is needed.  CMD is a command or a function of the test.
bg_start() {
	local name=$1
	shift
	{ "$@"; echo $? > "$tmpdir/bg.$name.rc"; } &
	eval "bg_pid_$name=\$!"
}
bg_done() { [ -e "$tmpdir/bg.$1.rc" ]; }	# NAME's run has ended
bg_wait() {
	eval "wait \$bg_pid_$1"
	rc=$(cat "$tmpdir/bg.$1.rc" 2> /dev/null || echo 127)
}

# retry SECS CMD...: run CMD every 0.1 s until it succeeds, SECS at most;
# 1 on timeout.  Every "wait until the screen shows" of
# tests/lib-kerneltop.sh is one of these.
retry() {
	local n=0 max=$(($1 * 10))
	shift
	while [ $n -lt $max ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# fault_table < TABLE: walk a fault catalogue (tests/*/faults.sh), one
# row a line: "STATUS | ERE | COMMAND".  COMMAND (shell, eval'd in the
# test's directory, with its stdout and stderr caught) must exit STATUS,
# and a line of its stderr or stdout must match ERE.  Blank lines and
# lines starting with # are skipped.  The table is the documentation of
# how a tool fails: the man pages point to it.
fault_table() {
	local status pat cmd rc
	while IFS='|' read -r status pat cmd; do
		case $status in ''|'#'*) continue ;; esac
		status=$(echo $status)
		pat=$(printf "%s" "$pat" | sed 's/^ *//; s/ *$//')
		( eval "$cmd" ) > fault.out 2> fault.err < /dev/null
		rc=$?
		if [ "$rc" -eq "$status" ] &&
		   cat fault.err fault.out | grep -Eq -- "$pat"; then
			ok "$cmd: $rc, $(grep -Eh -- "$pat" fault.err fault.out | head -1)"
		else
			fail "$cmd: exit $rc (want $status), no line matching '$pat'; stderr: $(head -c 600 fault.err) stdout: $(head -c 300 fault.out)"
		fi
	done
}

# said 'CMD': eval the shell command CMD (with its redirections), then
# print "exit N" on stdout and return N: a fault row's message when the
# tool's own stderr and stdout are closed or full.
said() {
	eval "$1"
	set -- $?
	echo "exit $1"
	return "$1"
}

# ended PROG NAME 'CMD': CMD (a shell command, with its redirections)
# runs a copy of PROG called NAME as the tool's command, and the tool
# fails; the command must not outlive the tool.  Returns CMD's status, or
# 99 with "NAME left running" when a process called NAME still runs.
ended() {
	cp "$1" "./$2"
	eval "$3"
	set -- "$2" $?
	if pgrep -x "$1" > /dev/null; then
		pkill -KILL -x "$1"
		echo "$1 left running"
		return 99
	fi
	return "$2"
}

# plant_links: links that another user planted, for the fault rows.
# $sticky is a sticky directory that anyone may write (as /tmp, but the
# test's own), where user nobody planted two symbolic links: $sticky/x to
# ./passwd, a private copy of /etc/passwd standing for a file of root's,
# and $sticky/d to the test's directory (so that $sticky/d/passwd names
# that file too).  Needs root and setpriv.
plant_links() {
	cp /etc/passwd passwd && cp passwd passwd.orig || exit 99
	sticky=$(mktemp -d /tmp/pctools-sticky.XXXXXX) || exit 99
	at_exit "rm -rf '$sticky'"
	chmod 1777 "$sticky" &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		ln -s "$tmpdir/passwd" "$sticky/x" &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		ln -s "$tmpdir" "$sticky/d" || exit 99
}

# lone_user: $lone, setpriv to a user of the test's own (uid 100000 +
# $$, which no other process has, so that no other test shares its
# perf_event_mlock_kb), and $lone_pid, an mlock-fill of that user that
# holds the whole share: a sampling tool of the user under 'ulimit -l 0'
# finds no room for its rings.  Needs root and setpriv.
lone_user() {
	lone="setpriv --reuid=$((100000 + $$)) --regid=65534 --clear-groups"
	spawn_ready $lone "$helpers/mlock-fill" || fail "mlock-fill did not start"
	lone_pid=$spawned
}

# untouched PSL 'CMD': run the shell command CMD (a tool writing through
# plant_links' links) with fs.protected_symlinks at PSL, 0 or 1, put
# back afterwards (the tests that change it take turns, under a lock on
# the sysctl's file).  Returns CMD's status, or 99 with "passwd written
# through" when ./passwd is no longer the file it was.
untouched() {
	local ino rc
	ino=$(stat -c %i passwd)
	(
		flock 9 || exit 99
		old=$(cat /proc/sys/fs/protected_symlinks)
		echo "$1" 2> /dev/null > /proc/sys/fs/protected_symlinks ||
			echo "note: fs.protected_symlinks stays $old" >&2
		eval "$2"
		rc=$?
		echo "$old" > /proc/sys/fs/protected_symlinks
		exit $rc
	) 9< /proc/sys/fs/protected_symlinks
	rc=$?
	if [ "$(stat -c %i passwd)" != "$ino" ] || ! cmp -s passwd passwd.orig
	then
		echo "passwd written through"
		cp passwd.orig passwd
		return 99
	fi
	return $rc
}

# sig_bit PID FIELD SIG: the bit of signal SIG is set in FIELD (SigCgt,
# SigBlk, ShdPnd...) of /proc/PID/status.
sig_bit() {
	local m
	m=$(sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" 2>/dev/null)
	[ -n "$m" ] && [ $(( (0x$m >> ($(kill -l "$3") - 1)) & 1 )) -eq 1 ]
}

# wait_counting PID [SIG]: until PID holds a perf_event fd and signal SIG
# (default INT) reaches a handler of its own (caught, or blocked where a
# signalfd reads it), 10 s at most; 1 on timeout.  A stop signal sent
# then is the tool's to handle, however slow the machine was to start it.
wait_counting() {
	local n=0
	while [ $n -lt 100 ]; do
		if ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perf_event' &&
		   { sig_bit "$1" SigCgt "${2:-INT}" || sig_bit "$1" SigBlk "${2:-INT}"; }; then
			return 0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# wait_exec PID NAME: until process PID runs the program NAME (its fork
# has exec'd: comm is NAME), 10 s at most; 1 on timeout.
wait_exec() {
	local n=0
	while [ "$(cat "/proc/$1/comm" 2>/dev/null)" != "$2" ]; do
		[ $n -lt 100 ] || return 1
		sleep 0.1
		n=$((n + 1))
	done
}

# zombie_child PID: the pid of a child of PID that has exited and is not
# reaped (state Z), once there is one (10 s at most; 1 without one).
zombie_child() {
	local n=0 c
	while [ $n -lt 100 ]; do
		for c in $(pgrep -P "$1"); do
			if [ "$(sed 's/.*) //; s/ .*//' "/proc/$c/stat" 2>/dev/null)" = Z ]; then
				echo "$c"
				return 0
			fi
		done
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# stopped SIG NAME CMD...: the stop-signal rule (util/stop-signals.h),
# as a fault row.  CMD runs in the background with SIG at its default
# action (a background job of sh ignores SIGINT and SIGQUIT, nohup
# SIGHUP, and the tools keep an ignored stop signal so); once a
# process called NAME runs (the command the tool starts, a copy of
# sleep(1) named NAME; or "-" when the tool starts none, then once the
# tool has written its first output) and the tool handles SIG
# (wait_counting), SIG is sent to the tool alone.  The tool's output
# follows.  Returns the tool's status, or 99 when NAME is still running
# after the tool ended: left behind.
stopped() {
	local sig=$1 name=$2 pid n=0
	shift 2
	[ "$name" = - ] || cp "$(command -v sleep)" "./$name"
	: > stopped.out
	env --default-signal="INT,QUIT,$sig" "$@" > stopped.out &
	pid=$!
	while [ $n -lt 100 ] && if [ "$name" = - ]; then
		[ ! -s stopped.out ]
	else
		! pgrep -x "$name" > /dev/null
	fi; do
		sleep 0.1
		n=$((n + 1))
	done
	wait_counting $pid "$sig"
	kill -s "$sig" $pid
	wait $pid
	set -- $?
	cat stopped.out
	if [ "$name" != - ] && pgrep -x "$name" > /dev/null; then
		kill $(pgrep -x "$name")
		echo "$name left running"
		return 99
	fi
	return "$1"
}

# stopped_twice SIG NAME CMD...: as stopped, for a command that does not
# end on SIG: CMD's command must exec a process called NAME (made here, a
# copy of tests/helpers/hold, which blocks SIG: it stays pending there)
# with SIG ignored.  SIG goes to the tool; once the tool has passed it on
# (pending in NAME) and has not ended for 0.3 s, once more: the second
# ends the command (util/stop-signals.h).  Returns the tool's status; 98
# when the first SIG already ended the tool; 97 when the tool still
# waited 10 s after the second (the command is then killed so that the
# tool ends), or never passed the first on; 99 when NAME is left running.
stopped_twice() {
	local sig=$1 name=$2 pid cmd n=0
	shift 2
	cp "$helpers/hold" "./$name"
	env --default-signal="INT,QUIT,$sig" "$@" &
	pid=$!
	while ! cmd=$(pgrep -x "$name") && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	wait_counting $pid "$sig"
	kill -s "$sig" $pid
	n=0
	while ! sig_bit "$cmd" ShdPnd "$sig" && kill -0 $pid 2>/dev/null &&
	      [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 $pid 2>/dev/null && ! sig_bit "$cmd" ShdPnd "$sig"; then
		pkill -KILL -x "$name"
		wait $pid
		echo "the tool did not pass the first $sig on to its command"
		return 97
	fi
	# (a fixed wait only bounds "the tool does not end")
	sleep 0.3
	if ! kill -0 $pid 2>/dev/null; then
		wait $pid
		echo "the tool ended after one $sig"
		return 98
	fi
	kill -s "$sig" $pid
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		pkill -KILL -x "$name"
		wait $pid
		echo "the tool still waited for its command after a second $sig"
		return 97
	fi
	wait $pid
	set -- $?
	if pgrep -x "$name" > /dev/null; then
		pkill -KILL -x "$name"
		echo "$name left running"
		return 99
	fi
	return "$1"
}

# other_build_id ELF COPY: COPY is ELF with one byte of its build-id
# flipped: another build, whatever the bytes of this one (needs objcopy).
other_build_id() {
	local b
	rm -f "$tmpdir/bid.note"
	objcopy --dump-section .note.gnu.build-id="$tmpdir/bid.note" \
		"$1" "$tmpdir/bid.o" || return 1
	# 16 bytes of note header (namesz, descsz, type, "GNU\0"), then the id
	b=$(od -An -tu1 -j 16 -N 1 "$tmpdir/bid.note" | tr -d ' ')
	[ -n "$b" ] || return 1
	printf "\\$(printf %03o $((b ^ 255)))" |
		dd of="$tmpdir/bid.note" bs=1 seek=16 conv=notrunc 2>/dev/null &&
	objcopy --update-section .note.gnu.build-id="$tmpdir/bid.note" \
		"$1" "$2" &&
	[ "$(readelf -n "$1" | grep 'Build ID')" != \
	  "$(readelf -n "$2" | grep 'Build ID')" ]
}

# sanitized PROGRAM: PROGRAM runs under ASan, whose shadow memory needs
# far more address space than a 'ulimit -v' fault row leaves.
sanitized() {
	ldd "$1" 2>/dev/null | grep -q libasan
}

# visible: a filter for a fault row's pipe: passes its input on, and
# fails when it holds a byte that could act on a terminal (a control
# other than newline and tab) or is not valid UTF-8.
visible() {
	tee visible.in
	LC_ALL=C tr -d '\n\t' < visible.in > visible.ctl
	! LC_ALL=C grep -q '[[:cntrl:]]' visible.ctl &&
		iconv -f UTF-8 -t UTF-8 visible.in > /dev/null 2>&1
}

# json_lines: a filter that passes its input on and fails unless every
# line is JSON that json.loads() takes, read as UTF-8 (strict).
json_lines() {
	tee json.in
	"$PYTHON3" -c '
import json, sys
for line in open("json.in", "rb"):
    if line.strip():
        json.loads(line.decode("utf-8"))' 2> json.err
}

# done_testing: end the test with the right status.
done_testing() {
	if [ "$nfail" -ne 0 ]; then
		echo "$test_name: $nfail check(s) failed" >&2
		exit 1
	fi
	exit 0
}

# spin_in_mntns: tests/helpers/spin run as ./prog in a mount namespace of
# its own, where ./prog is data-code here and tests/helpers/spin.c has
# each line marked "// in the namespace": what a container's target sees
# differs from the file at the same path here.  Sets pid and src (the
# source path); skips where no namespace can be made.
spin_in_mntns() {
	cp "$top_builddir/tests/helpers/data-code" prog
	src="$top_srcdir/tests/helpers/spin.c"
	sed 's|$| // in the namespace|' "$src" > ns.c
	unshare -m sh -c "mount --bind '$top_builddir/tests/helpers/spin' '$PWD/prog' &&
		mount --bind ns.c '$src' && exec '$PWD/prog' 60000" \
		> /dev/null 2> ns.err &
	pid=$!
	at_exit "kill $pid 2> /dev/null"
	retry 10 grep -qx prog /proc/$pid/comm ||
		skip "cannot run a program in a mount namespace of its own: $(cat ns.err)"
}
