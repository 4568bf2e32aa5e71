#!/bin/sh
# Exit status: the command's own, 128+N for a signal, 127 when missing.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

"$PCSTAT" -e task-clock -- sh -c 'exit 3' 2> err
rc=$?; [ $rc -eq 3 ] && ok "exit 3" || fail "exit 3 gave $rc"
grep -q 'task-clock' err || fail "no counts printed for exit 3"
# ... also under -I and when the command ends before --timeout (perf 6.1
# exits 0 under either: a deliberate difference, pcstat.1 EXIT STATUS).
"$PCSTAT" -I 100 -e task-clock -- sh -c 'exit 3' 2> /dev/null
check "-I: the command's exit 3 ($?)" test $? -eq 3
"$PCSTAT" --timeout 60000 -e task-clock -- sh -c 'exit 3' 2> /dev/null
check "--timeout not reached: the command's exit 3 ($?)" test $? -eq 3
"$PCSTAT" -I 100 -e task-clock -- sh -c 'kill -TERM $$' 2> /dev/null
check "-I: SIGTERM gives 143 ($?)" test $? -eq 143

"$PCSTAT" -e task-clock -- sh -c 'kill -SEGV $$' 2> err
rc=$?; [ $rc -eq 139 ] && ok "SIGSEGV gives 139" || fail "SIGSEGV gave $rc"
grep -q 'task-clock' err || fail "no counts printed after SIGSEGV"
# perf stat's psignal() line, before the counts
[ "$(sed -n 1p err)" = "sh: Segmentation fault" ] ||
	fail "no 'sh: Segmentation fault' line first: $(sed -n 1p err)"

"$PCSTAT" -e task-clock -- ./no-such-command-here > out 2> err
rc=$?; [ $rc -eq 127 ] && ok "missing command gives 127" || fail "missing command gave $rc"
[ "$(wc -l < err)" -eq 1 ] && grep -q "cannot run './no-such-command-here'" err ||
	fail "unclear message for a missing command: $(cat err)"

if have_python; then
	# sigint.py CMD...: run CMD, send it SIGINT once it has made the file
	# "ready", exit as it exits.  (From python: a shell's background job
	# ignores SIGINT.  After "ready", not after a fixed time that a loaded
	# machine may need just to start pcstat.)
	cat > sigint.py <<'PY'
import os, signal, subprocess, sys, time
# SIGINT may have been ignored when we started (a non-interactive shell's
# background job); the tools keep an ignored stop signal ignored, so
# give the command the default.
signal.signal(signal.SIGINT, signal.SIG_DFL)
p = subprocess.Popen(sys.argv[1:], stderr=open("err", "w"))
for i in range(600):
    if os.path.exists("ready"):
        break
    time.sleep(0.05)
time.sleep(0.1)
p.send_signal(signal.SIGINT)
sys.exit(p.wait())
PY

	# SIGINT to pcstat goes to the child; the counts so far are printed.
	rm -f ready
	"$PYTHON3" sigint.py "$PCSTAT" -e task-clock -- sh -c ': > ready; exec sleep 5'
	rc=$?; [ $rc -eq 130 ] && ok "SIGINT forwarded: 130" || fail "SIGINT gave $rc"
	grep -q 'task-clock' err || fail "no counts printed after SIGINT"
	grep -q 'seconds time elapsed' err || fail "no footer after SIGINT"

	# With -I, a child that takes its time over SIGINT still ends as it
	# chooses (pcstat used to SIGTERM it at the next tick: 143).
	rm -f ready
	"$PYTHON3" sigint.py "$PCSTAT" -I 50 -e task-clock -- "$PYTHON3" -c '
import signal, sys, time
def bye(*a):
    time.sleep(0.4)
    sys.exit(5)
signal.signal(signal.SIGINT, bye)
open("ready", "w").close()
time.sleep(20)'
	rc=$?; [ $rc -eq 5 ] && ok "-I: SIGINT lets the child exit 5" ||
		fail "-I: SIGINT then child exit 5 gave $rc"
else
	without python "the SIGINT cases (python starts pcstat outside a job)"
fi
# The command starts with the signal state of a command the shell starts:
# nothing blocked that pcstat blocks for its signalfd, nothing ignored
# that was not (it is vfork()ed from a helper thread that blocks all).
grep -E '^Sig(Blk|Ign)' /proc/self/status > want
"$PCSTAT" -e task-clock -- grep -E '^Sig(Blk|Ign)' /proc/self/status > got 2> /dev/null
check "the command's blocked and ignored signals are the shell's" cmp -s want got
"$MONITOR" -F 100 -- grep -E '^Sig(Blk|Ign)' /proc/self/status > mgot 2> /dev/null
check "monitor's command too ($(head -1 mgot))" cmp -s want mgot
# pcstat dying between starting the command and letting it exec (here: a
# --control fifo that does not exist) leaves no held child behind.  (One
# that is left blocks every signal but SIGKILL: the test removes it.)
at_exit 'for p in $(pgrep -f "held-$$"); do kill -9 "$p"; done'
"$PCSTAT" -e task-clock --control fifo:no-such-dir/ctl -- true held-$$ 2> /dev/null
check "a refused --control: exit 2 ($?)" test $? -eq 2
none_held() { ! pgrep -f "held-$$" > /dev/null; }
check "no held child left when pcstat dies before the exec" retry 10 none_held
done_testing
