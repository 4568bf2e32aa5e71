#!/bin/sh
# offcpu.sh - monitor --off-cpu on tests/helpers/offcpu's split workload,
# against the split the helper measured itself: the wall-clock export
# (waits_here's share, the off-CPU share, within 3 points; spins_here
# keeps the on-CPU time), the summary's off-CPU time and where it went,
# --script's off-cpu samples adding up to it, and as an unprivileged
# user at paranoid 2, off-CPU time without stacks and what they need.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-offcpu.sh"
need perf_event

# === the exports: wall-clock time ======================================
"$MONITOR" --off-cpu -e cpu-clock --summary --folded wall.folded \
	--pprof wall.pb.gz --flamegraph wall.svg -- \
	"$OFFCPU_HELPER" split -1500 > sum.out 2> sum.err ||
	fail "monitor --off-cpu: $(cat sum.err)"
read -r tw toff <<E
$(offcpu_truth sum.err)
E
read -r w off onspin <<E
$(offcpu_shares wall.folded)
E
near "$w" "$tw" 3 && ok "export: waits_here $w% of the wall time (truth $tw%)" ||
	fail "export: waits_here $w%, the helper measured $tw% ($(grep truth sum.err))"
near "$off" "$toff" 3 && ok "export: off-CPU $off% (truth: wall - CPU = $toff%)" ||
	fail "export: off-CPU $off%, the helper measured $toff%"
awk -v s="$onspin" 'BEGIN { exit !(s >= 90) }' &&
	ok "export: spins_here $onspin% of the on-CPU time" ||
	fail "export: spins_here only $onspin% of the on-CPU time"

# === the exports' units: nanoseconds said as time, never as samples =====
ftotal=$(awk '{ s += $NF } END { printf "%d", s }' wall.folded)
# the SVG: a time title, and every amount a time ("635 ms"), the root's
# the folded total to the 3 digits shown
grep -q '>Flame graph: wall-clock time (on-CPU and off-CPU) on ' wall.svg &&
	! grep -q ' samples' wall.svg &&
	ok "SVG: wall-clock time in the title, no samples anywhere" ||
	fail "SVG: $(grep -o 'Flame graph[^<]*' wall.svg; grep -o '<title>[^<]*samples[^<]*' wall.svg | head -2)"
sed -n 's/.*<title>all: \([0-9.]*\) \([mun]*s\), 100.00%.*/\1 \2/p' wall.svg |
	awk -v t="$ftotal" 'BEGIN { u["s"] = 1e9; u["ms"] = 1e6; u["us"] = 1e3
		u["ns"] = 1 } { d = $1 * u[$2] - t
		ok = t > 0 && (d < 0 ? -d : d) <= 0.005 * t } END { exit !ok }' &&
	ok "SVG: the root's tooltip is the wall-clock total as a time" ||
	fail "SVG: root $(grep -o '<title>all: [^<]*' wall.svg), folded total $ftotal ns"
if command -v go > /dev/null 2>&1 && [ -s wall.pb.gz ]; then
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= timeout 120 \
		go tool pprof -raw wall.pb.gz > raw 2>&1
	types=$(sed -n '/^Samples:/{n;p;q}' raw)
	[ "$types" = "wall-clock/nanoseconds cpu-clock/nanoseconds off-cpu/nanoseconds" ] &&
		ok "pprof: sample types $types" ||
		fail "pprof: sample types '$types'"
	awk '/^Samples:/ { s = 1; getline; next } s && /^ *[0-9]+ +[0-9]+ +[0-9]+:/ {
		w += $1; on += $2; off += $3 + 0 }
	     s && /^[A-Z]/ { s = 0 }
	     END { exit !(w == t && w == on + off) }' t="$ftotal" raw &&
		ok "pprof: wall-clock = cpu-clock + off-cpu = the folded total" ||
		fail "pprof: wall-clock values do not add up to $ftotal: $(sed -n '/^Samples:/,+3p' raw)"
else
	echo "note: no go tool or built without pprof: pprof not decoded"
fi

# === the summary: off-CPU time, and where ================================
# the helper's wall time (waits + spins) and its off-CPU part, in s
offs=$(sed -n 's/^monitor: off-CPU: \([0-9.]*\) s in [0-9]* spans (stacks of the switches), [0-9]* switch records lost$/\1/p' sum.out)
want=$(awk '/^truth waits_ms/ { printf "%.3f", ($3 + $5 - $7) / 1000 }' sum.err)
wall=$(awk '/^truth waits_ms/ { printf "%.3f", ($3 + $5) / 1000 }' sum.err)
[ -n "$offs" ] && awk -v a="$offs" -v b="$want" -v t="$wall" \
	'BEGIN { d = a - b; exit !((d < 0 ? -d : d) <= 0.03 * t) }' &&
	ok "summary: $offs s off the CPU (truth $want s of $wall s)" ||
	fail "summary: off-CPU '$offs' s, the helper measured $want s: $(grep off-CPU sum.out)"
# (of the blocked time: a busy machine inflates [preempted])
awk '/^monitor: off-CPU/ { t = 1; next }
     t && $2 ~ /%$/ && $3 != "[preempted]" { b += $1
	if ($3 == "do_nanosleep") d = $1 }
     END { exit !(b && d / b >= 0.5) }' sum.out &&
	ok "summary: do_nanosleep is where the time went" ||
	fail "summary: $(sed -n '/off-CPU/,$p' sum.out | head -5)"

# === --script: the spans as off-cpu samples, adding up ==================
"$MONITOR" --off-cpu -e cpu-clock --script -- "$OFFCPU_HELPER" split -500 \
	> script.out 2> script.err || fail "--script: $(cat script.err)"
sum=$(awk '$5 == "off-cpu:" { s += $4 } END { printf "%.3f", s / 1e9 }' script.out)
said=$(sed -n 's/^monitor: off-CPU: \([0-9.]*\) s in.*/\1/p' script.err)
[ -n "$said" ] && awk -v a="$sum" -v b="$said" 'BEGIN { d = a - b
	exit !((d < 0 ? -d : d) <= 0.001) }' &&
	ok "--script: the off-cpu samples add up to the summary's $said s" ||
	fail "--script: off-cpu samples $sum s, the summary $said s"
awk '$5 == "off-cpu:" { getline; exit !($2 == "[off-cpu]+0x0") }' script.out &&
	ok "--script: an off-cpu sample's chain starts with [off-cpu]" ||
	fail "--script: $(grep -m1 -A2 'off-cpu:' script.out)"

# === attached (-p, -t): the switches' stacks, as for a command ===========
# the helper held until monitor's counters are open, then 800 ms of
# waits_here (nanosleep) and spins_here: do_nanosleep must hold the
# blocked time, not the stackless [off-cpu] row
for opt in -p -t; do
	spawn_ready "$OFFCPU_HELPER" split 800 || fail "$opt: helper did not start"
	set -- $ready
	[ "$opt" = -p ] && id=$1 || id=$2
	"$MONITOR" --off-cpu -e cpu-clock --summary $opt $id > at.out 2> at.err &
	mp=$!
	at_exit "kill $mp 2>/dev/null"
	retry 10 sh -c "ls -l /proc/$mp/fd | grep -q perf_event" ||
		fail "$opt: monitor opened no counter: $(cat at.err)"
	kill -USR1 $spawned
	wait $mp || fail "$opt: monitor exited $?: $(cat at.err)"
	# blocked time (all but [preempted], which a busy machine inflates)
	share=$(awk '/^monitor: off-CPU/ { t = 1; next }
		t && $2 ~ /%$/ && $3 != "[preempted]" { b += $1
			if ($3 == "do_nanosleep") d = $1 }
		END { if (b) printf "%.1f", 100 * d / b }' at.out)
	awk -v s="$share" 'BEGIN { exit !(s + 0 >= 90) }' &&
		ok "$opt: do_nanosleep holds $share% of the blocked time attached" ||
		fail "$opt: do_nanosleep ${share:-0}% of the blocked time: $(sed -n '/off-CPU/,$p' at.out | head -4 | tr '\n' '|')"
done

# === a switch flood in a one-page ring: records lost, and what helps ====
# (a ping-pong switches tens of thousands of times a second; one page
# holds a dozen records: losses are certain)
"$MONITOR" --off-cpu -e cpu-clock -m 1 --summary -- \
	"$OFFCPU_HELPER" pingpong -400 > flood.out 2> flood.err ||
	fail "flood: $(cat flood.err)"
grep -Eq '^monitor: [0-9]+ samples lost: .*\(every context switch is a record: a bigger ring \(-m\), or fewer threads watched\)$' flood.out &&
	! grep -q 'sample less often' flood.out &&
	ok "flood: lost records blamed on the switches, -m given as the fix" ||
	fail "flood: $(grep lost flood.out)"

# === paranoid 2, unprivileged: no stacks ==================================
if ! have root || ! have setpriv; then
	without root "the unprivileged path"
elif [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 2 ]; then
	echo "note: perf_event_paranoid < 2: the unprivileged path not run"
else
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$MONITOR" --off-cpu -e cpu-clock --summary -- \
		"$OFFCPU_HELPER" split -1500 > nb.out 2> nb.err ||
		fail "nobody: $(cat nb.err)"
	grep -q 'off-CPU time without stacks: they need root, CAP_PERFMON or kernel.perf_event_paranoid <= 1' nb.err &&
		ok "nobody: one line says what the stacks need" ||
		fail "nobody: no notice: $(cat nb.err)"
	offs=$(sed -n 's/^monitor: off-CPU: \([0-9.]*\) s in [0-9]* spans (no stacks).*/\1/p' nb.out)
	want=$(awk '/^truth waits_ms/ { printf "%.3f", ($3 + $5 - $7) / 1000 }' nb.err)
	wall=$(awk '/^truth waits_ms/ { printf "%.3f", ($3 + $5) / 1000 }' nb.err)
	[ -n "$offs" ] && awk -v a="$offs" -v b="$want" -v t="$wall" \
		'BEGIN { d = a - b; exit !((d < 0 ? -d : d) <= 0.03 * t) }' &&
		ok "nobody: $offs s off the CPU, no stacks (truth $want s)" ||
		fail "nobody: off-CPU '$offs' s, the helper measured $want s: $(grep off-CPU nb.out)"
fi

done_testing
