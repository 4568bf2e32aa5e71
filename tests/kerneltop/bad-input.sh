#!/bin/sh
# bad-input.sh - wrong options, targets and terminals: each gives exactly
# one line "kerneltop: <what is wrong> (<fix>)" on stderr and the
# documented status (2 usage, 1 run time), and nothing hangs.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
KT="$KERNELTOP"

# a pid that was a process a moment ago
sh -c 'exit 0' &
dead=$!
wait $dead
kill -0 $dead 2>/dev/null && dead=4194303
spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned

# --kallsyms files that never end (a device, a FIFO: refused) or are
# larger than any kallsyms (sparse: refused by its size)
mkfifo fifo
mkdir kdir
truncate -s 300M huge

# judge WHAT STATUS ERE: $rc and the file err against the expectation:
# STATUS may be "1|2"; ERE must match the one line, which must also have
# the documented "kerneltop: ... (...)" shape.
judge() {
	local what=$1 want=$2 pat=$3 n
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "$what: still running after 20 s"
		return
	fi
	n=$(grep -c '' err)
	case "|$want|" in *"|$rc|"*) ;; *)
		fail "$what: exit $rc (want $want); stderr: $(cat err)"; return ;;
	esac
	if [ "$n" -ne 1 ]; then
		fail "$what: $n lines on stderr (want 1): $(cat err)"
	elif ! grep -Eq -- "^kerneltop: .*($pat)" err; then
		fail "$what: stderr '$(cat err)' does not match '$pat'"
	elif ! grep -Eq '^kerneltop: [^ ].* \(.+\)$' err; then
		fail "$what: '$(cat err)' lacks the '(fix)' part"
	else
		ok "$what: $rc, $(cat err)"
	fi
}

# The table: status @ stderr ERE @ arguments (split by the shell).  Output
# goes to a file, so kerneltop runs in batch mode.
while IFS='@' read -r want pat args; do
	case $want in ''|'#'*) continue ;; esac
	eval "set -- $args"
	timeout -k 5 20 "$KT" "$@" < /dev/null > out 2> err
	rc=$?
	judge "kerneltop $args" "$want" "$pat"
done <<EOF
2@no-such-event@-e no-such-event
2@unknown event 'cylces' \(did you mean 'cycles'\? see 'pcstat list'\)@-e cylces
2@-d@-d 0
2@abc@-d abc
2@-d@-d -1
2@-d@-d 3601
2@-F@-F 0
2@-F@-F abc
2@-c@-c -1
2@-F.*-c|-c.*-F@-F 100 -c 100
2@99@-e cpu-clock -C 99
2@abc@-C abc
2@bogus@--bogus
2@Z@-Z
2@-n|iterations|'n'@-b -n
2@abc@-b -n abc
2@-E|entries@-E abc
2@percent@--percent-limit abc
2@bogus@-s bogus
2@abc@-p abc
1@no process $dead \(has it exited\?\)@-e cpu-clock -p $dead
1@$dead@-e cpu-clock -t $dead
1|2@no-such-user-kt@-e cpu-clock -u no-such-user-kt
2@-p.*-t|-t.*-p@-p 1 -t 1
2@a stack copy of 0 bytes@--call-graph dwarf,0
2@above the kernel.s limit of 65528 bytes@--call-graph dwarf,70000
2@fp,bogus: unknown part .bogus.@--call-graph fp,bogus
2@threshold .200. is not a share from 0 to 100@--call-graph fp,graph,200
2@print limit .2x. is not a number@--call-graph fp,graph,0.5,2x
2@.big. is not a size in bytes@--call-graph dwarf,big
2@--max-stack wants a number of frames@--max-stack abc
2@--max-stack wants a number of frames@--max-stack 0
2@the flame graph to ./no-dir/x.svg: No such file or directory@--flamegraph ./no-dir/x.svg
1@folded stacks to /dev/full: No space left on device@-g -b -n 1 -d 0.2 -e cpu-clock -p $hp --folded /dev/full
2@stray@stray
1@--kallsyms /dev/zero: not a regular file@-e cpu-clock -p $hp --kallsyms /dev/zero
1@--kallsyms /dev/urandom: not a regular file@-e cpu-clock -p $hp --kallsyms /dev/urandom
1@--kallsyms fifo: not a regular file@-e cpu-clock -p $hp --kallsyms fifo
1@--kallsyms kdir: a directory, not a file@-e cpu-clock -p $hp --kallsyms kdir
1@--kallsyms huge: larger than any kallsyms@-e cpu-clock -p $hp --kallsyms huge
EOF
# The dead pid's message, word for word
timeout 20 "$KT" -e cpu-clock -p $dead < /dev/null > out 2> err
grep -qx "kerneltop: no process $dead (has it exited?)" err ||
	fail "dead pid: '$(cat err)' (want 'kerneltop: no process $dead (has it exited?)')"

# stdout closed: exit 1 and a message, in batch and when it would be a TUI
for b in -b ""; do
	timeout 20 "$KT" $b -n 1 -d 0.3 -e cpu-clock -p $hp < /dev/null >&- 2> err
	rc=$?
	judge "kerneltop $b (stdout closed)" 1 ''
done

# --- a kallsyms read that blocks: each stop signal ends it, status 0 --
# A tracefs instance's trace_pipe is a regular file, as /proc's are, whose
# read waits for trace data that never comes: the signal, heard inside
# the read, ends kerneltop as it would later (within 10 s, however
# loaded the machine).
inst=/sys/kernel/tracing/instances/pctools-kt-$$
if have root && have tracefs && mkdir "$inst" 2>/dev/null; then
	at_exit "rmdir $inst"
	for sig in INT TERM HUP; do
		env --default-signal="INT,$sig" "$KT" -b -d 0.2 -e cpu-clock -p $hp \
			--kallsyms "$inst/trace_pipe" < /dev/null > out 2> err &
		kp=$!
		i=0	# its read has begun once the file is open (20 s at most)
		until ls -l /proc/$kp/fd 2>/dev/null | grep -q trace_pipe ||
		      [ $i -ge 200 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill -$sig $kp
		i=0
		# running: not yet a zombie waiting for this shell
		while [ "$(awk '{ print $3 }' /proc/$kp/stat 2>/dev/null)" != Z ] &&
		      [ -e /proc/$kp ] && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1))
		done
		if [ $i -ge 100 ]; then
			kill -KILL $kp; wait $kp
			fail "SIG$sig during the kallsyms read: still running 10 s later"
			continue
		fi
		wait $kp
		rc=$?
		[ $rc -eq 0 ] && ok "SIG$sig during the kallsyms read: exit 0 in $((i / 10)).$((i % 10)) s" ||
			fail "SIG$sig during the kallsyms read: exit $rc: $(cat err)"
	done
else
	without root "the stop signals during a blocking kallsyms read (a tracefs instance)"
fi

# --- on a terminal: TERM unset or unknown; too small from the start ------
if have tmux; then
	# kerneltop's stderr into a file, stdout on the pane's tty
	printf '#!/bin/sh\nexec 2> "%s/$1.err"; shift; exec env "$@"\n' "$tmpdir" > wrap.sh
	# no controlling terminal, stdin not one: no key could reach it
	printf '#!/bin/sh\nexec 2> "%s/$1.err" < /dev/null; shift; exec setsid "$@"\n' "$tmpdir" > nokeys-wrap.sh
	for t in unset unknown empty dumb nokeys; do
		case $t in
		unset) KT_WRAP="sh $tmpdir/wrap.sh $t -u TERM" ;;
		unknown) KT_WRAP="sh $tmpdir/wrap.sh $t TERM=no-such-terminal-kt" ;;
		empty) KT_WRAP="sh $tmpdir/wrap.sh $t TERM=" ;;
		dumb) KT_WRAP="sh $tmpdir/wrap.sh $t TERM=dumb" ;;
		nokeys) KT_WRAP="sh $tmpdir/nokeys-wrap.sh $t" ;;
		esac
		kt_start $t 100 30 -d 0.5 -e cpu-clock -p $hp
		rc=$(kt_wait_exit $t 20)
		rc=${rc:-124}
		cp $t.err err 2>/dev/null || : > err
		case $t in
		unset) judge "TERM unset on a tty" 1 'cannot use the terminal: TERM is unset \(set TERM, e\.g\. TERM=xterm, or use -b\)$' ;;
		unknown) judge "TERM=no-such-terminal-kt on a tty" 1 'cannot use the terminal' ;;
		empty) judge "TERM empty on a tty" 1 'cannot use the terminal: TERM is empty \(' ;;
		# a table redrawn in place needs cursor addressing
		dumb) judge "TERM=dumb on a tty" 1 'cannot use the terminal: TERM=dumb cannot move the cursor \(' ;;
		nokeys) judge "no controlling terminal, stdin /dev/null" 1 'cannot read keys: standard input is not a terminal and there is no controlling terminal \(' ;;
		esac
		[ "$rc" = 124 ] && kill "$(cat $t.pid)" 2>/dev/null
		stty_same $t || fail "TERM $t: stty -a changed"
	done
	KT_WRAP=
	kt_start small 60 7 -d 0.5 -e cpu-clock -p $hp
	if wait_screen small 'terminal too small \(60x7\); need at least 40x8' 5; then
		ok "starting on 60x7: terminal too small"
		grep -q 'Overhead\|samples/s' small.screen && fail "60x7: a table drawn as well: $(cat small.screen)"
	else
		fail "starting on 60x7: $(cat small.screen)"
	fi
	tm resize-window -t small -x 100 -y 30
	wait_screen small '^ *Overhead ' 5 && ok "grown to 100x30: the table" ||
		fail "grown to 100x30: $(head -5 small.screen)"
	keys small q
	rc=$(kt_wait_exit small 10)
	[ "$rc" = 0 ] && stty_same small &&
		ok "q after too small: exit 0, stty unchanged" || fail "q after too small: rc '$rc'"
else
	without tmux "the terminal cases (TERM, too small)"
fi
done_testing
