#!/bin/sh
# batch.sh - kerneltop -b: frames as documented, a known hot function on
# top with its share, the -p/-t/-u/-C targets, several events ordered by
# weight, -s keys, -z against decay, --percent-limit, -E, -K/-U, -c, -F
# clipping, --stdio, batch by itself on a pipe, a -p target that exits,
# and the non-root fallback.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
HPATH=$(cd "$(dirname "$H")" && pwd -P)/kt-helper
KT="$KERNELTOP"
num='[0-9]+(\.[0-9]+)?'
# after a target other than all tasks, the CPUs may follow ("pid 1 on CPUs 0-1")
oncpus='( on CPUs [0-9][-0-9,]*)?'

# frames NAME N: NAME.out is N well-formed frames and kerneltop exited 0
frames() {
	local got
	got=$(kt_frames "$1.out")
	if [ $rc -eq 0 ] && [ "$got" = "$2" ]; then
		ok "$1: $2 frames, exit 0"
	else
		fail "$1: exit $rc, frames: $got (want $2); stderr: $(head -3 "$1.err")"
		return 1
	fi
}

# share NAME SYM [FRAME]: SYM's Overhead in a frame (default the last)
share() {
	kt_rows "$1.out" "${3:-0}" |
		awk -v s="$2" '$4 == s { sub("%", "", $1); print $1; exit }'
}

# total NAME FRAME: the sum of the Samples column (field 2) of a frame
total() {
	kt_rows "$1.out" "$2" | awk '{ n += $2 } END { print n + 0 }'
}

spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned

# --- -b -n 3 -d 0.5 -p: three frames, the header lines, kt_hot on top -----
# Default event: cycles, or cpu-clock with a notice where there is no PMU.
t0=$(date +%s%N)
kt p -b -n 3 -d 0.5 -p $hp
t1=$(date +%s%N)
frames p 3
ms=$(( (t1 - t0) / 1000000 ))
[ $ms -ge 900 ] && [ $ms -lt 8000 ] && ok "-n 3 -d 0.5 took $ms ms" ||
	fail "-n 3 -d 0.5 took $ms ms"
if grep -q 'cycles' p.err; then
	ev=cpu-clock
	[ "$(grep -c . p.err)" -eq 1 ] &&
	grep -qx 'kerneltop: cycles not supported here (no hardware PMU); sampling cpu-clock at 4000 Hz' p.err &&
		ok "no PMU: the one-line notice" || fail "no PMU notice: $(cat p.err)"
else
	ev=cycles
	[ -s p.err ] && fail "stderr without a fallback: $(cat p.err)"
fi
kt_head p.out 1 | grep -Eq "^kerneltop: [0-9]+ samples/s +$ev 4000 Hz +kernel $num% +user $num% +lost [0-9]+ +throttled [0-9]+$" &&
	ok "header 1: $(kt_head p.out)" || fail "header 1: '$(kt_head p.out 1)'"
kt_target p.out | grep -Eq "^target: pid $hp$oncpus +unresolved $num% +refresh 0\.5s \(decay\) +sampling: per-thread counters \([0-9]+ threads? x [0-9]+ CPUs? = [0-9]+ descriptors?; limit [0-9]+\)$" &&
	ok "header 2: $(kt_target p.out)" || fail "header 2: '$(kt_target p.out)'"
kt_header p.out | grep -Eq '^ *Overhead +Samples +Symbol +Shared Object *$' ||
	fail "column header: '$(kt_header p.out)'"
kt_head p.out | awk '{ for (i = 1; i < NF; i++) { if ($i == "kernel") k = $(i + 1); if ($i == "user") u = $(i + 1) } }
	END { sub("%", "", k); sub("%", "", u); exit !(k + u > 99.5 && k + u < 100.5) }' ||
	fail "kernel + user != 100%: $(kt_head p.out)"
# samples/s is per second: with -z a frame's Samples add up to its
# samples/s times the refresh.  A late frame (the machine is busy) counts
# over a longer interval than 0.5 s, and the next over a shorter one, so
# the median of frames 2-5 is judged: measured 0.99-1.01 (20 runs, the
# suite alongside; single frames 0.34-1.69).  Accepted 0.8-1.25.
kt rate -b -z -n 5 -d 0.5 -e cpu-clock -p $hp
frames rate 5
r=$(awk '/^kerneltop: [0-9]+ samples\/s/ { f++; r[f] = $2; st = 1; next }
	st && /^ *[0-9.]+% / { s[f] += $2 }
	END { for (k = 2; k <= f; k++) if (r[k] > 0) print s[k] / (r[k] * 0.5) }' rate.out |
	sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
between "$r" 0.8 1.25 && ok "samples/s x 0.5 s = a -z frame's samples (median ratio $r)" ||
	fail "samples/s against a -z frame's samples: median ratio '$r' (want 1): $(grep '^kerneltop' rate.out | tr '\n' ' ')"
top=$(kt_rows p.out | awk 'NR == 1 { print $3, $4, $5 }')
[ "$top" = "[.] kt_hot $HPATH" ] && ok "top row: $top" ||
	fail "top row: '$top' (want [.] kt_hot $HPATH)"
# kt_hot 9 : kt_warm 1 by iterations of the same loop; perf here: 89.3 /
# 10.0.  Frame 3 holds ~3000 decayed samples: sampling error alone ~0.6
# points.  Measured over 30 runs with accuracy.sh looping alongside:
# kt_hot 87.1-90.4, kt_warm 9.1-11.5 (the kernel's share moves with the
# load).  Accepted: 84-94 and 6-14.
hot=$(share p kt_hot) warm=$(share p kt_warm)
between "$hot" 84 94 && ok "kt_hot $hot%" || fail "kt_hot share '$hot' (want 84-94)"
between "$warm" 6 14 && ok "kt_warm $warm%" || fail "kt_warm share '$warm' (want 6-14)"
kt_rows p.out | awk '{ v = $1; sub("%", "", v); v += 0; if (NR > 1 && v > prev + 0.001) exit 1; prev = v }' ||
	fail "rows not in overhead order: $(kt_rows p.out | head -5)"

# --- -p shows only its process: -s pid,sym with a busy decoy running ------
spawn_ready "$H" burn 0 || fail "decoy did not start"
decoy=$spawned
kt_spawn pid -b -n 2 -d 0.5 -e cpu-clock -s pid,sym -p $hp
kt_spawn pid2 -b -n 2 -d 0.5 -e cpu-clock -p $hp,$decoy
kt_reap pid
frames pid 2
kt_header pid.out | grep -Eq '^ *Overhead +Samples +Pid +Symbol +Shared Object *$' ||
	fail "-s pid,sym header: '$(kt_header pid.out)'"
others=$(kt_rows pid.out | awk -v p=$hp '$3 != p' | head -3)
[ -z "$others" ] && kt_rows pid.out | grep -q ' kt_hot ' &&
	ok "-p $hp: only its rows ($(kt_rows pid.out | wc -l))" ||
	fail "-p $hp: other rows: $others"
# two pids, and the decoy is seen when asked for
kt_reap pid2
frames pid2 2
kt_target pid2.out | grep -Eq "^target: pid $hp,$decoy$oncpus  " || fail "target: $(kt_target pid2.out)"
kt_rows pid2.out | grep -q ' kt_hot ' && kt_rows pid2.out | grep -q ' kt_burn ' &&
	ok "-p $hp,$decoy: both" || fail "-p two pids: $(kt_rows pid2.out | head -4)"

# --- all tasks: two hot helpers on a 2-CPU machine ------------------------
spawn_ready "$H" hot 0 || fail "second helper did not start"
hp2=$spawned
kill $decoy
ncpu=$(getconf _NPROCESSORS_ONLN)
cpus=0
[ "$ncpu" -gt 1 ] && cpus="0-$((ncpu - 1))"
kt_spawn all -b -n 3 -d 0.5 -e cpu-clock
kt_spawn soak -b -n 25 -d 0.2 -e cpu-clock
kt_spawn cpu -b -n 2 -d 0.5 -e cpu-clock -C 0 -s sym
kt_spawn user -b -n 2 -d 0.5 -e cpu-clock -u "$(id -un)"
kt_reap all
frames all 3
kt_target all.out | grep -Eq "^target: all tasks on CPUs $cpus +unresolved $num% +refresh 0\.5s \(decay\)$" &&
	ok "all tasks: $(kt_target all.out)" || fail "all tasks target: '$(kt_target all.out)'"
# Shares of the whole machine move with the rest of the suite and other
# builds: measured 18-51% (9 runs, the suite alongside), 5.2% and fourth
# row at a load of 10 (two builds, a benchmark and the ASan suite).  The
# shares' accuracy is -p's above and accuracy.sh's: here kt_hot must be
# among the first ten rows with at least 2%.
hot=$(share all kt_hot)
rank=$(kt_rows all.out | awk '$4 == "kt_hot" { print NR; exit }')
[ -n "$rank" ] && [ "$rank" -le 10 ] && between "$hot" 2 100 &&
	ok "all tasks: kt_hot row $rank, $hot%" ||
	fail "all tasks: kt_hot row '$rank' share '$hot': $(kt_rows all.out | head -5)"
# longer: 25 refreshes of the whole machine while the suite's processes
# come and go (their exits make the symbol tables shed them)
kt_reap soak
frames soak 25
kt_reap cpu
frames cpu 2
kt_target cpu.out | grep -Eq "^target: all tasks on CPUs 0  " ||
	fail "-C 0 target: '$(kt_target cpu.out)'"
kt_reap user
frames user 2
kt_target user.out | grep -Eq "^target: user $(id -un)$oncpus  " ||
	fail "-u target: '$(kt_target user.out)'"
# (each helper ends with the last section that samples it: a helper
# left spinning takes a CPU from every test running beside this one)
kill $hp2

# --- --stdio is -b; a pipe is batch by itself -----------------------------
kt stdio --stdio -n 2 -d 0.5 -e cpu-clock -p $hp
frames stdio 2
{ timeout 20 "$KT" -n 2 -d 0.5 -e cpu-clock -p $hp 2> piped.err; echo $? > piped.rc; } | cat > piped.out
rc=$(cat piped.rc)
frames piped 2

# --- the threads: -t, -s comm / tid / pid / dso, key column order ---------
spawn_ready "$H" threads 0 || fail "threads helper did not start"
set -- $ready
tp=$1 ta=$2 tb=$3
kt_spawn tid -b -n 2 -d 0.5 -e cpu-clock -t $ta
kt_spawn comm -b -n 3 -d 0.5 -e cpu-clock -s comm -p $tp
kt_spawn tids -b -n 2 -d 0.5 -e cpu-clock -s tid -p $tp
kt_spawn pids -b -n 2 -d 0.5 -e cpu-clock -s pid -p $tp
kt_reap tid
frames tid 2
kt_target tid.out | grep -Eq "^target: tid $ta$oncpus  " || fail "-t target: '$(kt_target tid.out)'"
kt_rows tid.out | grep -q ' kt_alpha ' && ! kt_rows tid.out | grep -q ' kt_beta ' &&
	ok "-t $ta: kt_alpha, no kt_beta" || fail "-t: $(kt_rows tid.out | head -4)"

kt_reap comm
frames comm 3
kt_header comm.out | grep -Eq '^ *Overhead +Samples +Command *$' ||
	fail "-s comm header: '$(kt_header comm.out)'"
a=$(kt_rows comm.out | awk '$3 == "kt-alpha" { sub("%", "", $1); print $1 }')
b=$(kt_rows comm.out | awk '$3 == "kt-beta" { sub("%", "", $1); print $1 }')
dup=$(kt_rows comm.out | awk '{ print $3 }' | sort | uniq -d)
# kt-alpha and kt-beta take turns, 2:1 in iterations of the same loop;
# perf here: 2.0-2.15.  Measured over 30 runs with accuracy.sh looping
# alongside: 1.89-2.06.  Accepted: 1.6-2.5.
[ -z "$dup" ] && between "$b" 3 100 &&
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a >= 1.6 * b && a <= 2.5 * b) }' &&
	ok "-s comm: kt-alpha $a%, kt-beta $b%" ||
	fail "-s comm: alpha '$a' beta '$b' dup '$dup': $(kt_rows comm.out)"

kt_reap tids
frames tids 2
kt_header tids.out | grep -Eq '^ *Overhead +Samples +Tid *$' ||
	fail "-s tid header: '$(kt_header tids.out)'"
kt_rows tids.out | awk -v a=$ta -v b=$tb '$3 == a { x++ } $3 == b { y++ } END { exit !(x == 1 && y == 1) }' &&
	[ -z "$(kt_rows tids.out | awk '{ print $3 }' | sort | uniq -d)" ] &&
	ok "-s tid: one row each for $ta and $tb" || fail "-s tid: $(kt_rows tids.out)"

kt_reap pids
frames pids 2
kt_header pids.out | grep -Eq '^ *Overhead +Samples +Pid *$' &&
	[ "$(kt_rows pids.out | awk '{ print $3 }' | sort -u)" = "$tp" ] &&
	ok "-s pid: one row, $tp" || fail "-s pid: $(kt_header pids.out) / $(kt_rows pids.out)"

kt dso -b -n 2 -d 0.5 -e cpu-clock -s dso -p $hp
frames dso 2
kt_header dso.out | grep -Eq '^ *Overhead +Samples +Shared Object *$' &&
	kt_rows dso.out | awk -v p="$HPATH" '$3 == p { n++ } END { exit n != 1 }' &&
	ok "-s dso: $HPATH once" || fail "-s dso: $(kt_header dso.out) / $(kt_rows dso.out)"

# whatever the order given, the key columns come as Command Pid Tid
kt keys -b -n 1 -d 0.5 -e cpu-clock -s sym,tid,comm -p $tp
kt_header keys.out | grep -Eq '^ *Overhead +Samples +Command +Tid +Symbol +Shared Object *$' &&
	ok "-s sym,tid,comm: Command Tid Symbol" || fail "-s sym,tid,comm header: '$(kt_header keys.out)'"
kt_rows keys.out | awk -v a=$ta '$3 == "kt-alpha" && $4 == a && $6 == "kt_alpha" { n++ } END { exit !n }' ||
	fail "-s sym,tid,comm rows: $(kt_rows keys.out | head -3)"
kill $tp

# --- two events: Weight, one column each, rows in weight order ------------
spawn_ready "$H" faults 0 || fail "faults helper did not start"
fp=$spawned
# weight_order NAME: NAME's last frame in weight order (kt_weight_order)
weight_order() {
	kt_rows "$1.out" | kt_weight_order
}
# (one at a time: page-fault sampling by several sessions at once on
# one process gave each 0 to 1,800 samples a frame, where one alone had
# 1,800)
for spec in "-e cpu-clock -e page-faults" "-e cpu-clock,page-faults" "-e {cpu-clock,page-faults}"; do
	name=ev$(echo "$spec" | tr -dc a-z | cut -c1-12)
	kt $name -b -z -n 3 -d 0.5 $spec -p $fp
	frames $name 3 || continue
	kt_header $name.out | grep -Eq '^ *Weight +cpu-clock +page-faults +Symbol +Shared Object *$' ||
		fail "$spec: header '$(kt_header $name.out)'"
	if why=$(weight_order $name); then
		ok "$spec: $(kt_rows $name.out | wc -l) rows in weight order"
	else
		fail "$spec: $why"
	fi
	# kt_touch takes the faults; kt_hot has none and so outweighs it
	kt_rows $name.out | awk '$5 == "kt_touch" && $3 > 0 { t = NR } $5 == "kt_hot" && $3 == 0 { h = NR }
		END { exit !(t && h && h < t) }' ||
		fail "$spec: kt_hot (no faults) not above kt_touch: $(kt_rows $name.out | head -6)"
done
# with decay too (counts are decayed integers: allow the rounding)
kt evdecay -b -n 3 -d 0.5 -e cpu-clock -e page-faults -p $fp
frames evdecay 3 && { why=$(weight_order evdecay) && ok "decayed: weight order" || fail "decayed: $why"; }

# --- -K / -U on a workload with both -------------------------------------
# (cpu-clock runs on one process go four at a time: most of a run is
# the wait for its frames, while the helper burns a CPU)
kt_spawn both -b -n 2 -d 0.5 -e cpu-clock -p $fp
kt_spawn hidek -b -n 2 -d 0.5 -e cpu-clock -K -p $fp
kt_spawn hideu -b -n 2 -d 0.5 -e cpu-clock --hide-user -p $fp
kt_spawn ent2 -b -n 2 -d 0.5 -e cpu-clock --entries 2 -p $fp
kt_reap both
kt_rows both.out | grep -q ' \[k\] ' && kt_rows both.out | grep -q ' \[\.\] ' ||
	fail "faults helper: not both kernel and user rows: $(kt_rows both.out | head)"
kt_reap hidek
frames hidek 2
! kt_rows hidek.out | grep -q ' \[k\] ' && kt_rows hidek.out | grep -q ' \[\.\] ' &&
	ok "-K: no kernel rows" || fail "-K: $(kt_rows hidek.out | head -5)"
kt_reap hideu
frames hideu 2
! kt_rows hideu.out | grep -q ' \[\.\] ' && kt_rows hideu.out | grep -q ' \[k\] ' &&
	ok "--hide-user: no user rows" || fail "-U: $(kt_rows hideu.out | head -5)"

# --- --percent-limit, -E --------------------------------------------------
kt_spawn lim -b -n 2 -d 0.5 -e cpu-clock --percent-limit 50 -p $hp
kt_spawn lim5 -b -n 2 -d 0.5 -e cpu-clock --percent-limit 5 -p $hp
kt_spawn ent -b -n 2 -d 0.5 -e cpu-clock -E 1 -p $hp
kt_spawn per -b -n 2 -d 0.5 -e cpu-clock -c 1000000 -p $hp
kt_reap lim
frames lim 2
[ "$(kt_rows lim.out | awk '{ print $4 }')" = kt_hot ] &&
	ok "--percent-limit 50: kt_hot alone" || fail "--percent-limit 50: $(kt_rows lim.out)"
kt_reap lim5
kt_rows lim5.out | awk '{ v = $1; sub("%", "", v); if (v + 0 < 5) exit 1 }' &&
	kt_rows lim5.out | grep -q ' kt_warm ' &&
	ok "--percent-limit 5: $(kt_rows lim5.out | wc -l) rows, all >= 5%" ||
	fail "--percent-limit 5: $(kt_rows lim5.out)"
kt_reap ent
frames ent 2
[ "$(kt_rows ent.out 1 | wc -l)" -le 1 ] && [ "$(kt_rows ent.out | awk '{ print $4 }')" = kt_hot ] &&
	ok "-E 1: one row" || fail "-E 1: $(kt_rows ent.out)"
kt_reap ent2
[ "$(kt_rows ent2.out | wc -l)" -eq 2 ] && ok "--entries 2: two rows" ||
	fail "--entries 2: $(kt_rows ent2.out)"

# --- -c: a period ---------------------------------------------------------
kt_reap per
frames per 2
kt_head per.out | grep -Eq ' cpu-clock every 1000000 ' && ok "-c: $(kt_head per.out)" ||
	fail "-c 1000000 header: '$(kt_head per.out)'"
kill $fp

# --- -F above the kernel's limit: clipped, with a notice ------------------
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
kt clip -b -n 1 -d 0.3 -e cpu-clock -F $((max * 2)) -p $hp
frames clip 1
hz=$(kt_head clip.out | sed -n 's/.* cpu-clock \([0-9]*\) Hz .*/\1/p')
[ -n "$hz" ] && [ "$hz" -le "$max" ] && grep -q 'perf_event_max_sample_rate' clip.err &&
	ok "-F $((max * 2)): $hz Hz, notice: $(cat clip.err)" ||
	fail "-F above the maximum: '$hz' Hz, stderr: $(cat clip.err)"
kill $hp

# --- -z against decay, on a target that stops (SIGSTOP) --------------------
# After the stop no sample arrives: decay keeps 7/8 of each count per
# refresh, zero leaves no counts.  Exact, whatever the machine's load.
for mode in decay zero; do
	spawn_ready "$H" hot 0 || fail "helper for $mode did not start"
	sp=$spawned
	z=
	[ $mode = zero ] && z=-z
	: > $mode.out	# read below before the job may have made it
	timeout 30 "$KT" -b $z -n 8 -d 0.5 -e cpu-clock -p $sp > $mode.out 2> $mode.err &
	kp=$!
	n=0
	# (the shell may not have made $mode.out yet: none counts 0)
	while [ "$(cat $mode.out 2>/dev/null | grep -c '^kerneltop: [0-9]* samples/s')" -lt 2 ] &&
	      [ $n -lt 100 ]; do
		sleep 0.1; n=$((n + 1))
	done
	kill -STOP $sp
	wait $kp
	rc=$?
	kill -CONT $sp
	frames $mode 8 || continue
	kt_target $mode.out | grep -q "($mode)   sampling: " || fail "-z: '$(kt_target $mode.out)' (want ($mode))"
	kt_head $mode.out | grep -q '^kerneltop: 0 samples/s ' ||
		fail "$mode: stopped target, last frame: $(kt_head $mode.out)"
	c6=$(kt_rows $mode.out 6 | awk '$4 == "kt_hot" { print $2 }')
	c7=$(kt_rows $mode.out 7 | awk '$4 == "kt_hot" { print $2 }')
	c8=$(kt_rows $mode.out 8 | awk '$4 == "kt_hot" { print $2 }')
	if [ $mode = decay ]; then
		# integer counts decay as count * 7 / 8; allow 1 for rounding
		[ -n "$c6" ] && [ -n "$c7" ] && [ -n "$c8" ] &&
		awk -v a="$c6" -v b="$c7" -v c="$c8" 'BEGIN {
			d1 = b - a * 7 / 8; d2 = c - b * 7 / 8
			exit !(a > 50 && d1 <= 1 && d1 >= -1 && d2 <= 1 && d2 >= -1) }' &&
			ok "decay: kt_hot $c6 -> $c7 -> $c8 (x7/8)" ||
			fail "decay: kt_hot '$c6' -> '$c7' -> '$c8'"
	else
		left=$(kt_rows zero.out 7; kt_rows zero.out 8)
		[ -z "$(printf '%s' "$left" | awk '$2 > 0')" ] &&
			[ "$(total zero 2)" -gt 0 ] &&
			ok "zero: frame 2 has $(total zero 2) samples, frames 7-8 none" ||
			fail "zero: frames 7-8 still count: $left"
	fi
	kill $sp
done

# --- names from the target are printed, never obeyed ---------------------
# a command name and a file name that are terminal control sequences (OSC
# 2, "set the title"): the frames must hold no control byte at all
evil=$(printf 'kt\033]2;pwn\007')
cp "$H" "./$evil"
spawn_ready "./$evil" evil 0 || fail "evil helper did not start"
kt evil -b -n 2 -d 0.5 -e cpu-clock -s comm,sym -p $spawned
frames evil 2
n=$(LC_ALL=C grep -c '[[:cntrl:]]' evil.out)
[ "$n" -eq 0 ] && kt_rows evil.out | grep -q ' kt_hot ' &&
	ok "control bytes in comm and path: shown escaped ($(kt_rows evil.out | head -1 | tr -s ' '))" ||
	fail "$n lines with control bytes: $(LC_ALL=C grep '[[:cntrl:]]' evil.out | head -2 | cat -v)"
kill $spawned

# --- a -p target that exits: a message, exit 0 ----------------------------
spawn_ready "$H" hot 3000 || fail "short helper did not start"
sp=$spawned
kt gone -b -d 0.5 -e cpu-clock -p $sp
[ $rc -eq 0 ] && grep -qx "kerneltop: process $sp exited" gone.err gone.out 2>/dev/null &&
	kt_rows gone.out 1 | grep -q ' kt_hot ' &&
	ok "target exits: '$(grep -h exited gone.err gone.out)', exit 0" ||
	fail "target exits: rc $rc, $(cat gone.err)"

# --- as a user who may not sample the system ------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if have root && have setpriv && [ "$paranoid" -ge 1 ]; then
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	spawn_ready $nobody "$H" hot 0 || fail "helper as nobody did not start"
	timeout 20 $nobody "$KT" -b -n 2 -d 0.5 -e cpu-clock > np.out 2> np.err
	rc=$?
	frames np 2
	name=$(getent passwd 65534 | cut -d: -f1)
	# the spec leaves the words to the program: "user nobody" or
	# "your tasks (uid 65534)" both say whose tasks these are
	kt_target np.out | grep -Eq "^target: (user ($name|65534)|your tasks \(uid 65534\))$oncpus  " ||
		fail "non-root target: '$(kt_target np.out)'"
	grep -q 'perf_event_paranoid' np.err && grep -q 'CAP_PERFMON' np.err &&
		ok "non-root banner: $(head -2 np.err | tr '\n' ' ')" ||
		fail "non-root banner (paranoid $paranoid): $(cat np.err)"
	kt_rows np.out | grep -q ' kt_hot ' || fail "non-root: no kt_hot of nobody's helper"
	if [ "$paranoid" -ge 2 ]; then
		! kt_rows np.out | grep -q ' \[k\] ' && ok "paranoid $paranoid: no kernel rows" ||
			fail "paranoid $paranoid: kernel rows as nobody"
	fi
else
	for p in root setpriv; do have $p || without $p "the non-root case"; done
	[ "$paranoid" -ge 1 ] || echo "note: perf_event_paranoid $paranoid: the non-root case not run"
fi
done_testing
