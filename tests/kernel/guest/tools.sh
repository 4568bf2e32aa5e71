#!/bin/busybox sh
# tools.sh - in the patched guest: the project's own library tests and
# tools on the 2008 backend, checked against ground truth and against the
# perf_event_open backend in the same guest.  Prints "PCTEST PASS|FAIL".
# Run by /init when run.sh found a build (PCTOOLS_BUILD).
export LD_LIBRARY_PATH=/lib/pctools
pass() { echo "PCTEST PASS $1"; }
failt() { echo "PCTEST FAIL $1: $2"; }
# expect NAME COND-DESCRIPTION COMMAND...: PASS when COMMAND succeeds.
expect() {
	name=$1 why=$2
	shift 2
	if "$@"; then pass "$name"; else failt "$name" "$why"; fi
}
between() { [ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ]; }
# mknobody: a user "nobody" for the unprivileged checks; asnobody CMD:
# CMD (a line of shell) as nobody.
mknobody() {
	mkdir -p /etc
	grep -q '^nobody:' /etc/passwd 2>/dev/null ||
		echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
	grep -q '^nobody:' /etc/group 2>/dev/null ||
		echo 'nobody:x:65534:' >> /etc/group
}
asnobody() { su -s /bin/sh nobody -c "$*"; }
# retry N CMD...: CMD until it succeeds, N tenths of a second at most.
retry() {
	n=$1
	shift
	until "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# 1. libsysapi's own suites: the legacy one, and the mainline one on the
#    same kernel (the patch must not disturb perf_event_open).
if [ -x /bin/test-legacy ]; then
	PCTOOLS_BACKEND=legacy /bin/test-legacy > /tmp/tl.out 2>&1
	rc=$?
	expect sysapi-test-legacy "exit $rc: $(grep FAIL /tmp/tl.out | head -3)" [ $rc -eq 0 ]
	sed 's/^/# test-legacy: /' /tmp/tl.out | tail -4
fi
if [ -x /bin/test-count ]; then
	/bin/test-count > /tmp/tc.out 2>&1
	rc=$?
	expect sysapi-test-count-mainline "exit $rc: $(grep FAIL /tmp/tc.out | head -3)" [ $rc -eq 0 ]
fi

# 2. pcstat on the legacy backend: page faults of N pages, CPU time of a
#    spin, and the same figures on perf_event_open.
if [ -x /bin/pcstat ]; then
	# CSV: value,unit,event,...
	csv() { awk -F, -v e="$1" '$3 == e { print int($1) }' "$2"; }
	PCTOOLS_BACKEND=legacy pcstat -x, -e page-faults,task-clock -o /tmp/l.csv -- touch-pages 2000
	rc=$?
	pcstat -x, -e page-faults,task-clock -o /tmp/m.csv -- touch-pages 2000 \
		2> /tmp/m.err
	mrc=$?
	lf=$(csv page-faults /tmp/l.csv)
	mf=$(csv page-faults /tmp/m.csv)
	expect pcstat-legacy-runs "exit $rc" [ $rc -eq 0 ]
	expect pcstat-legacy-page-faults "legacy $lf for 2000 pages" between "${lf:-0}" 2000 2300
	d=$(( ${lf:-0} - ${mf:-0} ))
	# the whole of what perf_event_open's run printed when they differ
	# (once in CI: "perf_event 0", not seen in 450 runs since)
	expect pcstat-legacy-vs-mainline-faults "legacy $lf, perf_event $mf (exit $mrc: $(grep -v '^#' /tmp/m.csv | tr '\n' '|') $(head -c 300 /tmp/m.err | tr '\n' '|'))" \
		between "${d#-}" 0 20
	PCTOOLS_BACKEND=legacy pcstat -x, -e task-clock,user_time,system_time \
		-o /tmp/l2.csv -- spin 300 > /dev/null
	# task-clock (ms in perf's CSV) holds spin's 300 ms of CPU time and
	# at most the CPU time of its whole life, user_time + system_time
	# (ns): the child's rusage from wait4(), not the CPU time spin reads
	# before it exits, since under TCG a host stall in its exit counts
	# as CPU time too.
	tc=$(awk -F, '$3 == "task-clock" { print int($1 * 1000) }' /tmp/l2.csv)
	ru=$(awk -F, '$3 == "user_time" || $3 == "system_time" { t += $1 }
		END { print int(t / 1000) }' /tmp/l2.csv)
	expect pcstat-legacy-task-clock "task-clock ${tc} us vs rusage ${ru} us, spin 300 ms" \
		between "${tc:-0}" 297000 $(( ${ru:-0} * 102 / 100 + 10000 ))
	head -3 /tmp/l.csv | sed 's/^/# pcstat legacy: /'
	# No inherit, no groups on the 2008 call: a group's members count
	# one by one, each notice is one line, and -q silences them.
	pcstat --legacy -x, -e '{page-faults,task-clock}' -o /tmp/g.csv -- touch-pages 1000 2> /tmp/g.err
	gf=$(csv page-faults /tmp/g.csv)
	expect pcstat-legacy-group "page-faults ${gf:-none} for 1000 pages, $(wc -l < /tmp/g.err) notices" \
		sh -c "[ $(wc -l < /tmp/g.err) -eq 2 ] && [ ${gf:-0} -ge 1000 ] && [ ${gf:-0} -le 1300 ]"
	pcstat --legacy -q -e page-faults -- touch-pages 10 2> /tmp/q.err
	expect pcstat-legacy-quiet "-q printed $(head -c 100 /tmp/q.err)" [ ! -s /tmp/q.err ]
fi

# 3. monitor on the legacy backend: the IRQ records, 2008 style and
#    symbolized; hot_spin must top the profile.  spin does a fixed amount
#    of work (--rounds), not so many ms of CPU time: under TCG on a loaded
#    host the guest's CPU clock also counts the host's stalls and the
#    cpu-clock timer fires once for all the periods a stall skipped, so
#    that a spin of 400 ms could be little work and few samples, while
#    the exec and the loader, a fixed amount of work, keep theirs.
#    $rounds take about 400 ms of CPU on an idle host (QEMU TCG on
#    x86_64; -icount shift=0 on arm64).
case $(uname -m) in
aarch64) rounds=250 ;;
*) rounds=560 ;;
esac
if [ -x /bin/monitor ]; then
	monitor --legacy --raw -e cpu-clock -c 1000000 -- spin --rounds $((rounds * 3 / 4)) \
		> /tmp/raw.out 2>/tmp/raw.err
	n=$(grep -c '^IP: 0x[0-9a-f]\{16\}$' /tmp/raw.out)
	# At most one a ms of spin's CPU time (it prints it: us); ~300 on
	# an idle host, 50 and more seen with 4 CPU hogs on the 2 host CPUs.
	cpu=$(grep -x '[0-9]*' /tmp/raw.out)
	expect monitor-legacy-raw "$n 'IP: 0x...' lines for ${cpu:-?} us of CPU ($(head -c 200 /tmp/raw.err))" \
		between "$n" 10 $(( ${cpu:-0} / 1000 + 20 ))
	echo "# monitor legacy --raw: $n IPs for ${cpu:-?} us of CPU"
	# The shares are of the user-space samples: root's counter counts
	# the kernel too, and under TCG on a loaded host the guest kernel's
	# catch-up after a stall (softirqs) can take half of them, in
	# whatever task was running.
	monitor --legacy -e cpu-clock -c 1000000 --summary --top 1000 -- spin --rounds $rounds \
		> /tmp/sum.out 2>&1
	share=$(awk '$2 ~ /%$/ && $1 ~ /^[0-9]+$/ && NF >= 4 {
			if ($4 != "[kernel.kallsyms]") u += $1
			if ($3 == "hot_spin") h = $1 }
		END { if (u > 0) print int(h * 100 / u) }' /tmp/sum.out)
	expect monitor-legacy-hot-spin "hot_spin ${share:-no}% of the user-space samples" \
		between "${share:-0}" 70 100
	# Every line of a whole run: under TCG the exec and the dynamic
	# loader take the first ~50 samples, so judge the share, not a prefix.
	monitor --legacy -e cpu-clock -c 1000000 -- spin --rounds $rounds > /tmp/text.out 2>/dev/null
	pat=' hot_spin+0x[0-9a-f]* .*spin spin.c:[0-9]*$'
	n=$(grep -c "$pat" /tmp/text.out)
	all=$(grep ' - 0x[0-9a-f]* ' /tmp/text.out | grep -vc ' \[kernel\.kallsyms\]$')
	expect monitor-legacy-file-line "$n of $all user-space lines are hot_spin+off spin.c:N" \
		between $(( n * 100 / (all > 0 ? all : 1) )) 70 100
	grep -v "$pat" /tmp/text.out | head -3 | sed 's/^/# other: /' 
	sed 's/^/# monitor legacy: /' /tmp/sum.out | head -4
fi

# 3b. kerneltop -b needs no terminal: with TERM unset and TERM=dumb, the
#     task table and the profile, N frames, exit 0 (arm64: linked
#     statically with ncurses; x86_64: with this build's libraries).
if [ -x /bin/kerneltop ]; then
	env -u TERM kerneltop --tasks -b -d 0.5 -n 2 -e cpu-clock \
		> /tmp/ktb.out 2> /tmp/ktb.err
	rc=$?
	nf=$(grep -c '^kerneltop tasks:' /tmp/ktb.out)
	expect kerneltop-batch-no-term "exit $rc, $nf frames of 2: $(head -c 200 /tmp/ktb.err)" \
		sh -c "[ $rc -eq 0 ] && [ $nf -eq 2 ]"
	TERM=dumb kerneltop -b -d 0.5 -n 1 -e cpu-clock > /tmp/ktd.out 2> /tmp/ktd.err
	rc=$?
	expect kerneltop-batch-term-dumb "exit $rc, $(wc -l < /tmp/ktd.out) lines: $(head -c 200 /tmp/ktd.err)" \
		sh -c "[ $rc -eq 0 ] && [ -s /tmp/ktd.out ]"
	head -3 /tmp/ktb.out | sed 's/^/# kerneltop --tasks -b: /'
fi

# 4. Hardware counters, in the guest that has a PMU (arm64: QEMU's
#    emulated PMUv3 under -icount shift=0, where user-space counts are
#    exact): /bin/loop N executes 8N + c user-space instructions, c fixed
#    by the number of digits of N, so every N below has 7.
if [ "$(uname -m)" = aarch64 ] && [ -x /bin/pcstat ]; then
	# num VALUE: VALUE when it is a whole number, else 0.
	num() { case $1 in ''|*[!0-9]*) echo 0 ;; *) echo "$1" ;; esac; }
	# val EVENT CSV-FILE: the counts of EVENT's lines, one a line.
	val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }
	N1=1000000 N2=3000000 N3=9000000

	pcstat -x, -e instructions:u,cycles:u -o /tmp/h1.csv -- loop $N1
	pcstat -x, -e instructions:u,cycles:u -o /tmp/h2.csv -- loop $N2
	i1=$(num "$(val instructions:u /tmp/h1.csv)")
	i2=$(num "$(val instructions:u /tmp/h2.csv)")
	c=$((i1 - 8 * N1))
	expect hw-instructions-exact \
		"loop $N1: $i1 = 8N + $c, loop $N2: $i2 = 8N + $((i2 - 8 * N2))" \
		sh -c "[ $c -eq $((i2 - 8 * N2)) ] && [ $c -gt 0 ] && [ $c -lt 100 ]"
	sed 's/^/# loop '$N1': /' /tmp/h1.csv
	# perf's metric: instructions over cycles, two decimals, in CSV
	# and on the standard layout's instructions line.
	cy=$(num "$(val cycles:u /tmp/h1.csv)")
	ipc=$(awk -F, '$3 == "instructions:u" { print $6 }' /tmp/h1.csv)
	want=$(awk -v i="$i1" -v c="$cy" 'BEGIN { if (c > 0) printf "%.2f", i / c }')
	pcstat -e instructions:u,cycles:u -- loop $N1 2> /tmp/h1.txt
	expect hw-ipc-metric "CSV '$ipc' for $i1/$cy = $want; $(grep instructions /tmp/h1.txt)" \
		sh -c "[ -n '$want' ] && [ '$ipc' = '$want' ] &&
		       grep -Eq 'instructions:u +# +$want +insn per cycle' /tmp/h1.txt"

	# perf's default set: instructions and cycles count here.
	pcstat -x, -o /tmp/def.csv -- loop $N1
	di=$(num "$(val instructions /tmp/def.csv)")
	dc=$(num "$(val cycles /tmp/def.csv)")
	expect hw-default-set "instructions $di, cycles $dc (user part: $i1)" \
		sh -c "[ $di -ge $i1 ] && [ $di -le $((i1 * 2)) ] && [ $dc -ge $i1 ]"

	# 12 instructions:u at once on 6 counters: multiplexed, scaled to
	# within 1% of the exact count; --no-scale prints the raw counts
	# that -v shows, and those scaled by enabled/running are right too.
	exact=$((8 * N3 + c))
	ev=
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ev="$ev -e instructions:u"; done
	pcstat -x, $ev -o /tmp/mux.csv -- loop $N3
	# |v - exact| / exact, in units of 0.01%, the worst line
	worst() {
		awk -F, -v x="$exact" '$3 == "instructions:u" {
			d = $1 - x; if (d < 0) d = -d; d = d * 10000 / x
			if (d > w) w = d; n++ }
			END { printf "%d %d\n", n, w }' "$1"
	}
	set -- $(worst /tmp/mux.csv)
	low=$(awk -F, '$3 == "instructions:u" && $5 + 0 < 100 { n++ } END { print n + 0 }' /tmp/mux.csv)
	expect hw-multiplex-scaled "$1 lines, $low below 100% running, worst error $2/10000 of $exact" \
		sh -c "[ $1 -eq 12 ] && [ $low -ge 1 ] && [ $2 -le 100 ]"
	echo "# multiplex: 12 lines, worst scaled error $2 in 10000 of $exact"
	head -2 /tmp/mux.csv | sed 's/^/# multiplex: /'
	pcstat $ev -- loop $N3 2> /tmp/mux.txt
	expect hw-multiplex-pct "no '(NN.NN%)' running share in the standard layout" \
		grep -Eq 'instructions:u .*\([0-9]+\.[0-9]{2}%\)$' /tmp/mux.txt
	pcstat -v --no-scale -x, $ev -o /tmp/raw.csv -- loop $N3 2> /tmp/raw.v
	# -v: "instructions:u: RAW ENABLED RUNNING", in the lines' order
	awk '$1 == "instructions:u:" { print $2, $3, $4 }' /tmp/raw.v > /tmp/raw.erv
	val instructions:u /tmp/raw.csv > /tmp/raw.vals
	bad=$(paste -d' ' /tmp/raw.vals /tmp/raw.erv | awk -v x="$exact" '
		NF != 4 || $1 != $2 { b++; next }	# printed = raw
		$4 >= $3 { b++; next }			# multiplexed
		{ e = $2 * $3 / $4 - x; if (e < 0) e = -e
		  if (e * 100 > x) b++ }		# raw * ena / run
		END { print b + 0 }')
	expect hw-no-scale-raw "$bad of $(wc -l < /tmp/raw.vals) lines not raw, not multiplexed or off by > 1% scaled" \
		sh -c "[ $bad -eq 0 ] && [ $(wc -l < /tmp/raw.vals) -eq 12 ]"

	# The 95% intervals of multiplexed counts (pcstat.1, MULTIPLEXING
	# INTERVALS): 12 events on 6 counters, ten instructions:u and two
	# cycles:u, read every 5 ms, beside a pinned instructions:uD that
	# runs all the time and so counts the truth exactly.  -D 20: from
	# 20 ms on, past the exec's start-up, so the kernel's rotation (which
	# starts at the enable) is unrelated to the program's phases, as the
	# interval assumes.  Every instructions:u line's interval (CSV field
	# 8, after perf's) covers the pinned count in every run, and narrows,
	# relative to it, when the run is 3 times longer.
	ev=
	for i in 1 2 3 4 5 6 7 8 9 10; do ev="$ev -e instructions:u"; done
	ev="$ev -e cycles:u -e cycles:u"
	# cover FILE TRUTH: lines, multiplexed, width unknown, missed, sum of
	# the relative half-widths of FILE's instructions:u lines; LINE: each
	# "running%:error/half-width"
	cover() {
		awk -F, -v x="$2" '$3 == "instructions:u" {
			n++; d = $1 - x; if (d < 0) d = -d
			l = l sprintf(" %s%%:%+d/%s", $5, $1 - x, $8)
			if ($5 + 0 >= 100) { if (d != 0) b++; next }
			m++
			if ($8 == "") { u++; next }
			if (d > $8 + 0) b++
			w += $8 / x }
			END { printf "%d %d %d %d %.8f%s\n", n, m, u, b, w, l }' "$1"
	}
	# mux_set N: three runs of loop N; their lines, multiplexed, unknown,
	# missed and the sum of the half-widths in lines mux unknown miss w,
	# each run's figures into /tmp/mux.log (shown after the runs: the
	# console's output is not drained while a run counts)
	mux_set() {
		miss=0 lines=0 mux=0 unknown=0 w=0 ml=$1
		for k in 1 2 3; do
			pcstat --mux-tick 5 -D 20 -x, -e instructions:uD $ev \
				-o /tmp/ci.csv -- loop $ml 2> /dev/null
			x=$(num "$(val instructions:uD /tmp/ci.csv)")
			# (a missing file: five zeros, never a shift too many)
			set -- $(cover /tmp/ci.csv "$x" 2>/dev/null || :) 0 0 0 0 0
			lines=$((lines + $1)) mux=$((mux + $2))
			unknown=$((unknown + $3)) miss=$((miss + $4))
			w=$(awk -v a="$w" -v b="$5" 'BEGIN { printf "%.8f", a + b }')
			shift 5
			l="$*"
			echo "# mux ci loop $ml run $k, pinned $x:${l% 0 0 0 0 0}" >> /tmp/mux.log
		done
	}
	rel1=
	for N in $((3 * N3)) $((9 * N3)); do
		: > /tmp/mux.log
		mux_set $N
		# In 2 of 19 guest sessions on a loaded host the rotation went
		# irregular for a while (running shares 39-53% where they are
		# otherwise 40/42/49-51%; 4 of 57 runs of the long loop), and
		# a run then missed on 9 to 19 of its 10 lines by 2-4
		# half-widths: the kernel's time inside the task fell
		# unevenly on the events, a bias no interval from the
		# counters' own ticks sees.  A set that misses is run again,
		# three sets at most: an estimator that errs misses in every
		# one.
		try=1
		while [ $miss -ne 0 ] && [ $try -lt 3 ]; do
			cat /tmp/mux.log
			echo "# mux ci loop $N: $miss of $lines missed: the set once more"
			: > /tmp/mux.log
			mux_set $N
			try=$((try + 1))
		done
		cat /tmp/mux.log
		rel=$(awk -v w="$w" -v n="$((mux - unknown))" 'BEGIN { printf "%.6f", (n > 0) ? 100 * w / n : 0 }')
		echo "# mux ci loop $N: $lines lines, $mux multiplexed, $unknown unknown, $miss missed, mean half-width $rel%"
		expect "hw-mux-ci-covers-$N" "$miss of $lines lines' intervals miss the pinned count ($mux multiplexed, $unknown unknown)" \
			sh -c "[ $lines -eq 30 ] && [ $mux -ge 3 ] && [ $unknown -eq 0 ] && [ $miss -eq 0 ]"
		[ -z "$rel1" ] && rel1=$rel
	done
	expect hw-mux-ci-narrows "mean half-width $rel1% at loop $((3 * N3)), $rel% at 3x" \
		awk -v a="$rel1" -v b="$rel" 'BEGIN { exit !(b > 0 && b < a) }'
	# From the exec, the rotation is in step with the program's start:
	# the six events scheduled first see the exec's kernel time (:u
	# counts nothing there), the others never do, and perf's scaling is
	# off by about 1e5 instructions either way, which no interval drawn
	# from a counter's own ticks can see (pcstat.1 says so).  Shown,
	# not checked.
	pcstat --mux-tick 5 -x, $ev -o /tmp/ci.csv -- loop $N3
	set -- $(cover /tmp/ci.csv $((8 * N3 + c)) 2>/dev/null || :) 0 0 0 0 0
	n=$1 b=$4
	shift 5
	l="$*"
	echo "# mux ci from the exec, loop $N3 (exact $((8 * N3 + c))), $b of $n missed:${l% 0 0 0 0 0}"
	pcstat --mux-tick 5 $ev -- loop $N3 2> /tmp/ci.txt
	expect hw-mux-ci-std "no interval line below a multiplexed one: $(grep -m1 instructions:u /tmp/ci.txt)" \
		grep -Eq '^# +.*instructions:u +# [0-9.]+ .*insn per cycle \([0-9]+% measured\)$' /tmp/ci.txt
	awk '/instructions:u/ { print; getline; print; exit }' /tmp/ci.txt | sed 's/^/# mux ci std: /'

	# A group: one read(), one pair of times for both members.
	pcstat -v -x, -e '{cycles:u,instructions:u}' -o /tmp/grp.csv -- loop $N1 2> /tmp/grp.v
	gi=$(num "$(val instructions:u /tmp/grp.csv)")
	times=$(awk '$1 == "cycles:u:" || $1 == "instructions:u:" { print $3, $4 }' /tmp/grp.v | sort -u)
	nt=$(echo "$times" | grep -c .)
	same=$(echo "$times" | awk '{ print ($1 == $2 && $1 > 0) }' | head -1)
	expect hw-group-one-read "instructions $gi (alone: $i1), enabled/running: $(echo $times)" \
		sh -c "[ $gi -eq $i1 ] && [ $nt -eq 1 ] && [ '$same' = 1 ]"
	# A group larger than the PMU: the 8th member of {cycles, 7 x
	# instructions} is refused at open (arm_pmu checks that a group
	# fits), so as perf pcstat shows it <not supported> and the rest,
	# never scheduled without it, <not counted>: nothing counts.
	big='{cycles:u'
	for i in 1 2 3 4 5 6 7; do big="$big,instructions:u"; done
	pcstat -x, -e "$big}" -o /tmp/big.csv -- loop $N1 2> /tmp/big.err
	nc=$(grep -c '^<not counted>,' /tmp/big.csv)
	ns=$(grep -c '^<not supported>,,instructions:u,' /tmp/big.csv)
	expect hw-group-too-big-nothing-counted \
		"$nc <not counted> and $ns <not supported> of 8: $(head -c 200 /tmp/big.err)" \
		sh -c "[ $nc -eq 7 ] && [ $ns -eq 1 ]"
	grep -v "^#" /tmp/big.csv | grep . | sed 's/^/# group of 8: /'
	# A group that fits the PMU but not what is left of it, as beside
	# the NMI watchdog on x86: {cycles, 6 x instructions} needs every
	# counter, and a CPU-wide event holds one while it runs (one CPU),
	# so it opens and never runs: every member <not counted>.
	big='{cycles:u'
	for i in 1 2 3 4 5 6; do big="$big,instructions:u"; done
	pcstat -a -x, -e instructions:k -o /tmp/cpu.csv -- \
		pcstat -x, -e "$big}" -o /tmp/big7.csv -- loop $N1 2> /tmp/big7.err
	nc=$(grep -c '^<not counted>,' /tmp/big7.csv)
	ki=$(num "$(val instructions:k /tmp/cpu.csv)")
	expect hw-group-never-runs-not-counted \
		"$nc of 7 members <not counted> beside a CPU-wide count of $ki: $(head -c 200 /tmp/big7.err)" \
		sh -c "[ $nc -eq 7 ] && [ $ki -gt 0 ]"
	grep -v "^#" /tmp/big7.csv | grep . | head -2 | sed 's/^/# group of 7 beside a CPU-wide event: /'
	# ... and alone it counts, exactly.
	pcstat -x, -e "$big}" -o /tmp/fit.csv -- loop $N1
	fit7=$(val instructions:u /tmp/fit.csv | sort -u)
	expect hw-group-of-7-counts "instructions:u of the group alone: $(echo $fit7) (exact $i1)" \
		[ "$fit7" = "$i1" ]

	# monitor sampling cycles:u every P cycles of the loop: cycles / P
	# samples (cycles counted by pcstat, exact run to run under icount),
	# every one in loop().
	if [ -x /bin/monitor ]; then
		P=100000
		pcstat -x, -e cycles:u -o /tmp/mc.csv -- loop $N2
		mc=$(num "$(val cycles:u /tmp/mc.csv)")
		monitor -e cycles:u -c $P --summary -- loop $N2 > /tmp/ms.out 2>&1
		ns=$(num "$(sed -n 's/^monitor: \([0-9]*\) samples.*/\1/p' /tmp/ms.out)")
		share=$(awk '$3 == "loop" { print $2 }' /tmp/ms.out)
		expect hw-monitor-cycles-samples "$ns samples for $mc cycles:u every $P ($((mc / P)) expected)" \
			sh -c "[ $mc -gt 0 ] && [ $((ns * 100)) -ge $((mc / P * 99)) ] &&
			       [ $((ns * 100)) -le $((mc / P * 101 + 100)) ]"
		expect hw-monitor-ips-in-loop "loop() has ${share:-no} share of the samples" \
			[ "$share" = 100.00% ]
		head -4 /tmp/ms.out | sed 's/^/# monitor cycles:u: /'

		# Grouped sampling, -e '{cycles:u,instructions:u}:S': each
		# sample of loop() reads instructions; under -icount a cycle
		# is an instruction, so the instructions per sample are the
		# period P and IPC is 1.000, each within its 95% interval.
		monitor -e '{cycles:u,instructions:u}:S' -c $P --summary \
			--metric instructions:u --metric ipc -- loop $N2 \
			> /tmp/gr.out 2>&1
		# the loop row's cells: "RATE HALF RATE HALF"
		cells=$(awk '$(NF - 1) == "loop" { sub(/^[^0-9.]*/, "", $4)
			sub(/^[^0-9.]*/, "", $6); print $3, $4, $5, $6 }' \
			/tmp/gr.out)
		set -- $cells
		expect hw-group-read-insn-per-sample \
			"loop: ${1:-none} ±${2:-?} instructions a sample of $P cycles" \
			awk -v r="${1:-0}" -v h="${2:-x}" -v p=$P 'BEGIN {
				d = r - p; if (d < 0) d = -d
				exit !(h != "x" && d <= h && d * 1000 <= p) }'
		expect hw-group-read-ipc "loop: IPC ${3:-none} ±${4:-?}" \
			awk -v r="${3:-0}" -v h="${4:-x}" 'BEGIN {
				d = r - 1; if (d < 0) d = -d
				exit !(h != "x" && d <= h && d <= 0.001) }'
		grep -E 'samples|loop|monitor' /tmp/gr.out | head -4 |
			sed 's/^/# monitor {cycles:u,instructions:u}:S: /'
	fi

	# kerneltop's task table, each interval's counts (--tasks-raw), on
	# "loop N wait" (-p): the loop's instructions:u over the frames, the
	# one it exited in included, add up to 8N + a constant, the same as
	# pcstat -p -I counts on the same program, and in every frame its
	# cycles:u equal its instructions:u (one instruction a virtual ns
	# under -icount shift=0: IPC 1 per interval).  Both open their
	# counters on the loop waiting in read() and have counted a frame
	# (an interval) before the FIFO starts it.  As nobody at
	# perf_event_paranoid 2 the task table counts user space only
	# (the header says so): the kernel's share of a task's
	# instructions (interrupts, the exit) depends on what else runs.
	if [ -x /bin/kerneltop ]; then
		mknobody
		par=$(cat /proc/sys/kernel/perf_event_paranoid)
		echo 2 > /proc/sys/kernel/perf_event_paranoid
		N=100000000
		rm -f /tmp/go
		mkfifo -m 666 /tmp/go
		# waitloop: "loop $N wait" as nobody, its pid in $lp once it
		# waits in read() (state S after the exec)
		waiting() {
			[ "$(cat /proc/$lp/comm 2>/dev/null)" = loop ] &&
			[ "$(awk '{ print $3 }' /proc/$lp/stat 2>/dev/null)" = S ]
		}
		waitloop() {
			su -s /bin/sh nobody -c "exec loop $N wait 0<>/tmp/go" &
			lp=$!
			retry 300 waiting
		}
		waitloop
		kl=$lp
		asnobody kerneltop --tasks-raw -b -d 0.25 -n 40 -e cpu-clock -F 100 \
			-p $lp > /tmp/ktr.out 2> /tmp/ktr.err &
		kp=$!
		retry 600 grep -q '^kerneltop tasks:' /tmp/ktr.out
		echo > /tmp/go
		wait $lp
		wait $kp
		# frames, the loop's instructions and cycles summed, the
		# frames it counted in, whether the last said (exited), the
		# frames whose cycles differ from their instructions
		set -- $(awk -v tid=$kl '
			/^kerneltop tasks:/ { f++ }
			/^ +PID +TID / { for (i = 1; i <= NF; i++) col[$i] = i; next }
			col["instructions"] && $col["TID"] == tid &&
			$col["instructions"] != "-" {
				s += $col["instructions"]; c += $col["cycles"]
				if ($col["instructions"] > 0) n++
				if ($col["instructions"] != $col["cycles"]) d++
				ex = / \(exited\)$/
			}
			END { printf "%d %d %d %d %d %d\n", f, s, c, n, ex, d }' /tmp/ktr.out)
		kf=$1 ki=$2 kc=$3 kn=$4 kex=$5 kd=$6
		uo=$(grep -c 'user space only (perf_event_paranoid)' /tmp/ktr.out)
		waitloop
		pcstat -p $lp -I 100 -x, -e instructions:u,cycles:u -o /tmp/pcr.csv &
		pp=$!
		retry 600 grep -q 'instructions:u' /tmp/pcr.csv
		echo > /tmp/go
		wait $lp
		wait $pp
		pi=$(awk -F, '$4 == "instructions:u" { s += $2 } END { printf "%d", s }' /tmp/pcr.csv)
		pc=$(awk -F, '$4 == "cycles:u" { s += $2 } END { printf "%d", s }' /tmp/pcr.csv)
		echo "$par" > /proc/sys/kernel/perf_event_paranoid
		expect kerneltop-tasks-raw-instructions-exact \
			"loop $N: kerneltop $ki = 8N + $((ki - 8 * N)) over $kn of $kf frames (exited: $kex, user only: $uo), pcstat -p $pi = 8N + $((pi - 8 * N)); $(head -c 200 /tmp/ktr.err)" \
			sh -c "[ $ki -eq $pi ] && [ $((ki - 8 * N)) -ge 0 ] &&
			       [ $((ki - 8 * N)) -lt 100 ] && [ $kn -ge 2 ] &&
			       [ $kex -eq 1 ] && [ $uo -ge 1 ]"
		expect kerneltop-tasks-raw-ipc-1-per-interval \
			"$kd of $kn frames with cycles:u != instructions:u: $(grep -E "^ +$kl " /tmp/ktr.out | tr '\n' ';')" \
			sh -c "[ $kd -eq 0 ] && [ $kn -ge 2 ] && [ $kc -eq $ki ]"
		echo "# kerneltop --tasks-raw, loop $N: instructions:u $ki over $kn frames, cycles:u $kc; pcstat -p -I: $pi, $pc"
		grep -E "^ +PID" /tmp/ktr.out | head -1 | sed 's/^/# kerneltop --tasks-raw: /'
		grep -E "^ +$kl " /tmp/ktr.out | sed 's/^/# kerneltop --tasks-raw: /'
	else
		# run.sh's cross build links it statically with ncurses
		failt kerneltop-in-guest "no /bin/kerneltop in the arm64 guest"
	fi

	# libsysapi's and pcstat's own tests that need a PMU, as they run
	# on bare metal.
	for t in tests/pcstat/multiplex.sh; do
		(cd /tmp && top_builddir=/pctools top_srcdir=/pctools sh "/pctools/$t") > /tmp/t.out 2>&1
		rc=$?
		expect "suite-$(basename "$t" .sh)" "exit $rc: $(grep -E 'FAIL|SKIP' /tmp/t.out | head -3)" [ $rc -eq 0 ]
	done
fi

# 5. The 2008 reservation (perf_counters/reserve_percpu and overcommit)
#    as an unprivileged pcstat on the legacy backend sees it: with all but
#    two of the PMU's counters reserved, its three instructions counters
#    (user space only: the 2008 call has no exclusion bits, paranoid 2
#    gives nobody no more) take turns, and pcstat scales them by the times PERF_COUNTER_IOC_READ
#    gives, with perf's running share; with overcommit 0 the third is
#    refused, with the reservation named in the one-line error.
res=/sys/devices/system/cpu/perf_counters
if [ "$(uname -m)" = aarch64 ] && [ -x /bin/pcstat ] && [ -w $res/reserve_percpu ]; then
	mknobody
	# the PMU's counters: the largest reservation the kernel accepts
	n=0
	while [ $n -lt 64 ] && echo $((n + 1)) 2>/dev/null > $res/reserve_percpu; do
		n=$((n + 1))
	done
	echo 0 > $res/reserve_percpu
	N=9000000
	ev="-e instructions -e instructions -e instructions"
	asnobody PCTOOLS_BACKEND=legacy pcstat -x, $ev -o /tmp/r0.csv -- loop $N
	x=$(awk -F, '$3 == "instructions" { print $1; exit }' /tmp/r0.csv)
	echo $((n - 2)) > $res/reserve_percpu
	asnobody PCTOOLS_BACKEND=legacy pcstat -x, $ev -o /tmp/r1.csv -- loop $N
	# lines running < 100% and scaled to within 1% of the unreserved count
	ok=$(awk -F, -v x="${x:-0}" '$3 == "instructions" {
		d = $1 - x; if (d < 0) d = -d
		if ($5 + 0 < 100 && $5 + 0 > 0 && x > 0 && d * 100 <= x) n++ }
		END { print n + 0 }' /tmp/r1.csv)
	expect reserve-pcstat-legacy-scaled \
		"$ok of 3 lines took turns and scaled to within 1% of $x: $(grep instructions /tmp/r1.csv | tr '\n' ' ')" \
		[ "$ok" -eq 3 ]
	grep instructions /tmp/r1.csv | sed "s/^/# reserve $((n - 2)) of $n, 3 counters: /"
	echo 0 > $res/overcommit
	asnobody PCTOOLS_BACKEND=legacy pcstat -q -x, $ev -o /tmp/r2.csv -- loop $N 2> /tmp/r2.err
	rc=$?
	expect reserve-pcstat-legacy-enospc \
		"exit $rc, $(wc -l < /tmp/r2.err) lines: $(head -c 300 /tmp/r2.err)" \
		sh -c "[ $rc -ne 0 ] && [ $(wc -l < /tmp/r2.err) -eq 1 ] &&
		       grep -q 'reserve_percpu' /tmp/r2.err"
	sed 's/^/# overcommit 0: /' /tmp/r2.err
	echo 0 > $res/reserve_percpu
	echo 1 > $res/overcommit
fi
