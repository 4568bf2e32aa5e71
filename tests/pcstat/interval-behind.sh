#!/bin/sh
# interval-behind.sh - pcstat -I behind its intervals (its output read
# slowly: each interval's write waits for the reader) still ends on a
# stop signal.  It read the signals only while waiting for the next
# interval, which never came: it ran on until its command ended.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

# The bound for the end, measured with the reader below on a busy
# 2-core VM: 0.4-1.5 s (a write waits for the reader to take some lines).
END_BOUND=15

for sig in INT TERM; do
	rm -f slow
	mkfifo slow
	# a reader that takes a line every 50 ms: pcstat writes 100
	# intervals a second, so the pipe fills within seconds, stays full
	( while IFS= read -r l; do sleep 0.05; done < slow; ) &
	at_exit "kill $! 2>/dev/null"
	cp "$(command -v sleep)" "./ib$$$sig"
	env --default-signal=INT "$PCSTAT" -I 10 \
		-e task-clock,page-faults,context-switches,cpu-migrations \
		-- "./ib$$$sig" 120 2> slow &
	pp=$!
	# ready: pcstat is waiting for the reader, behind its intervals
	blocked() { grep -q pipe_write /proc/$pp/wchan 2>/dev/null; }
	if ! retry 30 blocked; then
		fail "SIG$sig: pcstat never waited on its output ($(cat /proc/$pp/wchan 2>&1))"
	fi
	kill -s $sig $pp
	n=0
	while kill -0 $pp 2>/dev/null && [ $n -lt $((END_BOUND * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 $pp 2>/dev/null; then
		fail "SIG$sig: pcstat -I still running $END_BOUND s after the signal"
		kill -KILL $pp
		pkill -KILL -x "ib$$$sig"
	else
		wait $pp
		rc=$?
		# the command's status: the signal, passed on, killed it
		want=$((128 + $(kill -l $sig)))
		[ $rc -eq $want ] && ok "SIG$sig: pcstat -I behind ended in $((n / 10)).$((n % 10)) s, exit $rc" ||
			fail "SIG$sig: exit $rc (want $want)"
		! pgrep -x "ib$$$sig" > /dev/null || {
			fail "SIG$sig: its command left running"
			pkill -KILL -x "ib$$$sig"
		}
	fi
done
done_testing
