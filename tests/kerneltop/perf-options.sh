#!/bin/sh
# perf-options.sh - kerneltop takes perf top's options: every long option
# of `perf top -h` (perf 6.1) is accepted, never "unknown option"; the
# ones that cannot mean anything here say so in one line and run; and the
# targets, sampling and symbol options do what perf's do, checked against
# the kernel's own figures: -G samples a cgroup's tasks alone, -i leaves
# a child out, -m sizes the rings the kernel maps, -F max is the sysctl,
# --kallsyms reads the file given, --sym-annotate annotates the function
# that burns, -r runs kerneltop at SCHED_FIFO.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

KT="$KERNELTOP"
SPIN="$helpers/spin"

# kt_bg NAME ARGS...: kerneltop -v ARGS in the background ($ktpid), and
# wait until its counters are open (-v's "sampling:" line); 1 if never.
kt_bg() {
	local name=$1
	shift
	rm -f "$name.err"	# (not an earlier run's, read before the new one)
	"$KT" -v "$@" > "$name.out" 2> "$name.err" &
	ktpid=$!
	at_exit "kill $ktpid 2> /dev/null"
	retry 15 grep -qs '^kerneltop: sampling: ' "$name.err"
}

# A spin that lasts the test (killed at its end): the -p target.
"$SPIN" 600000 > /dev/null &
sp=$!
at_exit "kill $sp 2> /dev/null"

# === (a) the sweep: every long option of perf top -h =====================
# Parsed from perf itself where it is installed, else perf 6.1's list.
PERF61='all-cpus branch-any count cpu delay dump-symtab entries event
count-filter freq cgroup no-inherit branch-filter hide_kernel_symbols
vmlinux disassembler-style mmap-pages show-nr-samples pid realtime sort
tid hide_user_symbols uid verbose column-widths zero all-cgroups asm-raw
call-graph children comms demangle-kernel dsos fields force group
group-sort-idx hierarchy ignore-callees ignore-vmlinux kallsyms max-stack
namespaces no-bpf-event num-thread-synthesize objdump overwrite
percent-limit percentage prefix prefix-strip proc-map-timeout raw-trace
show-on-off-events show-total-period source stdio stitch-lbr switch-off
switch-on sym-annotate symbols tui'
# perf top's options that mean nothing here: accepted, one line why.
NO_EFFECT='all-cgroups overwrite proc-map-timeout num-thread-synthesize
namespaces force vmlinux ignore-vmlinux demangle-kernel
dump-symtab branch-any branch-filter stitch-lbr disassembler-style asm-raw
objdump source prefix prefix-strip column-widths ignore-callees
no-bpf-event switch-on switch-off show-on-off-events'

if have_perf; then
	perf top -h 2>&1 | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z0-9_-]*\).*/\2/p' |
		sort -u > perf-longs
	[ "$(wc -l < perf-longs)" -ge 60 ] &&
		ok "perf top -h: $(wc -l < perf-longs) long options" ||
		fail "perf top -h gave $(wc -l < perf-longs) long options"
else
	without perf "parsing perf top -h (perf 6.1's list used)"
	printf '%s\n' $PERF61 | sort -u > perf-longs
fi
printf '%s\n' $PERF61 | sort -u > perf61
comm -13 perf-longs perf61 > missing
[ -s missing ] && echo "note: not in this perf's list: $(cat missing)"

echo not-a-kernel > vmlinux
# arg OPTION: a sensible argument for it, none for a flag.
arg() {
	case $1 in
	event|switch-on|switch-off) echo cpu-clock ;;
	freq) echo 100 ;;		count) echo 100000 ;;
	cpu) echo 0 ;;			delay) echo 0.2 ;;
	pid|tid) echo $sp ;;		uid) echo root ;;
	cgroup) echo / ;;		sort) echo sym ;;
	entries) echo 5 ;;		percent-limit|count-filter) echo 1 ;;
	mmap-pages) echo 16 ;;		realtime) echo 1 ;;
	vmlinux) echo vmlinux ;;	kallsyms) echo /proc/kallsyms ;;
	sym-annotate|symbols|ignore-callees) echo hot_spin ;;
	call-graph) echo fp ;;		max-stack) echo 10 ;;
	comms) echo spin ;;		dsos) echo spin ;;
	fields) echo overhead,sym ;;	percentage) echo relative ;;
	group-sort-idx|prefix-strip|num-thread-synthesize) echo 1 ;;
	column-widths) echo 10 ;;	branch-filter) echo any ;;
	disassembler-style) echo intel ;;
	objdump) echo /usr/bin/objdump ;;
	prefix) echo / ;;		proc-map-timeout) echo 500 ;;
	esac
}
# the target: the spin alone, but for the options that pick their own
target() {
	case $1 in
	pid|tid|uid|cgroup|all-cpus) ;;
	*) echo "-p $sp" ;;
	esac
}

nsweep=0
for o in $(cat perf-longs); do
	[ "$o" = help ] && continue
	nsweep=$((nsweep + 1))
	a=$(arg "$o")
	# shellcheck disable=SC2046
	kt sweep -b -n 1 -d 0.2 $(target "$o") --"$o" ${a:+"$a"}
	if grep -Eqi 'unknown option|unrecognized' sweep.err; then
		fail "--$o${a:+ $a}: refused: $(head -1 sweep.err)"
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "--$o${a:+ $a}: exit $rc: $(head -2 sweep.err)"
		continue
	fi
	case " $(echo $NO_EFFECT) " in
	*" $o "*)
		n=$(grep -Ec "^kerneltop: (-./)?--[a-z_-]*: no effect here: ." sweep.err)
		[ "$n" -eq 1 ] ||
			fail "--$o: $n 'no effect here' lines, want 1: $(cat sweep.err)"
		;;
	*)
		grep -q 'no effect here' sweep.err &&
			fail "--$o: means something, yet: $(cat sweep.err)"
		;;
	esac
	# (--sym-annotate prints its annotation after the frame)
	[ "$o" = sym-annotate ] || kt_frames sweep.out > /dev/null ||
		fail "--$o${a:+ $a}: no frame: $(kt_frames sweep.out)"
done
ok "sweep: $nsweep long options of perf top, none unknown"

# --help and the man page list every option of perf's list
"$KT" --help > help.txt
for o in $PERF61; do
	grep -q -- "--$o\b" help.txt || fail "--help does not list --$o"
	grep -q -- "-$o\b" "$top_srcdir/man/kerneltop.1" ||
		fail "kerneltop(1) does not list --$o"
done
# option errors: one line, exit 2
for bad in "-m 0" "-m 2X" "-r 0" "-r 100" "-F maxx" "--prefix-strip x"; do
	# shellcheck disable=SC2086
	kt bad -b -n 1 $bad
	[ $rc -eq 2 ] && [ "$(grep -c . bad.err)" -eq 1 ] ||
		fail "kerneltop $bad: exit $rc, stderr: $(cat bad.err)"
done
ok "bad -m, -r, -F, --prefix-strip: one line, exit 2"

# === (b) behaviour ======================================================

# --- -F max: the kernel's perf_event_max_sample_rate ---------------------
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
kt fmax -b -n 1 -d 0.3 -F max -p $sp
# (at that rate a loaded or sanitized kerneltop may lag and say so in
# brackets before the event: "[samples come faster than read ...]")
kt_head fmax.out | grep -Eq "^kerneltop: [0-9]+ samples/s +(\[[^]]*\] +)?[a-z-]+ $max Hz " &&
	ok "-F max: $max Hz, the sysctl" || fail "-F max: '$(kt_head fmax.out)' (sysctl $max)"
# monitor: 100 ms of CPU time at the sysctl's rate (samples and lost),
# a quarter of it at least: far above what -F 4000 would give
"$MONITOR" -F max --summary -- "$SPIN" 100 > mon.out 2> mon.err
rc=$?
n=$(cat mon.out mon.err |
	sed -n 's/^monitor: \([0-9]*\) samples of .*, \([0-9]*\) lost, .*/\1 \2/p' |
	awk '{ print $1 + $2 }')
[ $rc -eq 0 ] && [ -n "$n" ] && [ "$n" -ge $((max / 40)) ] &&
	ok "monitor -F max: $n samples in 100 ms of CPU (sysctl $max Hz)" ||
	fail "monitor -F max: exit $rc, '$n' samples (want >= $((max / 40))): $(cat mon.err)"

# --- -m: the ring the kernel maps is the size asked for -------------------
# A ring is 1 + N pages of anon_inode:[perf_event] in kerneltop's maps.
page=$(getconf PAGESIZE)
for m in 16:16 3:4 512K:$((524288 / page)) 1M:$((1048576 / page)); do
	kt_bg ring -d 5 -n 1 -m "${m%%:*}" -p $sp ||
		fail "-m ${m%%:*}: kerneltop did not start: $(cat ring.err)"
	want=$(( (${m##*:} + 1) * page ))
	l=$(grep -m1 'perf_event' "/proc/$ktpid/maps" 2> /dev/null)
	l=${l%% *}
	got=$(( 0x${l#*-} - 0x${l%-*} ))
	kill $ktpid 2> /dev/null
	wait $ktpid 2> /dev/null
	[ "$got" = "$want" ] &&
		ok "-m ${m%%:*}: a ring of $got bytes mapped ($((want / page - 1)) data pages)" ||
		fail "-m ${m%%:*}: ring of '$got' bytes, want $want"
	grep -q "ring buffers of $((want / page - 1)) data pages" ring.err ||
		fail "-m ${m%%:*}: -v says: $(grep ring ring.err)"
done

# --- -r: kerneltop itself at SCHED_FIFO; refused without the right -------
kt_bg rt -d 5 -n 1 -r 7 -p $sp || fail "-r 7: did not start: $(cat rt.err)"
pol=$(chrt -p $ktpid 2> /dev/null)
kill $ktpid 2> /dev/null
wait $ktpid 2> /dev/null
echo "$pol" | grep -q 'SCHED_FIFO' && echo "$pol" | grep -q 'priority: 7' &&
	ok "-r 7: $pol" || fail "-r 7: chrt says: $pol"
if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	true 2> /dev/null; then
	# (from /: nobody cannot enter $tmpdir)
	(cd / && timeout 20 setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all sh -c \
		'ulimit -r 0; exec "$0" -b -n 1 -d 0.2 -r 7 -p "$1"' "$KT" $sp) \
		> rtn.out 2> rtn.err
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 2 ] && [ "$(grep -c . rtn.err)" -eq 1 ] &&
		grep -q 'SCHED_FIFO' rtn.err &&
		ok "-r unprivileged: $(cat rtn.err)" ||
		fail "-r unprivileged: exit $rc: $(cat rtn.err)"
fi

# --- -G: a cgroup's tasks alone --------------------------------------------
mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$mnt" ] || mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg=pctools-kt-$$
if [ -n "$mnt" ] && mkdir "$mnt/$cg" 2> /dev/null; then
	at_exit "for p in \$(cat '$mnt/$cg/cgroup.procs' 2> /dev/null); do
		kill \$p 2> /dev/null; echo \$p > '$mnt/cgroup.procs'; done 2> /dev/null
		rmdir '$mnt/$cg' 2> /dev/null"
	"$SPIN" 600000 > /dev/null &
	in=$!
	echo $in > "$mnt/$cg/cgroup.procs"
	kt cg -b -n 2 -d 0.5 -G "$cg" -s pid
	pids=$(kt_rows cg.out | awk '{ print $3 }' | sort -u | tr '\n' ' ')
	[ $rc -eq 0 ] && [ "$pids" = "$in " ] &&
		ok "-G $cg: samples of pid $in alone (the spin outside: $sp)" ||
		fail "-G $cg: exit $rc, pids '$pids' (want $in alone): $(cat cg.err)"
	kt_target cg.out | grep -q "^target: cgroup $cg on CPUs" ||
		fail "-G: target line '$(kt_target cg.out)'"
	kill $in
	kt cgp -b -n 1 -G "$cg" -p $sp
	[ $rc -eq 2 ] || fail "-G with -p: exit $rc, want 2"
	kt cgn -b -n 1 -G "$cg-none"
	[ $rc -ne 0 ] && [ "$(grep -c . cgn.err)" -eq 1 ] &&
		grep -q "$cg-none" cgn.err && ok "-G of no cgroup: $(cat cgn.err)" ||
		fail "-G of no cgroup: exit $rc: $(cat cgn.err)"
else
	echo "note: no cgroup could be made under '$mnt': -G not run"
fi

# --- -i/--no-inherit: a child made after the start is not followed -------
# The parent waits on a FIFO until kerneltop's counters are open, then
# runs the spin as its child (not exec: "; true" keeps the shell).
for i in inherit no-inherit; do
	mkfifo go.$i
	sh -c "read x < go.$i; \"$SPIN\" 1500 > /dev/null; true" &
	parent=$!
	if [ $i = inherit ]; then flag=; else flag=-i; fi
	# shellcheck disable=SC2086
	kt_bg $i -n 2 -d 1 $flag -p $parent ||
		fail "$i: kerneltop did not start: $(cat $i.err)"
	echo go > go.$i
	wait $ktpid
	rc=$?
	wait $parent
	hot=$(grep -c '\] hot_spin ' $i.out)
	if [ $i = inherit ]; then
		[ $rc -eq 0 ] && [ "$hot" -ge 1 ] &&
			ok "-p: the child's hot_spin is sampled" ||
			fail "-p: exit $rc, hot_spin in $hot frames: $(cat $i.out)"
		grep -q 'inherit$' $i.err || fail "-p: -v says no inherit"
	else
		[ $rc -eq 0 ] && [ "$hot" -eq 0 ] &&
			ok "-p -i: the child is not sampled" ||
			fail "-p -i: exit $rc, hot_spin in $hot frames: $(cat $i.out)"
		grep -q 'inherit$' $i.err && fail "-i: -v says inherit"
	fi
done

# --- --kallsyms FILE: the kernel's symbols are read from FILE -------------
# A copy whose names are all prefixed: every kernel row must carry the
# prefix, and be a name of /proc/kallsyms once it is taken off.
awk '{ $3 = "kt_" $3; print }' /proc/kallsyms > kallsyms.txt
if awk '$1 !~ /^0+$/ { n++ } END { exit !n }' kallsyms.txt; then
	kt ks -b -n 1 -d 1 --kallsyms kallsyms.txt
	kt_rows ks.out | awk '$3 == "[k]" { print $4 }' > krows
	if [ $rc -eq 0 ] && [ -s krows ]; then
		bad=$(grep -v '^kt_' krows | grep -v '^\[' | head -3)
		[ -z "$bad" ] && ok "--kallsyms: $(wc -l < krows) kernel rows from the copy" ||
			fail "--kallsyms: kernel rows not from the file: $bad"
		sed 's/^kt_//' krows | grep -v '^\[' |
			awk 'NR == FNR { want[$1]; next } $3 in want { delete want[$3] }
			     END { for (w in want) print w }' - /proc/kallsyms > notfound
		[ -s notfound ] && fail "--kallsyms: not in /proc/kallsyms: $(head -3 notfound)"
	else
		fail "--kallsyms: exit $rc, kernel rows: $(wc -l < krows): $(cat ks.err)"
	fi
else
	echo "note: /proc/kallsyms hides its addresses: --kallsyms copy not run"
fi
for f in /etc/hostname nonexistent; do
	kt ksbad -b -n 1 -d 0.2 --kallsyms $f -p $sp
	[ $rc -ne 0 ] && [ "$(grep -c . ksbad.err)" -eq 1 ] &&
		grep -q -- "--kallsyms $f" ksbad.err &&
		ok "--kallsyms $f: $(cat ksbad.err)" ||
		fail "--kallsyms $f: exit $rc: $(cat ksbad.err)"
done

# --- --sym-annotate hot_spin: its lines, the hottest inside it ------------
# hot_spin's body, from spin.c: its definition to the closing brace.
src="$top_srcdir/tests/helpers/spin.c"
first=$(grep -n '^__attribute__((noinline)) unsigned long hot_spin' "$src" | cut -d: -f1)
last=$(awk -v f="$first" 'NR > f && /^}/ { print NR; exit }' "$src")
kt ann -b -n 1 -d 1 -p $sp --sym-annotate hot_spin
hl=$(sed -n '/^Annotate: hot_spin (/,/^$/p' ann.out | grep '^>' |
	grep -o 'spin\.c:[0-9]*' | cut -d: -f2)
[ $rc -eq 0 ] && [ -n "$hl" ] && [ "$hl" -gt "$first" ] && [ "$hl" -lt "$last" ] &&
	ok "--sym-annotate hot_spin: hottest line spin.c:$hl (body $first-$last)" ||
	fail "--sym-annotate: exit $rc, hottest '$hl' not in $first-$last: $(cat ann.out)"
# then, as perf top --stdio, its instructions (with LLVM): the same
# samples as the source lines, every one at an address inside hot_spin
# (nm's), the hottest marked
src_n=$(sed -n '/^Annotate: hot_spin (.*)$/,/^$/p' ann.out |
	awk '$1 ~ /%$/ || $1 == ">" { n += ($1 == ">") ? $3 : $2 } END { print n + 0 }')
ins_t=$(sed -n 's/^Annotate: hot_spin (.*), \([0-9]*\) samples$/\1/p' ann.out)
if [ -n "$ins_t" ]; then
	hs=$(nm "$helpers/spin" | awk '$3 == "hot_spin" { print $1 }')
	hsz=$(nm -S "$helpers/spin" | awk '$4 == "hot_spin" { print $2 }')
	set -- $(sed -n '/^Annotate: hot_spin (.*), [0-9]* samples$/,/^$/p' ann.out |
		awk -v lo="$hs" -v sz="$hsz" '
		function hex(s,  i, v) { v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		/^>/ { hot++ }
		/^[ >] *[0-9.]+% +[0-9]+ +[0-9a-f]+:  / {
			sub(/^>/, " "); a = $3; sub(/:$/, "", a); n += $2
			if (hex(a) < hex(lo) || hex(a) >= hex(lo) + hex(sz)) out++ }
		END { print n + 0, out + 0, hot + 0 }')
	[ "$1" -eq "$ins_t" ] && [ "$1" -eq "$src_n" ] && [ "$2" -eq 0 ] && [ "$3" -eq 1 ] &&
		ok "--sym-annotate -b: $1 samples over hot_spin's instructions, as over its lines" ||
		fail "--sym-annotate -b instructions: $1 of $ins_t (lines $src_n), $2 outside, $3 marked: $(cat ann.out)"
elif "$MONITOR" --annotate hot_spin -- "$helpers/spin" 50 2>&1 >/dev/null |
		grep -q "built without LLVM"; then
	echo "note: built without LLVM's disassembler: no instructions in batch"
else
	fail "--sym-annotate -b: no instructions after the source lines: $(cat ann.out)"
fi
kt annn -b -n 1 -d 0.2 -p $sp --sym-annotate no_such_function
grep -q '^Annotate: no_such_function: no samples$' annn.out ||
	fail "--sym-annotate of a function not sampled: $(tail -3 annn.out)"


# --- on the terminal: --sym-annotate's screen, the help's perf keys ------
if have tmux; then
	kt_start a 120 50 -d 0.3 -p $sp --sym-annotate hot_spin
	wait_screen a '^Annotate: hot_spin \(' 10 &&
		wait_screen a '^> *[0-9.]+% +[0-9]+ +spin\.c:[0-9]+ ' 5 &&
		ok "--sym-annotate on the terminal: the annotation screen" ||
		fail "--sym-annotate: no annotation screen: $(cat a.screen)"
	keys a q
	wait_screen a '^ *Overhead ' 5 || fail "q: no table: $(cat a.screen)"
	keys a h
	wait_screen a "Keys that differ from perf top's" 5 &&
		screen_has a '^ +H +health / column headers' &&
		screen_has a '^ +space +pause / page down' &&
		ok "help: the keys perf top gives another meaning" ||
		fail "help lacks the perf keys: $(cat a.screen)"
	keys a q
	keys a q
	wait_screen a '^rc=0$' 5 || fail "kerneltop did not quit: $(cat a.screen)"
	# On 24 lines the help (over 40) scrolls: its last lines come at
	# End, the first again at Home, and another key goes back.
	kt_start b 100 24 -d 0.3 -p $sp
	wait_screen b '^ *Overhead ' 10 || fail "no table on 24 lines: $(cat b.screen)"
	keys b h
	wait_screen b '^lines 1-21 of [0-9]+: ' 5 &&
		screen_lacks b "Keys that differ from perf top's" &&
		ok "help on 24 lines: the first 21 lines and where they are" ||
		fail "help on 24 lines: $(cat b.screen)"
	keys b End
	wait_screen b '^lines [0-9]+-([0-9]+) of \1: ' 5 &&
		screen_has b '^ +K U +hide kernel, user rows' &&
		ok "help: End shows its last lines" ||
		fail "help: End: $(cat b.screen)"
	keys b Home
	wait_screen b '^lines 1-21 of ' 5 || fail "help: Home: $(cat b.screen)"
	keys b x
	wait_screen b '^ *Overhead ' 5 &&
		ok "help: another key goes back to the table" ||
		fail "help: x did not go back: $(cat b.screen)"
	keys b q
	wait_screen b '^rc=0$' 5 || fail "kerneltop did not quit: $(cat b.screen)"
else
	without tmux "the terminal checks"
fi

done_testing
