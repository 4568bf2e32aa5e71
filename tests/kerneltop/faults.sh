#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# faults.sh - kerneltop's fault catalogue: how kerneltop fails, one row
# per bad input or fault, {exit status, message pattern, the fault}.
# Read the table as documentation (kerneltop(1), EXIT STATUS, points
# here).  Batch mode: the terminal's own faults are tui.sh's.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event root setpriv tracefs

H="$top_builddir/tests/monitor/mon-helper"
# every run bounded: a hang shows as status 124
kt() { timeout -k 5 60 "$KERNELTOP" "$@"; }

# A JIT whose map names its code with an escape sequence, a BEL and a
# byte that is not UTF-8; a task whose comm holds the same.
spawn_ready "$H" jitbare 600000 || fail "no JIT helper"
set -- $ready
jp=$1
at_exit "rm -f /tmp/perf-$jp.map"
printf '%s 10 ev\033[31mil\377\a\n' "$2" > /tmp/perf-$jp.map
evil=$(printf 'e\033[31m\377\a')
cp "$H" "./$evil"
spawn_ready "./$evil" hot 600000 || fail "no evil comm"
ep=$spawned
# kernel addresses hidden, as kptr_restrict hides them: a private mount
# namespace shows the tool a /proc/kallsyms of zeros
sed 's/^[0-9a-f]*/0000000000000000/' /proc/kallsyms > zero-kallsyms
hidden() { unshare -m sh -c 'mount --bind zero-kallsyms /proc/kallsyms && exec "$@"' sh "$@"; }
kb() { kt -b -d 0.3 -n 2 -F 1000 "$@"; }
plant_links
lone_user
# --pprof, or where this build has none, --speedscope
pp=--pprof
"$MONITOR" --pprof x.pb.gz -n 1 -- true 2>&1 | grep -q "no pprof" && pp=--speedscope

fault_table <<'TABLE'
# status | message (ERE)                                    | fault
# 1. no export is written through a link another user planted in a
# sticky directory, whatever fs.protected_symlinks says (plant_links),
# and a FIFO, which would wait for a reader, is not opened
2 | cannot write folded stacks to .*/x: a symbolic link on the path is another user's, in a sticky directory | untouched 0 'kb --folded $sticky/x'
2 | cannot write folded stacks to .*/x: a symbolic link on the path is another user's | untouched 1 'kb --folded $sticky/x'
2 | cannot write the flame graph to .*/x: a symbolic link on the path is another user's | untouched 0 'kb --flamegraph $sticky/x'
2 | cannot write the [a-z]+ profile to .*/x: a symbolic link on the path is another user's | untouched 0 'kb $pp $sticky/x'
2 | cannot write the speedscope profile to .*/x: a symbolic link on the path is another user's | untouched 0 'kb --speedscope $sticky/x'
2 | cannot write the flame graph to .*/d/passwd: a symbolic link on the path is another user's | untouched 1 'kb --flamegraph $sticky/d/passwd'
2 | cannot write folded stacks to ff: a FIFO or a socket, not a regular file | rm -f ff; mkfifo ff; kb --folded ff
2 | cannot write snapshots of folded stacks to .*/d/: a symbolic link on the path is another user's | untouched 1 'kb --export-every 1 --folded $sticky/d/'
2 | cannot write .*/x: a symbolic link on the path is another user's, in a sticky directory | untouched 0 'kb --openmetrics $sticky/x'
2 | cannot write .*/d/passwd: a symbolic link on the path is another user's | untouched 1 'kb --openmetrics $sticky/d/passwd'
2 | cannot write ff: a FIFO or a socket, not a regular file | rm -f ff; mkfifo ff; kb --openmetrics ff
# two exports that write one file would keep only the last
2 | --folded and --flamegraph write the same file \(F and \./F\) | kb --folded F --flamegraph ./F
2 | --flamegraph and --speedscope write the same file \(F and L\) | ln -sf F L; kb --flamegraph F --speedscope L
2 | --folded and --[a-z]+ write the same file \(G and H\)    | : > G; ln -f G H; kb --folded G $pp H
2 | --folded and --openmetrics write the same file \(F and \./F\) | kb --folded F --openmetrics ./F

# 2. no byte of a target reaches a terminal as a control sequence
0 | ev\\x1b\[31mil\\xff\\x07 +\[jit\]                  | kb -p $jp -s sym,dso | visible
0 | e\\x1b\[31m\\xff                               | kb -p $ep -s comm | visible
0 | e\\x1b\[31m\\xff *$                            | kb -p $ep -s comm | visible
2 | unknown sort key '\\x1b\[2J' \(use sym        | kb -s "$(printf '\033[2J')"

# 3. output that cannot be written is an error
1 | cannot write to standard output: No space left on device   | kb > /dev/full
1 | standard output is closed \(run kerneltop with its output on | kb >&-
1 | ^kerneltop: cannot write /dev/full: No space left on device | kb --openmetrics /dev/full

# 4. numbers and options mean what they say
1 | task 1 belongs to another user \(run kerneltop as its owner or as root\) | setpriv --reuid=65534 --regid=65534 --clear-groups "$KERNELTOP" -b -n 1 -p 1
1 | ^kerneltop: user root's tasks are not yours: sampling another user's tasks needs root or CAP_PERFMON | setpriv --reuid=65534 --regid=65534 --clear-groups "$KERNELTOP" -b -n 1 -u root
2 | 'sched' is a tracepoint system, not an event: .*; see 'pcstat list tracepoint'\)$ | kb -e sched
2 | -d wants a refresh time in seconds from 0.01 to 3600 \(e\.g\. 0\.5\), not '1e-300' | kt -b -n 1 -d 1e-300
2 | -d wants a refresh time .*, not ' 0\.3'               | kt -b -n 1 -d ' 0.3'
2 | -d wants a refresh time .*, not '0x1p-2'               | kt -b -n 1 -d 0x1p-2
2 | --export-every wants seconds from 0\.001 to 1000000, not '0' | kb --export-every 0 --folded .
2 | --openmetrics needs a file name                         | kb --openmetrics ''
2 | cannot write \.: Is a directory \(that is a directory     | kb --openmetrics .
2 | cannot write nodir/x\.prom: No such file or directory \(the directory does not exist | kb --openmetrics nodir/x.prom
2 | --export-keep needs --export-every SECS \(add it, or drop  | kb --export-keep 2 --folded x.folded
2 | --export-every writes to a directory: F is not one \(give  | : > F; kb --export-every 1 --folded F
2 | --export-every needs an export naming a directory \(add    | kb --export-every 1
2 | cannot write snapshots of folded stacks to nodir/: No such file or directory \(create the directory first\) | kb --export-every 1 --folded nodir/
2 | cannot write folded stacks to D: Is a directory \(that is a directory: name a file in it, or add --export-every | mkdir -p D; kb --folded D
2 | --percent-limit wants a share from 0 to 100, not '1e1' | kb --percent-limit 1e1
0 | ^target: .* refresh 0\.01s \(decay\)$               | kt -b -n 1 -d 0.01 -e cpu-clock

# 5. signals: the batch run ends as after -n, status 0
0 | ^kerneltop: [0-9]+ samples/s | stopped HUP - "$KERNELTOP" -b -d 0.3
0 | ^kerneltop: [0-9]+ samples/s | stopped INT - "$KERNELTOP" -b -d 0.3
0 | ^kerneltop: [0-9]+ samples/s | stopped QUIT - "$KERNELTOP" -b -d 0.3
0 | ^kerneltop: [0-9]+ samples/s | stopped USR1 - "$KERNELTOP" -b -d 0.3
0 | ^kerneltop: [0-9]+ samples/s | stopped USR2 - "$KERNELTOP" -b -d 0.3
0 | ^kerneltop: [0-9]+ samples/s | stopped TERM - "$KERNELTOP" -b -d 0.3

# 7. faults that already had a clear answer, kept so
1 | no process 4194303 \(has it exited\?\)                | kb -p 4194303
1 | too many open files: one counter is one file descriptor | ulimit -n 4; kb
0 | \[k\] [^[]+\[kernel\.kallsyms\]                | ulimit -Sn 4; kb
0 | other users' tasks not allowed \(perf_event_paranoid 2\): showing yours | setpriv --reuid=65534 --regid=65534 --clear-groups "$KERNELTOP" -b -n 1 -d 0.3
# the ring's EPERM is the locked-memory limit, not perf_event_paranoid
1 | cannot map the sample buffers: Operation not permitted \(over the locked-memory limit: .*'ulimit -l' \(0 KiB\) beyond it; raise 'ulimit -l' | ulimit -l 0; $lone "$KERNELTOP" -b -n 1 -d 0.3 -p $lone_pid
0 | \[k\] \[unknown\] +\[kernel\]                         | hidden "$KERNELTOP" -b -n 1 -d 0.3 -U
TABLE

# memory limits: not under ASan, which reserves terabytes of addresses
if sanitized "$KERNELTOP"; then
	echo "note: ASan build: the ulimit -v rows are not run"
else
	fault_table <<'TABLE'
1 | \(the address space is limited to 8000 KiB: raise 'ulimit -v'\)$ | ulimit -v 8000; kb
TABLE
fi

done_testing
