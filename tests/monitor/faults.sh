#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# faults.sh - monitor's fault catalogue: how monitor fails, one row per
# bad input or fault, {exit status, message pattern, the fault}.  Read the
# table as documentation (monitor(1), DIAGNOSTICS, points here).
. "$top_srcdir/tests/test-subr.sh"
need perf_event root setpriv tracefs

H="$top_builddir/tests/monitor/mon-helper"
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
# a user of this test's own for the rows about the locked-memory
# allowance, which is per user: other tests sample as nobody meanwhile
loner="setpriv --reuid=65533 --regid=65533 --clear-groups"
# every run bounded: a hang shows as status 124
mon() { timeout -k 5 60 "$MONITOR" "$@"; }

# A JIT without its map: the test writes, or plants, /tmp/perf-PID.map.
spawn_ready "$H" jitbare 600000 || fail "no JIT helper"
set -- $ready
jp=$1 jaddr=$2
map=/tmp/perf-$jp.map
at_exit "rm -rf $map"
# a second one, run by nobody
spawn_ready $nobody "$H" jitbare 600000 || fail "no JIT helper as nobody"
set -- $ready
np=$1 naddr=$2
at_exit "rm -rf /tmp/perf-$np.map"

# plant KIND: what anyone may have put at $map before the JIT wrote it
plant() {
	rm -rf "$map"
	case $1 in
	fifo) mkfifo "$map" ;;
	zero) ln -s /dev/zero "$map" ;;
	dir) mkdir "$map" ;;
	nobody) echo "$jaddr 10 planted_by_nobody" > "$map"
		chown 65534:65534 "$map" ;;
	long) { printf '%s 10 ' "$jaddr"
		head -c 5000 /dev/zero | tr '\0' x; echo; } > "$map" ;;
	good) echo "$jaddr 10 jitted_spin" > "$map" ;;
	evil) printf '%s 10 ev\033[31mil\377\a\n' "$jaddr" > "$map" ;;
	esac
	chmod a+r "$map" 2>/dev/null
	return 0
}
# A command whose name holds an escape sequence, a BEL and a byte that
# is not UTF-8.
evil=$(printf 'e\033[31m\377\a')
cp "$H" "./$evil"
# Programs that cannot run, each for its own reason.
printf '#!/no/such/sh\necho hi\n' > bad.sh
printf '\177ELF junk, not a program' > junk.elf
printf 'echo a shell ran me > ran-by-sh\n' > no-hashbang
chmod +x bad.sh junk.elf no-hashbang
# -d files that cannot stand for the helper
echo text > text.txt
head -c 3000 "$H" > trunc.elf
other_build_id "$H" other.elf || fail "cannot make other.elf"
# kernel addresses hidden, as kptr_restrict hides them: a private mount
# namespace shows the tool a /proc/kallsyms of zeros
sed 's/^[0-9a-f]*/0000000000000000/' /proc/kallsyms > zero-kallsyms
hidden() { unshare -m sh -c 'mount --bind zero-kallsyms /proc/kallsyms && exec "$@"' sh "$@"; }
jit() { mon -u -F 2000 -n 40 --summary "$jp"; }
plant_links
# --pprof, or where this build has none, --speedscope
pp=--pprof
"$MONITOR" --pprof x.pb.gz -n 1 -- true 2>&1 | grep -q "no pprof" && pp=--speedscope
mg() { mon -g -n 5 -F 1000 "$@" -- "$H" hot 1000; }
lone_user

fault_table <<'TABLE'
# status | message (ERE)                                    | fault
# 1. files any local user can plant in /tmp are untrusted
0 | jitted_spin +\[jit\]                                    | plant good; jit
0 | [0-9]+ in \[jit\]: JIT map not a regular file          | plant fifo; jit
0 | [0-9]+ in \[jit\]: JIT map not a regular file          | plant zero; jit
0 | [0-9]+ in \[jit\]: JIT map is a directory              | plant dir; jit
0 | [0-9]+ in \[jit\]: JIT map not trusted                 | plant nobody; jit
0 | [0-9]+ in \[jit\]: map line too long                   | plant long; jit
0 | jitted_spin +\[jit\]  | echo "$naddr 10 jitted_spin" > /tmp/perf-$np.map; chown 65534 /tmp/perf-$np.map; mon -u -F 2000 -n 40 --summary $np
# ... and no export is written through a link another user planted in a
# sticky directory, whatever fs.protected_symlinks says (plant_links)
2 | cannot write folded stacks to .*/x: a symbolic link on the path is another user's, in a sticky directory | untouched 0 'mg --folded $sticky/x'
2 | cannot write the flame graph to .*/x: a symbolic link on the path is another user's | untouched 0 'mg --flamegraph $sticky/x'
2 | cannot write the flame graph to .*/x: a symbolic link on the path is another user's | untouched 1 'mg --flamegraph $sticky/x'
2 | cannot write the [a-z]+ profile to .*/x: a symbolic link on the path is another user's | untouched 0 'mg $pp $sticky/x'
2 | cannot write the speedscope profile to .*/x: a symbolic link on the path is another user's | untouched 0 'mg --speedscope $sticky/x'
2 | cannot write folded stacks to .*/d/passwd: a symbolic link on the path is another user's | untouched 0 'mg --folded $sticky/d/passwd'
2 | cannot write snapshots of folded stacks to .*/d/: a symbolic link on the path is another user's | untouched 0 'mg --export-every 1 --folded $sticky/d/'
# ... nor is a FIFO opened, which would wait for a reader
2 | cannot write folded stacks to ff: a FIFO or a socket, not a regular file \(opening it would wait | ended "$H" mfifo$$ 'rm -f ff; mkfifo ff; mon -g --folded ff -- ./mfifo$$ hot 30000'

# 2. no byte of a target reaches a terminal as a control sequence
0 | ev\\x1b\[31mil\\xff\\x07 +\[jit\]            | plant evil; jit | visible
0 | ev\\x1b\[31mil\\xff\\x07\+0x[0-9a-f]+ +\[jit\] | plant evil; mon -u -F 2000 -n 40 $jp 2>&1 | visible
0 | "sym":"ev\\u001b\[31mil\\ufffd\\u0007"       | plant evil; mon -u -F 2000 -n 40 --json $jp | json_lines
# ... nor of a command's name, in the summary and the messages
0 | on \./e\\x1b\[31m\\xff\\x07 \(pid [0-9]+\)   | mon -n 2 -- "./$evil" hot 1000 2>&1 >/dev/null | visible
1 | cannot run 'x\\x1b\]2;pwn\\x07': no such command | mon -- "$(printf 'x\033]2;pwn\007')"

# 3. output that cannot be written is an error
1 | cannot write to standard output: No space left on device | mon -n 5 -F 1000 -- "$H" hot 2000 > /dev/full
1 | cannot write to standard output: No space left on device | mon --summary -n 5 -F 1000 -- "$H" hot 2000 > /dev/full
1 | standard output is closed \(the samples would be lost: give it a file or a pipe\)     | mon -n 5 -- "$H" hot 2000 >&-
1 | ^exit 1$                          | said 'mon -n 5 -F 1000 -- "$H" hot 2000 2>/dev/full > /dev/null'
1 | ^exit 1$                          | said 'mon -n 5 -F 1000 -- "$H" hot 2000 2>&- > /dev/null'
0 | ^exit 0$                          | said 'mon --summary -n 5 -F 1000 -- "$H" hot 2000 2>&- > /dev/null'
1 | cannot write to standard output: No space left on device | ended "$H" mfull$$ 'mon -F 20000 -- ./mfull$$ hot 30000 > /dev/full'
0 | ^monitor exit 141$                | ended "$H" mpipe$$ '{ mon -F 1000 -- ./mpipe$$ hot 30000; echo "monitor exit $?" >&2; } | head -1'
0 | ^exit 0$                          | ended "$H" mpign$$ 'trap "" PIPE; { mon -F 20000 -- ./mpign$$ hot 30000; echo "exit $?" > rc; } | head -1 > /dev/null; cat rc'
# -n: the samples are taken, the command is ended, not left running
0 | 5 samples taken \(-n\): ended \./mn[0-9]+ \(pid [0-9]+\)$ | ended "$H" mn$$ 'mon -n 5 -F 1000 -- ./mn$$ hot 30000 > /dev/null'
# an export path that is a link (as /dev/stdout is, to /proc/self/fd/1):
# its target gets the stacks, the link stays (root would replace
# /dev/stdout itself with a file).  100 samples, not 5: on a loaded VM
# the start of the process (ld.so, the host's stalls counted as its CPU
# time) took all of the first 5 (no hot_spin at load 5-8)
0 | ^the link kept$                   | ln -sf /proc/self/fd/1 fd1; mon -g --summary -n 100 -F 1000 --folded fd1 -- "$H" hot 1000 > folded.out; test -L fd1 && grep -q hot_spin folded.out && echo the link kept

# 4. numbers and options mean what they say
2 | cannot write folded stacks to '': give a file name | mon --folded '' -g -n 2 -- "$H" hot 100
# two exports that write one file would keep only the last
2 | --folded and --flamegraph write the same file \(F and \./F\) | mg --folded F --flamegraph ./F
2 | --flamegraph and --[a-z]+ write the same file \(F and L\) | ln -sf F L; mg --flamegraph F $pp L
2 | --folded and --speedscope write the same file \(G and H\)  | : > G; ln -f G H; mg --folded G --speedscope H
0 | ^monitor: 5 samples of                                     | mg --summary --folded /dev/null --flamegraph /dev/null
# --export-every: seconds > 0, exports naming directories that exist
2 | --export-every wants seconds from 0\.001 to 1000000, not '0' | mg --export-every 0 --folded .
2 | --export-every wants seconds .*, not '-1'                 | mg --export-every -1 --folded .
2 | --export-keep needs --export-every SECS \(add it, or drop  | mg --export-keep 2 --folded x.folded
2 | --export-keep wants a number of files >= 1, not '0'      | mg --export-every 1 --export-keep 0 --folded .
2 | --export-every writes to a directory: F is not one \(give  | : > F; mg --export-every 1 --folded F
2 | --export-every needs an export naming a directory \(add    | mg --export-every 1
2 | cannot write snapshots of folded stacks to nodir/: No such file or directory \(create the directory first\) | mg --export-every 1 --folded nodir/
2 | cannot write snapshots of folded stacks to F/: Not a directory | : > F; mg --export-every 1 --folded F/
2 | cannot write folded stacks to D: Is a directory \(that is a directory: name a file in it, or add --export-every | mkdir -p D; mg --folded D
0 | ^mon-helper: [0-9]+ samples                | mon -n 010 --summary -- "$H" hot 2000 | sed 's/^monitor/mon-helper/; s/ samples of .*/ samples/' | grep -x 'mon-helper: 10 samples'
0 | ^monitor: 3 samples of .* on thread [0-9]+,           | mon -F 1000 $jp -n 3 --summary
2 | a TID or -- COMMAND, not both \('[0-9]+' and 'true'\) | mon $jp -n 3 -- true
2 | -k and -u exclude each other \(give neither for both\) | mon -k -u 1
2 | at most 8 events, not 9 \(give fewer to -e\) | mon -e cpu-clock,task-clock,page-faults,minor-faults,major-faults,cs,cpu-migrations,alignment-faults,emulation-faults 1
2 | --legacy samples one event, not 2 | mon --legacy -e cpu-clock -e task-clock 1
2 | 'sched' is a tracepoint system, not an event: .*; see 'pcstat list tracepoint'\)$ | mon -e sched 1
1 | -d file '.' is a directory                              | mon -d . -- "$H" hot 100
1 | -d file 'fifo' is not a regular file                    | rm -f fifo; mkfifo fifo; mon -d fifo -- "$H" hot 100
1 | cannot use -d file 'text.txt' for .*: bad ELF           | mon -d text.txt -- "$H" hot 100
1 | cannot use -d file 'trunc.elf' for .*: bad ELF          | mon -d trunc.elf -- "$H" hot 100
1 | cannot use -d file 'other.elf' for .*: build-id mismatch | mon -d other.elf -- "$H" hot 100
0 | hot_spin                                                | mon -u -n 100 -F 1000 -d "$H" --summary -- "$H" hot 1000
1 | thread 1 belongs to another user \(run monitor as its owner or as root\)$ | $nobody "$MONITOR" -n 1 1
1 | or count user space only with a ':u' modifier$          | $nobody "$MONITOR" -k -n 1 -- "$H" hot 100
1 | cannot run './bad.sh': bad interpreter '/no/such/sh'    | mon -- ./bad.sh
1 | cannot run './junk.elf': Exec format error              | mon -- ./junk.elf
1 | cannot run './no-hashbang': Exec format error           | mon -- ./no-hashbang
0 | ^no shell ran it$ | mon -- ./no-hashbang; test -e ran-by-sh || echo no shell ran it
1 | cannot run './no-such-program': no such command         | mon -- ./no-such-program
1 | cannot run '\./': Permission denied \(a directory, not a program\)$ | mon -- ./
1 | cannot run './text.txt': Permission denied \(not executable: chmod \+x it | mon -- ./text.txt
# a name not in $PATH is not run from the current directory, but an
# empty $PATH entry is it
1 | cannot run 'planted': no such command | printf '#!/bin/sh\n' > planted; chmod +x planted; mon -- planted
0 | ^monitor: [0-9]+ samples of [^ ]+ on dotted | printf '#!/bin/sh\nexec sleep 0.2\n' > dotted; chmod +x dotted; PATH=:/usr/bin:/bin mon -- dotted

# 5. signals: the summary printed, the command sent the signal and waited for
0 | ^monitor: [0-9]+ samples of | stopped HUP m$$HUP "$MONITOR" -F 1000 -- ./m$$HUP 600
0 | ^monitor: [0-9]+ samples of | stopped INT m$$INT "$MONITOR" -F 1000 -- ./m$$INT 600
0 | ^monitor: [0-9]+ samples of | stopped QUIT m$$QUIT "$MONITOR" -F 1000 -- ./m$$QUIT 600
0 | ^monitor: [0-9]+ samples of | stopped USR1 m$$USR1 "$MONITOR" -F 1000 -- ./m$$USR1 600
0 | ^monitor: [0-9]+ samples of | stopped USR2 m$$USR2 "$MONITOR" -F 1000 -- ./m$$USR2 600
0 | ^monitor: [0-9]+ samples of | stopped TERM m$$TERM "$MONITOR" -F 1000 -- ./m$$TERM 600
# a command that ignores the signal: a second one ends it (SIGKILL)
0 | ^monitor: [0-9]+ samples of | stopped_twice TERM mi$$TERM "$MONITOR" -F 1000 -- sh -c 'trap "" TERM; exec ./mi'$$'TERM 600'
0 | ^monitor: [0-9]+ samples of | stopped_twice HUP mi$$HUP "$MONITOR" -F 1000 -- sh -c 'trap "" HUP; exec ./mi'$$'HUP 600'

# 6. the command's exit status passed on, as perf record and pcstat do
1 | ^monitor: [0-9]+ samples of .* on false \(pid | mon -- false
3 | ^monitor: [0-9]+ samples of .* on sh \(pid | mon -- sh -c 'exit 3'
143 | ^monitor: [0-9]+ samples of .* on sh \(pid | mon -- sh -c 'kill -TERM $$'
0 | ^monitor: 5 samples of | mon -n 5 -- "$H" hot 100000

# 7. faults that already had a clear answer, kept so
1 | no thread 4194303 \(has it exited\?\)                 | mon 4194303
1 | cannot run 'no-such-command-x': no such command      | mon -- no-such-command-x
1 | cannot start '.*mon-helper': Too many open files \(raise the limit with 'ulimit -n'\) | ulimit -n 6; mon -n 5 -- "$H" hot 100
# the command gets the soft limit back (monitor raises its own): a
# command that ends by itself once it has said it, no -n, which ends it
# as soon as the samples are in (through exec, at the default rate)
0 | ^soft 6$                                            | ulimit -Sn 6; mon --summary -- sh -c 'echo soft $(ulimit -Sn)'
0 | ^monitor: 5 samples of                               | ulimit -l 0; $loner "$MONITOR" --call-graph dwarf -n 5 -- "$H" hot 1000
# the ring's EPERM is the locked-memory limit, not perf_event_paranoid
1 | cannot map the sample buffer: Operation not permitted \(over the locked-memory limit: .*'ulimit -l' \(0 KiB\) beyond it; raise 'ulimit -l' | ulimit -l 0; $lone "$MONITOR" -n 5 $lone_pid
0 | kernel samples not allowed \(perf_event_paranoid\); sampling user space only | $nobody "$MONITOR" -n 5 -- "$H" hot 1000
0 | in \[kernel\]: kptr_restrict \(kernel addresses are hidden | hidden "$MONITOR" -k -n 20 -F 1000 --summary -- "$H" sys 1000
TABLE

# memory and process limits: not under ASan, which reserves terabytes of
# addresses and needs a thread of its own at exit
if sanitized "$MONITOR"; then
	echo "note: ASan build: the ulimit -v and -u rows are not run"
else
	fault_table <<'TABLE'
1 | cannot start '.*mon-helper': .* \(no process can be created: the limit of 'ulimit -u' is reached\) | $nobody prlimit --nproc=1 "$MONITOR" -n 5 -- "$H" hot 100
1 | cannot start '.*mon-helper': Cannot allocate memory \(no memory for a new process: the address space is limited to 8000 KiB: raise 'ulimit -v'\)$ | ulimit -s 8192; ulimit -v 8000; mon -n 5 -- "$H" hot 100
0 | ^monitor: [0-9]+ samples of                          | ulimit -v 60000; mon -n 5 -- "$H" hot 1000
TABLE
fi

done_testing
