#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# faults.sh - pcstat's fault catalogue: how pcstat fails, one row per bad
# input or fault, {exit status, message pattern, the fault}.  Read the
# table as documentation (pcstat(1), EXIT STATUS, points here).
. "$top_srcdir/tests/test-subr.sh"
need perf_event root setpriv python tracefs

nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
# every run bounded: a hang shows as status 124
pcs() { timeout -k 5 60 "$PCSTAT" "$@"; }

# A task whose comm holds an escape sequence, a BEL and a byte that is
# not UTF-8.
evil=$(printf 'e\033[31m\377\a')
cp /bin/sleep "./$evil"
spawn_ready sh -c 'echo ready $$ >&2; exec "$0" 600' "./$evil" || fail "no task"
ep=$spawned
# Programs that cannot run, each for its own reason.
printf '#!/no/such/sh\necho hi\n' > bad.sh
printf '\177ELF junk, not a program' > junk.elf
printf 'echo a shell ran me > ran-by-sh\n' > no-hashbang
chmod +x bad.sh junk.elf no-hashbang
long=$(printf '%0300d' 0 | tr 0 a)
# runs_agree FILE: the header and the footer of a -r run name the same
# number of runs, and no run is shorter than the 0.3 s each whole one takes
runs_agree() {
	h=$(sed -n 's/.*(\([0-9]*\) runs):$/\1/p' "$1")
	f=$(sed -n 's/.* \([0-9.]*\) min.* of the \([0-9]*\) runs$/\2 \1/p' "$1")
	set -- $f
	[ -n "$h" ] && [ "$h" = "${1:-}" ] &&
		awk -v m="${2:-0}" 'BEGIN { exit !(m >= 0.3) }' &&
		echo "runs agree: $h, none cut short"
}
thr() { pcs --per-thread -t $ep -e task-clock --timeout 100 "$@"; }
plant_links
om() { pcs -a -q -I 100 --interval-count 1 -e task-clock --openmetrics "$@"; }

fault_table <<'TABLE'
# status | message (ERE)                                    | fault
# 1. files any local user can plant in /tmp are untrusted: nothing is
# written through a link another user planted in a sticky directory,
# whatever fs.protected_symlinks says (plant_links, untouched)
1 | cannot write '.*/x': a symbolic link on the path is another user's, in a sticky directory | untouched 0 'om $sticky/x'
1 | cannot write '.*/x': a symbolic link on the path is another user's | untouched 1 'om $sticky/x'
1 | cannot write '.*/d/passwd': a symbolic link on the path is another user's | untouched 0 'om $sticky/d/passwd'
2 | cannot write '.*/x': a symbolic link on the path is another user's | untouched 0 'pcs -o $sticky/x -e task-clock -- true'
2 | cannot write '.*/x': a symbolic link on the path is another user's | untouched 1 'pcs -o $sticky/x -e task-clock -- true'
2 | cannot write '.*/x': a symbolic link on the path is another user's | untouched 0 'pcs --append -o $sticky/x -e task-clock -- true'
2 | cannot write '.*/d/passwd': a symbolic link on the path is another user's | untouched 0 'pcs -o $sticky/d/passwd -e task-clock -- true'
# ... nor appended to a file of someone else's there, or with another name
2 | cannot write '.*/h': another user's file, or one with other hard links | ln -f passwd "$sticky/h"; untouched 0 'pcs --append -o $sticky/h -e task-clock -- true'
# where the directory takes no new file, -o writes the file in place
0 | ^# started on                    | mkdir $sticky/ro; : > $sticky/ro/f; chmod 666 $sticky/ro/f; chmod 555 $sticky/ro; $nobody "$PCSTAT" -o $sticky/ro/f -e task-clock -- true 2>/dev/null; head -1 $sticky/ro/f
# two outputs that write one file would keep only the last
2 | -o and --openmetrics write the same file \(om.prom and \./om.prom\) | pcs -a -I 100 --interval-count 1 -e task-clock -o om.prom --openmetrics ./om.prom
2 | -o and --openmetrics write the same file \(om.lnk and om.prom\) | ln -sf om.prom om.lnk; pcs -a -I 100 --interval-count 1 -e task-clock -o om.lnk --openmetrics om.prom
2 | --log-fd and --openmetrics write the same file              | : > om.prom; ln -f om.prom om.hard; pcs -a -I 100 --interval-count 1 -e task-clock --log-fd 3 --openmetrics om.hard 3>> om.prom
# a FIFO would block the write until a reader comes: refused at once,
# and the command is not left behind
1 | cannot write 'om.fifo': a FIFO or a socket, not a regular file \(opening it would wait | ended /bin/sleep pfifo$$ 'rm -f om.fifo; mkfifo om.fifo; pcs -I 100 --openmetrics om.fifo -e task-clock -- ./pfifo$$ 30'
2 | cannot write 'om.fifo': a FIFO or a socket, not a regular file | ended /bin/sleep pofifo$$ 'rm -f om.fifo; mkfifo om.fifo; pcs -I 100 -o om.fifo -e task-clock -- ./pofifo$$ 30'

# 2. no byte of a target reaches a terminal as a control sequence
0 | e\\x1b\[31m\\xff\\x07-[0-9]+                    | thr 2>&1 | visible
0 | ^e\\x1b\[31m\\xff\\x07-[0-9]+,                   | thr -x, 2>&1 | visible
0 | "thread" : "e\\u001b\[31m\\ufffd\\u0007-[0-9]+" | thr -j 2>&1 | json_lines
# ... nor of a command's name or an argument, in the header, the line
# for a command a signal ended, and the messages (one line each)
0 | stats for '\./e\\x1b\[31m\\xff\\x07 0\.01'     | pcs -e task-clock -- "./$evil" 0.01 2>&1 | visible
0 | ^\./k\\x1b\[31m: Terminated$              | printf '#!/bin/sh\nkill $$\n' > "./k$(printf '\033[31m')"; chmod +x ./k*; pcs -e task-clock -- ./k* 2>&1 | visible
2 | ^pcstat: unknown event 'a\\x0ab' \(see 'pcstat list'\)$ | pcs -e "$(printf 'a\nb')" -- true
2 | unknown filter '\\x1b\[31m'                 | pcs list "$(printf '\033[31m')"
127 | ^pcstat: cannot run 'e\\x1b\[31m\\xff': No such | pcs -- "$(printf 'e\033[31m\377')"

# 3. output that cannot be written is an error; nothing goes into a
# descriptor pcstat did not open for output
1 | cannot write to /dev/full: No space left on device | pcs -o /dev/full -e task-clock -- true
1 | cannot write to /dev/full: No space left on device | pcs -I 100 -o /dev/full -e task-clock -- sleep 5
1 | cannot write to /dev/full: No space left on device | ended /bin/sleep pfull$$ 'pcs -I 100 -o /dev/full -e task-clock -- ./pfull$$ 30'
0 | ^pcstat exit 141$  | ended /bin/sleep ppipe$$ '{ pcs -I 100 -x, -o /dev/stdout -e task-clock -- ./ppipe$$ 30; echo "pcstat exit $?" >&2; } | head -1'
0 | cannot write to /dev/stdout: Broken pipe           | ended /bin/sleep pipeign$$ 'trap "" PIPE; pcs -I 100 -x, -o /dev/stdout -e task-clock -- ./pipeign$$ 30 | head -1'
1 | cannot write to standard output: No space left     | pcs list > /dev/full
1 | ^exit 1$                         | said 'pcs -e task-clock -- true 2>/dev/full'
1 | ^exit 1$                         | said 'pcs -e task-clock -- true 2>&-'
0 | ^exit 0$                         | said 'pcs -q -e task-clock -- true 2>&-'
0 | [0-9.]+ +msec task-clock         | pcs -o c.txt -e task-clock -- true 2>&-; cat c.txt
0 | [0-9.]+ +msec task-clock         | pcs -e task-clock -- true 2>&1 <&- >&-
# --openmetrics through a link (as /dev/stdout is one): the target is
# rewritten, the link stays
0 | ^the link kept$                  | ln -sf om.target om.link; pcs -a -q -I 100 --interval-count 1 --openmetrics om.link -e task-clock; test -L om.link && grep -q '^# EOF' om.target && echo the link kept

# 4. numbers and options mean what they say
2 | ^pcstat: -o needs a file name                   | pcs -o '' -e task-clock -- true
2 | --log-fd 0 is open for reading only \(open it for writing: 0>FILE\) | pcs --log-fd 0 -e task-clock -- true
2 | ^pcstat: cannot write '\.': Is a directory \(that is a directory: name a file in it\)$ | pcs -o . -e task-clock -- true
2 | ^pcstat: --openmetrics needs a file name         | pcs -a -I 100 --interval-count 1 --openmetrics '' -e task-clock
1 | ^pcstat: cannot write '\.': Is a directory \(that  | pcs -a -I 100 --interval-count 1 --openmetrics . -e task-clock
0 | \(10 runs\)                                   | pcs -r 010 -e task-clock -- true
0 | ^10$                | pcs -I 10 --interval-count 010 -x, -e task-clock -- sleep 1 2>&1 | grep -c task-clock
2 | -r needs a run count from 1 to 1000000, not '2000000' | pcs -r 2000000 -- true
2 | --interval-count needs a number of intervals from 1 to 2147483647, not '0' | pcs -I 100 --interval-count 0 -- true
2 | --interval-count needs a number of intervals from 1 to 2147483647, not '4294967296' | pcs -I 100 --interval-count 4294967296 -- true
2 | -I needs a number of milliseconds from 10 to 86400000 \(a day\), not '86400001' | pcs -I 86400001 -- true
2 | -D needs a number of milliseconds from 0 to 86400000 \(a day\), not '1e3'   | pcs -D 1e3 -- true
2 | --timeout needs a number of milliseconds from 10 to 86400000 \(a day\), not ' 10' | pcs --timeout ' 10' -- true
2 | 'sched' is a tracepoint system, not an event: name one of its tracepoints as 'sched:NAME' \(its tracepoints are the directories of /.*/events/sched; see 'pcstat list tracepoint'\)$ | pcs -e sched -- true
2 | bad event 'sched:sched_process_exit/period=1/': a tracepoint takes no terms between slashes \(count it as 'sched:sched_process_exit'\) | pcs -e 'sched:sched_process_exit/period=1/' -- true
2 | no access to cgroup .*/\.\./\.\.: No such file or directory \(the cgroups are | pcs -a -e task-clock --for-each-cgroup ../.. -- true
2 | unknown event 'a{300}' \(see 'pcstat list'\)$  | pcs -e $long -- true
0 | ^1$                 | pcs -t $ep,$ep --per-thread -x, -e task-clock --timeout 100 2>&1 | grep -c task-clock
0 | ^1$                 | pcs -p $ep,$ep --per-thread -x, -e task-clock --timeout 100 2>&1 | grep -c task-clock
2 | process 1 belongs to another user \(run pcstat as its owner or as root\)$ | $nobody "$PCSTAT" -p 1
126 | cannot run './bad.sh': bad interpreter '/no/such/sh': No such file or directory | pcs -- ./bad.sh
126 | cannot run './junk.elf': Exec format error \(an ELF file        | pcs -- ./junk.elf
126 | cannot run './no-hashbang': Exec format error \(not a program  | pcs -- ./no-hashbang
0 | ^no shell ran it$ | pcs -- ./no-hashbang; test -e ran-by-sh || echo no shell ran it
127 | cannot run './no-such-program': No such file or directory      | pcs -- ./no-such-program
126 | cannot run '\./': Permission denied \(a directory, not a program\)$ | pcs -- ./
126 | cannot run './text': Permission denied \(not executable: chmod \+x it | echo echo > text; pcs -- ./text
# a name not in $PATH is not run from the current directory (anyone may
# have put a file of that name there), but an empty $PATH entry is it
127 | ^pcstat: cannot run 'planted': No such file or directory$ | printf '#!/bin/sh\n' > planted; chmod +x planted; pcs -- planted
0 | ^dotted ran$ | printf '#!/bin/sh\necho dotted ran\n' > dotted; chmod +x dotted; PATH=/usr/bin:/bin: pcs -e task-clock -- dotted 2>/dev/null

# 5. signals: counts printed, the command sent the signal and waited for
129 | [0-9.]+ +msec task-clock | stopped HUP p$$HUP "$PCSTAT" -e task-clock -- ./p$$HUP 600
130 | [0-9.]+ +msec task-clock | stopped INT p$$INT "$PCSTAT" -e task-clock -- ./p$$INT 600
131 | [0-9.]+ +msec task-clock | stopped QUIT p$$QUIT "$PCSTAT" -e task-clock -- ./p$$QUIT 600
138 | [0-9.]+ +msec task-clock | stopped USR1 p$$USR1 "$PCSTAT" -e task-clock -- ./p$$USR1 600
140 | [0-9.]+ +msec task-clock | stopped USR2 p$$USR2 "$PCSTAT" -e task-clock -- ./p$$USR2 600
143 | [0-9.]+ +msec task-clock | stopped TERM p$$TERM "$PCSTAT" -e task-clock -- ./p$$TERM 600
# a command that ignores the signal: a second one ends it (SIGKILL)
137 | ^sh: Killed$             | stopped_twice TERM pi$$TERM "$PCSTAT" -e task-clock -- sh -c 'trap "" TERM; exec ./pi'$$'TERM 600'
137 | [0-9.]+ +msec task-clock | stopped_twice INT pi$$INT "$PCSTAT" -e task-clock -- sh -c 'trap "" INT; exec ./pi'$$'INT 600'
0 | runs agree: [0-9]+, none cut short | "$PCSTAT" -r 6 -e task-clock -- sh -c 'echo >> started; exec sleep 0.3' 2> runs & p=$!; until [ "$(cat started 2>/dev/null | wc -l)" -ge 3 ]; do sleep 0.05; done; kill -s TERM $p; wait $p; runs_agree runs
0 | counting user space only, as with :u | $nobody "$PCSTAT" -e task-clock -- true
0 | [0-9.]+ +msec task-clock              | $nobody "$PCSTAT" -e task-clock -- true

# 7. faults that already had a clear answer, kept so
2 | no process with id [0-9]+ \(is it still running\?\)  | sh -c 'exit 0' & d=$!; wait $d; pcs -p $d
2 | -p needs process ids, not 'abc'                      | pcs -p abc
2 | ^pcstat: task [0-9]+ has exited \(a zombie: its parent has not reaped it; nothing is left to count\)$ | sh -c 'sleep 0.1 & exec sleep 3' & pcs -p $(zombie_child $!) -e task-clock
127 | cannot run 'no-such-command-x': No such file or directory | pcs -- no-such-command-x
1 | too many open files: one counter is one file descriptor; raise the limit with 'ulimit -n' | ulimit -n 12; pcs -a -e task-clock,page-faults,cpu-clock,minor-faults -- true
1 | perf_event_paranoid is 2 \(unprivileged users may count only user space of their own tasks\) | $nobody "$PCSTAT" -a -- true
1 | cannot start 'true': Too many open files \(raise the limit with 'ulimit -n'\) | ulimit -n 6; pcs -e task-clock -- true
# a soft limit under the hard one is raised for the counters, as perf
# does, and given back to the command
0 | ^ +[0-9.,]+ +minor-faults                           | ulimit -Sn 12; pcs -a -e task-clock,page-faults,cpu-clock,minor-faults -- true
0 | ^soft 37$                                           | ulimit -Sn 37; pcs -e task-clock -- sh -c 'echo soft $(ulimit -Sn)'
0 | ^soft 37$                                           | ulimit -Sn 37; pcs -r 2 -e task-clock -- sh -c 'echo soft $(ulimit -Sn)'
TABLE

# memory and process limits: not under ASan, which reserves terabytes of
# addresses and needs a thread of its own at exit
if sanitized "$PCSTAT"; then
	echo "note: ASan build: the ulimit -v and -u rows are not run"
else
	fault_table <<'TABLE'
1 | cannot start 'true': .* \(no process can be created: the limit of 'ulimit -u' is reached\) | $nobody prlimit --nproc=1 "$PCSTAT" -e task-clock -- true
1 | cannot start 'true': Cannot allocate memory \(no memory for a new process: the address space is limited to 8000 KiB: raise 'ulimit -v'\)$ | ulimit -s 8192; ulimit -v 8000; pcs -e task-clock -- true
0 | [0-9.]+ +msec task-clock                             | ulimit -v 30000; pcs -e task-clock -- true
TABLE
fi

done_testing
