#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bigproc.sh - kerneltop -p on a process of 3,000 threads, more than
# 'ulimit -n 4096' allows per-thread counters for (3000 x the CPUs): it
# stopped with "too many open files" (so does perf record -p there); now
# it picks another scheme, says which, and its table is the target's
# alone, in the shares perf gives.  The target (tests/helpers/threads)
# has two busy threads that run hot_a for twice the CPU time of hot_b
# and 2,998 asleep; a decoy process spins in decoy_spin beside it.  Each
# run is kerneltop -b -z (5 frames of 1 s) with perf record -p on the
# same target at the same time, at the default limit; hot_a's part of
# hot_a + hot_b must be within TOL points of perf's, every row the
# target's pid, no decoy_spin.
#   cpus     ulimit -n 4096: per-CPU counters, kept to the target's pid
#   cgroup   the same, the target alone in a cgroup: a cgroup counter
#   threads  ulimit -n 16384: per-thread counters, as before
#   busiest  as user nobody (paranoid >= 1 refuses per-CPU counters),
#            ulimit -n 4096: per-thread counters on the busiest threads
#
# Measured here (2 vCPUs, two busy loops beside, other work running): 4
# runs, 16 comparisons: the largest difference from perf 1.02 points, the
# mean 0.35.  TOL is the 2 points.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event perf root

H="$top_builddir/tests/helpers/threads"
N=3000 F=8000 D=1 FR=5
TOL=${BIGPROC_TOL:-2}
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || skip "one CPU: per-thread counters for 3000 threads fit 4096"

spawn_ready "$H" $N || fail "helper did not start"
tp=$spawned
spawn_ready "$H" decoy || fail "decoy did not start"
dp=$spawned
[ "$(ls /proc/$tp/task | wc -l)" -eq $N ] || fail "helper: $(ls /proc/$tp/task | wc -l) threads, not $N"

# run NAME WHO LIMIT SCHEME-ERE: kerneltop -b -z as WHO ("" for root or
# a setpriv prefix) under 'ulimit -n LIMIT', perf record beside it.
run() {
	local name=$1 who=$2 limit=$3 ere=$4 rc
	perf record -q -e cpu-clock -F $F -p $tp -o $name.data \
		-- sleep $((D * FR)) > $name.perf 2>&1 &
	pp=$!
	( ulimit -n $limit && exec $who timeout 60 "$KERNELTOP" -b -z \
		-e cpu-clock -F $F -d $D -n $FR -s pid,sym -p $tp ) \
		> $name.out 2> $name.err
	rc=$?
	wait $pp || fail "$name: perf record failed: $(tail -3 $name.perf)"
	if [ $rc -ne 0 ] || [ "$(kt_frames $name.out)" != $FR ]; then
		fail "$name: exit $rc, frames $(kt_frames $name.out): $(head -3 $name.err)"
		return
	fi
	kt_target $name.out | grep -Eq "   sampling: $ere\$" &&
		ok "$name: $(kt_target $name.out | sed 's/.*sampling: /sampling: /')" ||
		fail "$name: scheme: '$(kt_target $name.out)' (want $ere)"
	# every frame's rows: "PCT SAMPLES PID [m] SYM DSO"
	i=1
	: > $name.rows
	while [ $i -le $FR ]; do
		kt_rows $name.out $i >> $name.rows
		i=$((i + 1))
	done
	awk -v p=$tp '$3 != p' $name.rows > $name.foreign
	[ -s $name.foreign ] && fail "$name: rows of other tasks: $(head -3 $name.foreign)"
	grep -q decoy_spin $name.rows && fail "$name: the decoy's decoy_spin is in the table"
	# hot_a's part of hot_a + hot_b (with user space alone, as in the
	# busiest run, the kernel's samples would change shares of the whole)
	awk '$5 == "hot_a" { a += $2 } $5 == "hot_b" { b += $2 }
		END { if (a + b) printf "%.2f\n", 100 * a / (a + b) }' \
		$name.rows > $name.kt
	perf report -q --stdio -i $name.data --no-children --sort sym \
		2> /dev/null | awk '$1 ~ /%$/ { sub("%", "", $1); n[$3] = $1 }
		END { a = n["hot_a"]; b = n["hot_b"]
			if (a + b) printf "%.2f\n", 100 * a / (a + b) }' > $name.pf
	k=$(cat $name.kt) p=$(cat $name.pf)
	if [ -n "$k" ] && [ -n "$p" ] && awk -v a="$k" -v b="$p" -v t=$TOL \
		'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; then
		ok "$name: hot_a of hot_a + hot_b: perf $p%, kerneltop $k%"
	else
		fail "$name: hot_a of hot_a + hot_b: perf '$p'%, kerneltop '$k'% (more than $TOL points apart)"
	fi
}

need_fds="$N threads x $ncpu CPUs would need $((N * ncpu)) descriptors"
run cpus "" 4096 "per-CPU counters filtered to pid $tp \\($need_fds; limit 4096\\)"

# alone in a cgroup of its own: the kernel filters.  The hierarchy is
# perf's: v1's perf_event one where it is mounted, else v2's.
cgmnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
if [ -n "$cgmnt" ]; then
	old=$(awk -F: '$2 ~ /(^|,)perf_event(,|$)/ { print $3 }' /proc/$tp/cgroup)
else
	cgmnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	old=$(sed -n 's/^0:://p' /proc/$tp/cgroup)
fi
cg=pctools-bigproc-$$
if [ -n "$cgmnt" ] && [ -n "$old" ] && mkdir "$cgmnt/$cg" 2> /dev/null; then
	at_exit "rmdir '$cgmnt/$cg' 2>/dev/null"
	# back where it was before the directory goes
	at_exit "echo $tp > '$cgmnt$old/cgroup.procs' 2>/dev/null"
	if echo $tp > "$cgmnt/$cg/cgroup.procs"; then
		run cgroup "" 4096 "per-CPU counters on cgroup /$cg, pid $tp alone in it \\($need_fds; limit 4096\\)"
		echo $tp > "$cgmnt$old/cgroup.procs" || fail "cannot move $tp back to $old"
	else
		fail "cannot move $tp into cgroup $cg"
	fi
else
	echo "note: no cgroup could be made under '$cgmnt': the cgroup scheme not run"
fi

run threads "" 16384 "per-thread counters \\($N threads x $ncpu CPUs = $((N * ncpu)) descriptors; limit 16384\\)"

# another user: per-CPU counters refused above paranoid 0
if have setpriv && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	chmod 755 "$tmpdir"
	cp "$H" ./threads-nobody && chown 65534 threads-nobody
	nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	kill $tp
	spawn_ready $nobody ./threads-nobody $N || fail "nobody's helper did not start"
	tp=$spawned
	run busiest "$nobody" 4096 "per-thread counters on the [0-9]+ busiest of $N threads \\($need_fds; limit 4096; per-CPU counters not allowed at perf_event_paranoid [0-9]+ .*\\)"
	grep -q "sampling the [0-9]* busiest of $N threads" busiest.err &&
		ok "busiest: $(cat busiest.err)" || fail "busiest: no notice: $(cat busiest.err)"
elif have setpriv; then
	echo "note: perf_event_paranoid 0 or below lets any user count per CPU: the busiest scheme not run"
else
	without setpriv "the busiest-threads scheme as another user"
fi
kill $dp
done_testing
