#!/bin/sh
# perf-options.sh - every option perf record 6.1 documents is accepted by
# monitor (never "unknown option"); those that cannot mean anything here
# say so in one line and run normally; those that mean something do what
# perf record's do, checked against perf on the same workload.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

S="$top_builddir/tests/helpers/spin"
TH="$top_builddir/tests/helpers/threads"
H="$top_builddir/tests/monitor/mon-helper"

# perf record -h, 6.1: its long options, for a machine without perf
LONGS="all-cpus branch-any no-buildid count cpu data delay event freq
cgroup intr-regs no-inherit branch-filter clockid mmap-pages
no-buildid-cache no-samples output period pid quiet raw-samples realtime
snapshot stat tid timestamp uid verbose weight compression-level affinity
aio all-cgroups all-kernel all-user aux-sample buildid-all buildid-mmap
call-graph clang-opt clang-path code-page-size control data-page-size
debuginfod dry-run exclude-perf filter group kcore kernel-callchains
max-size mmap-flush namespaces no-bpf-event no-buffering
num-thread-synthesize off-cpu overwrite per-thread phys-data
proc-map-timeout running-time sample-cpu sample-identifier strict-freq
switch-events switch-max-files switch-output switch-output-event synth
tail-synthesize threads timestamp-boundary timestamp-filename transaction
user-callchains user-regs vmlinux"
# the short letters monitor shares with perf record (-k -u -n -d differ:
# monitor(1), "Differences from perf record")
SHORTS="a b B c C D e F g G I i j m N o P p q R r S s t T v W z"
if have_perf; then
	perf record -h > phelp 2>&1
	live=$(sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9-]*\).*/\2/p' phelp | sort -u)
	# the test's list is perf's: a perf that grew options is noticed
	missing=$(for o in $live; do echo " $LONGS " | tr '\n' ' ' |
		grep -q " $o " || echo "$o"; done)
	[ -z "$missing" ] && ok "perf record -h lists $(echo $live | wc -w) long options, all in the list" ||
		fail "perf record -h has options the list lacks: $missing"
	LONGS=$live
else
	without perf "perf record -h, parsed live"
fi

# arg OPTION: a value for an option that takes one (perf's own forms)
arg() {
	case $1 in
	count) echo 1000000 ;; freq) echo 1000 ;; event) echo cpu-clock ;;
	cpu) echo 0 ;; call-graph) echo fp ;; mmap-pages) echo 16 ;;
	realtime) echo 1 ;; output) echo out.data ;; clockid) echo monotonic ;;
	uid) echo root ;; delay) echo 10 ;; cgroup) echo / ;;
	branch-filter) echo any ;; affinity) echo node ;;
	switch-output-event) echo cpu-clock ;; synth) echo all ;;
	control) echo fd:0 ;; max-size) echo 1M ;; vmlinux) echo /proc/version ;;
	*) echo 1 ;;
	esac
}
# takes OPTION: perf's help shows <ARG> (required) after it
takes() {
	if [ -s phelp ]; then
		grep -Eq -- "--$1 <" phelp
	else
		case " count cpu delay event freq cgroup branch-filter clockid
		mmap-pages output pid realtime tid uid affinity call-graph
		clang-opt clang-path control filter max-size mmap-flush
		num-thread-synthesize proc-map-timeout switch-max-files
		switch-output-event synth vmlinux " in
		*" $1 "*) return 0 ;; *) return 1 ;; esac
	fi
}

# --- the sweep: every long option, on a short run ------------------------
# each in --help and in monitor(1) too
"$MONITOR" --help > help.txt
nopt=0
for o in $LONGS; do
	nopt=$((nopt + 1))
	grep -q -- "--$o\b" help.txt || fail "--help does not list --$o"
	grep -q -- "Fl \\\\-$o\b" "$top_srcdir/man/monitor.1" ||
		fail "monitor(1) does not list --$o"
	set -- "--$o"
	takes "$o" && set -- "--$o" "$(arg "$o")"
	case $o in
	pid|tid) timeout 30 "$MONITOR" "--$o" $$ --dry-run > out 2> err ;;
	*) timeout 30 "$MONITOR" "$@" -e cpu-clock --summary -- "$S" 20 \
		> out 2> err ;;
	esac
	rc=$?
	if grep -q "unknown option\|needs an argument" err || [ $rc -ne 0 ]; then
		fail "monitor $*: exit $rc, $(head -2 err)"
		continue
	fi
	# the notice: one line, naming the option and why
	n=$(grep -c "no effect here" err)
	if [ "$n" -gt 1 ] ||
	   { [ "$n" = 1 ] && ! grep -q "^monitor: \(-.\/\)\{0,1\}--$o: no effect here: ..." err; }; then
		fail "monitor $*: not one notice line: $(grep 'no effect' err)"
	fi
done
[ $nopt -ge 80 ] && ok "$nopt long options of perf record accepted, each noticed in one line at most" ||
	fail "only $nopt long options swept"
for l in $SHORTS; do
	set -- "-$l"
	case $l in
	c|C|D|e|F|G|j|m|o|r|p|t) set -- "-$l" "$(arg "$(grep -Eo -- "-$l, --[a-z-]+" phelp 2>/dev/null | sed 's/.*--//')")" ;;
	esac
	# (-a and -C with no command sample until interrupted: bound them)
	case $l in p|t) set -- "$@" --dry-run $$ ;; a|C) set -- "$@" -- true ;; esac
	timeout 30 "$MONITOR" "$@" > /dev/null 2> err < /dev/null
	grep -q "unknown option" err && fail "monitor $*: $(head -1 err)"
done
ok "perf record's short letters accepted: $SHORTS"

# --- -o: monitor writes no perf.data, and says where its samples go -------
"$MONITOR" -o out.data -e cpu-clock -c 1000000 -- "$S" 100 > o.out 2> o.err
rc=$?
if [ $rc -eq 0 ] && [ ! -e out.data ] && grep -q hot_spin o.out &&
   [ "$(grep -c 'no effect' o.err)" = 1 ] &&
   grep -q '^monitor: -o/--output: no effect here: monitor writes no perf.data: the samples go to standard output' o.err; then
	ok "-o: $(grep 'no effect' o.err)"
else
	fail "-o: exit $rc, $(ls out.data 2>&1), $(head -2 o.err)"
fi

# --- -q: nothing on standard error, as perf record -q -------------------
# (the cycles fallback notice and a no-effect notice both silenced)
"$MONITOR" -q --kcore -c 1000000 -- "$S" 50 > q.out 2> q.err
if [ $? -eq 0 ] && [ ! -s q.err ] && grep -q hot_spin q.out; then
	ok "-q: standard error empty, the samples printed"
else
	fail "-q: $(head -2 q.err)"
fi
if have_perf; then
	perf record -q -o q.data -e cpu-clock -- "$S" 50 > /dev/null 2> pq.err
	[ ! -s pq.err ] || fail "perf record -q said: $(head -1 pq.err)"
fi

# --- --dry-run: the options checked, nothing run --------------------------
"$MONITOR" --dry-run -e cpu-clock -- touch made > dry.out 2>&1
rc=$?
[ $rc -eq 0 ] && [ ! -e made ] && [ ! -s dry.out ] &&
	ok "--dry-run: exit 0, the command not run" ||
	fail "--dry-run: exit $rc, $(ls made 2>&1), $(head -1 dry.out)"
if have_perf; then
	perf record --dry-run -o dry.data -- touch pmade > /dev/null 2>&1
	[ ! -e pmade ] || fail "perf record --dry-run ran the command"
fi
"$MONITOR" --dry-run -e no-such-event -- true 2> dry.err
[ $? -eq 2 ] && ok "--dry-run: a bad event still exit 2" ||
	fail "--dry-run with a bad event: $(head -1 dry.err)"

# --- --strict-freq: a rate above the kernel's limit refused ---------------
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$MONITOR" --strict-freq -F $((max + 1000)) -e cpu-clock -- true 2> sf.err
rc=$?
"$MONITOR" -F $((max + 1000)) -e cpu-clock --summary -- true > /dev/null 2> sf2.err
rc2=$?
if have_perf; then
	perf record -q --strict-freq -F $((max + 1000)) -e cpu-clock -o sf.data -- true > /dev/null 2>&1
	prc=$?
else
	prc=1
fi
[ $rc -eq 2 ] && grep -q "strict-freq" sf.err && [ $rc2 -eq 0 ] && [ $prc -ne 0 ] &&
	ok "--strict-freq -F $((max + 1000)): refused (perf record: exit $prc), lowered without it" ||
	fail "--strict-freq: exit $rc ($(head -1 sf.err)), without: $rc2, perf: $prc"

# --- --all-kernel and --all-user: -k and -u ------------------------------
"$MONITOR" --all-kernel --script -e cpu-clock -c 100000 -- "$H" sys 200 > ak.out 2> /dev/null
"$MONITOR" --all-user --script -e cpu-clock -c 100000 -- "$H" sys 200 > au.out 2> /dev/null
k=$(grep -c ' ffffffff[0-9a-f]\{8\} ' ak.out) ka=$(grep -c 'cpu-clock:' ak.out)
u=$(grep -c ' ffffffff[0-9a-f]\{8\} ' au.out) ua=$(grep -c 'cpu-clock:' au.out)
[ "$ka" -gt 10 ] && [ "$k" = "$ka" ] && [ "$ua" -gt 0 ] && [ "$u" = 0 ] &&
	ok "--all-kernel: $k of $ka samples in the kernel; --all-user: $u of $ua" ||
	fail "--all-kernel: $k of $ka kernel; --all-user: $u of $ua kernel"

# --- -a and -C: every task on the CPUs, [CPU] in perf script's place ------
# hot_spin's samples against its CPU time: 184 to 222 for 200 ms seen
# under two busy loops, monitor and perf record -a alike, and from 143
# to 261 while other worktrees' tests ran too (the VM's stolen time:
# the CPU-wide clock and rusage count it differently): at least 60% of
# the CPU time, at most 140% plus the time every CPU lost meanwhile
# (lost_cpu_ms).  Before monitor opened the counters ahead of the
# command, it had none of the command's samples.
#
# A host may also take a vCPU away without saying so (the VMs CI runs
# on report no steal time): the task's CPU time goes on counting, but
# the timer is forwarded past the periods it missed, so fewer samples
# come (perf record -a: 99 for 209 ms there).  The lower bound is
# scaled by the share of periods that did come as samples, on every
# CPU: all samples over (online CPUs x the span they cover); a CPU with
# nothing to run samples the idle task.
# delivered FILE: that share, at most 1
delivered() {
	awk -v n="$(getconf _NPROCESSORS_ONLN)" '/ cpu-clock: / {
		for (i = 1; i < NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) { t = $(i + 1) + 0; break }
		if (!c++) t0 = t
		t1 = t
	} END {
		span = (t1 - t0) * 1000
		d = (c > 1 && span > 0) ? c / (n * span) : 1
		print (d > 1 ? 1 : d)
	}' "$1"
}
# spin_near HOT CPU_US LOST0 LOST1 DELIVERED
spin_near() {
	awk -v h="$1" -v c="$(($2 / 1000))" -v l="$(($4 - $3))" -v d="$5" 'BEGIN {
		exit !(h >= c * 0.6 * d && h <= c * 1.4 + l) }'
}
# other spins may run on the machine: this one's pid, its CPU time apart
SPIN='echo $$ > pid; exec "$1" 200 > cpu'
# hot LINES: this spin's hot_spin lines, in perf script's -a shape
hot() {
	grep -c "^ *spin  *$(cat pid) \[[0-9]\{3\}\]  *[0-9.]*:  *1000000 cpu-clock:  *[0-9a-f]* hot_spin+0x" "$1"
}
l0=$(lost_cpu_ms)
"$MONITOR" -a --script -e cpu-clock -c 1000000 -- sh -c "$SPIN" sh "$S" \
	> a.out 2> a.err
l1=$(lost_cpu_ms)
cpu=$(cat cpu)
hot=$(hot a.out)
others=$(grep -E '\[[0-9]{3}\]' a.out | awk '{ print $1 }' | sort -u | wc -l)
dl=$(delivered a.out)
if [ -n "$cpu" ] && spin_near "$hot" "$cpu" "$l0" "$l1" "$dl" &&
   [ "$others" -gt 1 ]; then
	ok "-a: $hot samples in hot_spin for $((cpu / 1000)) ms ($dl of the periods came), $others commands seen"
else
	fail "-a: '$hot' samples in hot_spin for $((${cpu:-0} / 1000)) ms ($dl of the periods came), $others commands: $(head -2 a.out)"
fi
if have_perf; then
	l0=$(lost_cpu_ms)
	perf record -q -a -o a.data -e cpu-clock -c 1000000 -- \
		sh -c "$SPIN" sh "$S" > /dev/null 2>&1
	l1=$(lost_cpu_ms)
	pcpu=$(cat cpu)
	perf script -i a.data > pa.lines 2> /dev/null
	phot=$(hot pa.lines)
	pdl=$(delivered pa.lines)
	spin_near "$phot" "$pcpu" "$l0" "$l1" "$pdl" &&
		ok "-a: perf record -a: $phot in hot_spin for $((pcpu / 1000)) ms ($pdl of the periods came), the same line" ||
		fail "-a: perf record -a: '$phot' hot_spin lines of this shape for $((pcpu / 1000)) ms ($pdl of the periods came): $(grep hot_spin pa.lines | head -1)"
fi
# (the spin's own line kept out of c.out: written while monitor writes
# its lines, it may land inside one of them)
"$MONITOR" -C 1 --script -e cpu-clock -c 1000000 -- \
	sh -c 'exec "$1" 100 > /dev/null' sh "$S" > c.out 2> /dev/null
n=$(grep -c ' \[001\] ' c.out) all=$(grep -c 'cpu-clock:' c.out)
[ "$all" -gt 0 ] && [ "$n" = "$all" ] && ok "-C 1: $n samples, all on CPU 1" ||
	fail "-C 1: $n of $all samples on CPU 1"

# --- -p and -t: a process's threads, or one thread -----------------------
spawn_ready "$TH" 4 || fail "no threads helper"
pid=$ready
# -n: a count of samples, not a time a loaded machine may spend starting
timeout 30 "$MONITOR" -p "$pid" -n 400 --script -e cpu-clock > p.out 2> p.err
ptids=$(awk '/cpu-clock:/ { print $2 }' p.out | sort -u | wc -l)
# --foreground: SIGINT alone.  Without it timeout sends SIGCONT after,
# which discards the SIGSTOP LeakSanitizer's exit check sends the tool
# if it is exiting by then: the check waited for the stop forever (the
# ASan suite hung 18 minutes here).
timeout --foreground -k 10 -s INT 1 "$MONITOR" -t "$pid" --script \
	-e cpu-clock > t.out 2> t.err
ttids=$(awk '/cpu-clock:/ { print $2 }' t.out | sort -u | tr '\n' ' ')
if [ "$ptids" -ge 2 ] && { [ -z "$ttids" ] || [ "$ttids" = "$pid " ]; }; then
	ok "-p: $ptids threads sampled; -t $pid: the main thread alone ('$ttids')"
else
	fail "-p: $ptids threads; -t: '$ttids' (want $pid alone, or none)"
fi
if have_perf; then
	# the second counted from perf's start: it runs sleep once ready
	perf record -q -o p.data -e cpu-clock -p "$pid" -- sleep 1 > /dev/null 2>&1
	pp=$(perf script -i p.data -F tid 2> /dev/null | sort -u | wc -l)
	[ "$pp" -ge 2 ] && ok "-p: perf record -p samples $pp threads too" ||
		fail "-p: perf record -p sampled $pp threads"
fi

# --- -i: the command alone, not what it starts ---------------------------
"$MONITOR" -i --all-threads --script -e cpu-clock -c 1000000 -- \
	sh -c '"$1" 100 > /dev/null' sh "$S" > i.out 2> /dev/null
"$MONITOR" --all-threads --script -e cpu-clock -c 1000000 -- \
	sh -c '"$1" 100 > /dev/null' sh "$S" > ni.out 2> /dev/null
i=$(grep -c ' hot_spin+' i.out) ni=$(grep -c ' hot_spin+' ni.out)
if [ "$i" = 0 ] && [ "$ni" -gt 50 ]; then
	ok "-i: no sample of the child (without: $ni in hot_spin)"
else
	fail "-i: $i samples of the child's hot_spin (without -i: $ni)"
fi
if have_perf; then
	perf record -q -i -o i.data -e cpu-clock -c 1000000 -- \
		sh -c '"$1" 100 > /dev/null' sh "$S" > /dev/null 2>&1
	pi=$(perf script -i i.data 2> /dev/null | grep -c ' hot_spin+')
	[ "$pi" = 0 ] && ok "-i: perf record -i has none either" ||
		fail "-i: perf record -i sampled the child $pi times"
fi

# --- -m: the ring's size, as /proc/PID/maps shows it ----------------------
# ring_bytes PID: the sizes of PID's perf_event mappings, in pages
ring_pages() {
	awk '/perf_event/ { split($1, a, "-");
		print (("0x" a[2]) - ("0x" a[1])) / 4096 }' "/proc/$1/maps" 2> /dev/null |
		sort -u | tr '\n' ' '
}
# (SIGINT at its default: a background job of sh ignores it, and
# monitor and the command would keep it ignored and run 4 s)
env --default-signal=INT "$MONITOR" -m 8 -e cpu-clock --summary -- "$H" hot 4000 > /dev/null 2> m.err &
mp=$!
at_exit "kill $mp 2>/dev/null"
got() { [ -n "$(ring_pages $mp)" ]; }
retry 10 got
mring=$(ring_pages $mp)
kill -INT $mp; wait $mp
if have_perf; then
	env --default-signal=INT perf record -q -m 8 -o m.data -e cpu-clock -- "$H" hot 4000 > /dev/null 2>&1 &
	pp=$!
	at_exit "kill $pp 2>/dev/null"
	got() { [ -n "$(ring_pages $pp)" ]; }
	retry 10 got
	pring=$(ring_pages $pp)
	kill -INT $pp; wait $pp
else
	pring="9 "
fi
# perf maps a side-band ring of its own too: its event's rings are 9
case " $pring" in *" 9 "*) pok=yes ;; *) pok=no ;; esac
[ "$mring" = "9 " ] && [ $pok = yes ] &&
	ok "-m 8: rings of 8 data pages + 1, as perf record's event rings ($pring)" ||
	fail "-m 8: rings of '$mring' pages, perf record's '$pring'"

# --- -r: the reader at SCHED_FIFO, the command not ----------------------
# the command waits (5 s at most) until its parent runs FIFO, then says
# both classes
rt='i=0; while [ $i -lt 50 ] && [ "$(ps -o cls= -p $PPID)" != " FF" ]; do
	sleep 0.1; i=$((i + 1)); done; echo $(ps -o cls=,rtprio= -p $PPID) $(ps -o cls= -p $$)'
"$MONITOR" -r 3 -e cpu-clock --summary -- sh -c "$rt" > r.out 2> r.err
[ "$(cat r.out | head -1)" = "FF 3 TS" ] &&
	ok "-r 3: monitor at FIFO 3, the command at TS" ||
	fail "-r 3: '$(head -1 r.out)' (want 'FF 3 TS'): $(head -1 r.err)"
if have_perf; then
	perf record -q -r 3 -o r.data -e cpu-clock -- sh -c "$rt" > pr.out 2> /dev/null
	[ "$(head -1 pr.out)" = "FF 3 TS" ] && ok "-r 3: perf record -r 3 the same" ||
		fail "-r 3: perf record says '$(head -1 pr.out)'"
fi
done_testing
