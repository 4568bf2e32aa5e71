#!/bin/sh
# filters.sh - perf top's filters, sort keys and columns in kerneltop -b:
# --comms, --dsos, --symbols, -f, --percentage, -s cpu/socket/srcline/
# parent, --show-total-period, --show-nr-samples, --fields; each against
# a workload with a known answer and against perf report --stdio on a
# recording of it (perf top's filters are perf report's).
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
HPATH=$(cd "$(dirname "$H")" && pwd -P)/kt-helper
SRC="$top_srcdir/tests/kerneltop/kt-helper.c"

KT_ARGS="-b -e cpu-clock"	# for kt (lib-kerneltop.sh)

# pr_start NAME ARGS...: perf record -e cpu-clock ARGS for 2 s into
# NAME.data, in the background (each section starts its recording first
# and reads it with pr after its own runs: the test waits for perf once a
# section).  perf report applies the filters, sort keys and columns of
# perf top (the same hists code, options of the same names) to a
# recording: before, live perf top --stdio runs beside the test's gave no
# frame at all in 6 s under load (three of them loading kallsyms at once).
pr_start() {
	local name=$1
	shift
	bg_start "$name" perf record -q -o "$name.data" -e cpu-clock "$@" \
		-- sleep 2 > /dev/null 2> "$name.rerr"
}
# pr NAME OUT ARGS...: wait for NAME's recording (pr_start NAME), and
# the rows of perf report --stdio ARGS on it into OUT.perf
pr() {
	local name=$1 out=$2
	shift 2
	bg_wait "$name"
	[ "$rc" -eq 0 ] || fail "perf record of $name: exit $rc: $(head -2 "$name.rerr")"
	timeout 120 perf report --stdio -i "$name.data" "$@" 2> "$out.perr" |
		awk '/^ +[0-9.]+% / { print }' > "$out.perf"
	[ -s "$out.perf" ] || fail "perf report $*: no rows: $(head -3 "$out.perr")"
}
# pt_start NAME ARGS...: perf top --stdio ARGS for about 12 s into
# NAME.perf, the rows of its last frame that has any, in the background
# (read with pt_wait NAME).  For -s parent alone: perf report refuses it
# on a recording without call chains, where perf top shows [other].
# perf reads keys from stdin: a pipe open for longer than perf runs keeps
# it reading none.  12 s: the section's own runs last longer, and perf top
# loading kallsyms under load took more than 6.
pt_bg() {
	local name=$1
	shift
	sleep 13 | COLUMNS=300 timeout -s INT 12 perf top --stdio -d 1 \
		-e cpu-clock "$@" 2> "$name.perr" | tr -d '\033' |
		awk '/PerfTop:/ { f++; n[f] = 0; st = 1; next }
		     st == 1 && /^---/ { next }
		     f && /^ +[0-9.]+% / { r[f, ++n[f]] = $0 }
		     END { for (k = f; k > 0 && !n[k]; k--) ;
			   for (i = 1; k && i <= n[k]; i++) print r[k, i] }' \
		> "$name.perf"
}
pt_start() { bg_start "$1" pt_bg "$@"; }
pt_wait() {
	bg_wait "$1"
	[ -s "$1.perf" ] || fail "perf top ($1): printed no rows: $(head -3 "$1.perr")"
}

# pct TEXT: the share of the first row of TEXT, without its %
pct() { awk 'NR == 1 { sub("%", "", $1); print $1 }'; }

# lines FUNC: the first and last line of FUNC in kt-helper.c
lines() {
	awk -v f="$1" '$0 ~ "BEGIN " f " \\*/" { b = NR } $0 ~ "END " f " \\*/" { print b, NR; exit }' "$SRC"
}

# --- --comms: two threads with their own comms, 2:1 in time --------------
spawn_ready "$H" threads 0 || fail "helper did not start"
tp=$spawned
if have_perf; then
	pr_start tp -p $tp
	bg_start gr perf record -q -o gr.data -e '{cpu-clock,task-clock}' \
		-p $tp -- sleep 2 > /dev/null 2> gr.rerr
fi
kt ca -n 1 -d 1.5 -p $tp --comms kt-alpha -s comm,sym
[ $rc -eq 0 ] || fail "--comms: exit $rc: $(head -2 ca.err)"
bad=$(kt_rows ca.out | awk '$4 == "kt_beta"' | head -2)
top=$(kt_rows ca.out | awk 'NR == 1 { print $4 }')
[ -z "$bad" ] && [ "$top" = kt_alpha ] && ok "--comms kt-alpha: only its rows" ||
	fail "--comms kt-alpha: top '$top', others: $bad"
# a filter of one name fixes its column, which goes as in perf top (its
# "elide", seen in perf's rows below: no Command); the header names it
kt_header ca.out | grep -Eq '^ *Overhead +Samples +Symbol +Shared Object *$' &&
	kt_target ca.out | grep -q '   comm: kt-alpha' &&
	ok "--comms kt-alpha: no Command column; 'comm: kt-alpha' above" ||
	fail "--comms kt-alpha: header '$(kt_header ca.out)' / '$(kt_target ca.out)'"
# one --comms and one --symbols with -s comm,sym would leave nothing:
# perf then keeps every column, and so does kerneltop
kt cs -n 1 -d 1.5 -p $tp --comms kt-alpha --symbols kt_alpha -s comm,sym
kt_header cs.out | grep -Eq '^ *Overhead +Samples +Command +Symbol +Shared Object' &&
	[ "$(kt_rows cs.out | awk 'NR == 1 { print $3, $5 }')" = "kt-alpha kt_alpha" ] &&
	ok "--comms and --symbols of one each: every column kept" ||
	fail "--comms, --symbols: '$(kt_header cs.out)' '$(kt_rows cs.out | head -1)'"
# absolute (perf's default): kt-alpha keeps its share of the target's
# samples, 2/3; measured 65.2-65.4 here, perf 65.2 on the same run.
a=$(kt_rows ca.out | pct)
between "$a" 55 76 && ok "--comms absolute: kt_alpha $a%" ||
	fail "--comms absolute: kt_alpha '$a' (want 2/3 of the samples)"
kt cr -n 1 -d 1.5 -p $tp --comms kt-alpha -s comm,sym --percentage relative
r=$(kt_rows cr.out | pct)
sum=$(kt_rows cr.out | awk '{ sub("%", "", $1); s += $1 } END { print s }')
between "$r" 90 100 && between "$sum" 99 100.5 &&
	ok "--percentage relative: kt_alpha $r%, rows sum $sum%" ||
	fail "--percentage relative: kt_alpha '$r', sum '$sum' (want ~100)"
kt cb -n 1 -d 1.5 -p $tp --comms kt-beta -s sym
top=$(kt_rows cb.out | awk 'NR == 1 { print $4 }')
b=$(kt_rows cb.out | pct)
[ "$top" = kt_beta ] && between "$b" 24 45 && ok "--comms kt-beta: kt_beta $b%" ||
	fail "--comms kt-beta: top '$top' $b% (want kt_beta, 1/3)"
if have_perf; then
	pr tp pa --comms kt-alpha -s comm,sym
	pa=$(awk '$3 == "kt_alpha"' pa.perf | pct)
	# both shares of the same 2:1 work, sampled apart: 8 points
	between "$pa" 55 76 && awk -v a="$a" -v b="$pa" 'BEGIN { d = a - b; exit !(d < 8 && d > -8) }' &&
		ok "perf --comms kt-alpha: $pa% (ours $a%)" ||
		fail "perf --comms kt-alpha: '$pa' against ours $a"
	pr tp pr --comms kt-alpha -s comm,sym --percentage relative
	pr=$(awk '$3 == "kt_alpha"' pr.perf | pct)
	between "$pr" 90 100 && ok "perf --percentage relative: $pr% (ours $r%)" ||
		fail "perf --percentage relative: '$pr' (ours $r)"
else
	without perf "the --comms comparison with perf report"
fi

# --- --hierarchy: comm, then sym under it, as perf nests them -------------
# levels LEVEL FILE: the lines of that level ("share name"), from the
# figures' end: two spaces, then three more per level
levels() {
	awk -v l="$1" '{ if (!match($0, /^ *[0-9.]+% +[0-9]+/)) next
		rest = substr($0, RLENGTH + 1); match(rest, /[^ ]/)
		if ((RSTART - 3) / 3 == l) { sub(/^ +/, "", rest); print $1, rest } }' "$2"
}
kt hi -n 1 -d 1.5 -p $tp --hierarchy -s comm,sym
kt_header hi.out | grep -Eq '^ *Overhead +Samples +Command / Symbol *$' ||
	fail "--hierarchy header: '$(kt_header hi.out)'"
kt_rows hi.out > hi.rows
top=$(levels 0 hi.rows | awk 'NR == 1 { print $2 }')
ha=$(levels 0 hi.rows | awk '$2 == "kt-alpha" { sub("%", "", $1); print $1 }')
# kt-alpha's line is the sum of the lines under it, to the rounding
sub=$(awk '/^ *[0-9.]+% +[0-9]+ +kt-/ { on = ($3 == "kt-alpha"); next }
	on { sub("%", "", $1); s += $1 } END { print s + 0 }' hi.rows)
[ "$top" = kt-alpha ] && between "$ha" 55 76 &&
	awk -v a="$ha" -v b="$sub" 'BEGIN { d = a - b; exit !(d < 0.2 && d > -0.2) }' &&
	levels 1 hi.rows | grep -q ' \[\.\] kt_alpha$' &&
	ok "--hierarchy: kt-alpha $ha% = its symbols' $sub%" ||
	fail "--hierarchy: top '$top' $ha% (under it $sub%): $(head -3 hi.rows)"
if have_perf; then
	pr tp hi --hierarchy -s comm,sym
	pa=$(awk '/^ +[0-9.]+% +kt-alpha$/ { sub("%", "", $1); print $1; exit }' hi.perf)
	pk=$(awk '/^ +[0-9.]+% +\[\.\] kt_alpha$/ { print "yes"; exit }' hi.perf)
	awk -v a="$ha" -v b="$pa" 'BEGIN { d = a - b; exit !(b != "" && d < 8 && d > -8) }' &&
		[ "$pk" = yes ] && ok "perf --hierarchy: kt-alpha $pa% (ours $ha%)" ||
		fail "perf --hierarchy: kt-alpha '$pa' (ours $ha): $(head -3 hi.perf)"
fi

# --- --group: a share column per event; --group-sort-idx ----------------
# cpu-clock and task-clock sample the same time: kt_alpha's two shares
# are both its 2/3 (perf here: 65.10 and 65.15)
kt gr -n 1 -d 1.5 -p $tp -e task-clock --group
kt_header gr.out | grep -Eq '^ *Overhead +task-clo +Samples +Symbol' ||
	fail "--group header: '$(kt_header gr.out)'"
set -- $(kt_rows gr.out | awk '$5 == "kt_alpha" { sub("%", "", $1); sub("%", "", $2); print $1, $2 }') "" ""
between "$1" 55 76 && between "$2" 55 76 && ok "--group: kt_alpha $1% $2%" ||
	fail "--group: kt_alpha '$1' '$2': $(kt_rows gr.out | head -2)"
ga=$1
kt gs -n 1 -d 1.5 -p $tp -e task-clock --group --group-sort-idx 1
kt_rows gs.out | awk '{ v = $2; sub("%", "", v); v += 0; if (NR > 1 && v > prev + 0.001) exit 1; prev = v }' &&
	[ -n "$(kt_rows gs.out)" ] && ok "--group-sort-idx 1: rows by the second share" ||
	fail "--group-sort-idx 1: $(kt_rows gs.out | head -3)"
if have_perf; then
	bg_wait gr
	[ "$rc" -eq 0 ] || fail "perf record of the group: $(head -2 gr.rerr)"
	timeout 120 perf report --stdio -i gr.data --group -s sym 2> /dev/null |
		awk '$4 == "kt_alpha" { sub("%", "", $1); sub("%", "", $2); print $1, $2 }' |
		head -1 > gr.perf
	set -- $(cat gr.perf) "" ""
	between "$1" 55 76 && between "$2" 55 76 &&
		awk -v a="$ga" -v b="$1" 'BEGIN { d = a - b; exit !(d < 8 && d > -8) }' &&
		ok "perf --group: kt_alpha $1% $2% (ours $ga%)" ||
		fail "perf --group: kt_alpha '$1' '$2' (ours $ga)"
fi
kill $tp

# --- --symbols, --dsos, -f: one hot function -----------------------------
spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned
if have_perf; then
	pr_start hp -p $hp
	pt_start par -p $hp -s parent,sym
fi
kt sy -n 1 -d 1 -p $hp --symbols kt_hot
rows=$(kt_rows sy.out | awk '{ print $3, $4 }' | sort -u | tr '\n' ' ')
[ "$rows" = "[.] kt_hot " ] && ok "--symbols kt_hot: $rows" ||
	fail "--symbols kt_hot: rows '$rows'"
kt sy2 -n 1 -d 1 -p $hp --symbols kt_hot,kt_warm --percentage relative
h=$(kt_rows sy2.out | awk '$4 == "kt_hot"' | pct)
w=$(kt_rows sy2.out | awk '$4 == "kt_warm"' | pct)
# 9:1 in iterations; batch.sh measures 87-90 and 9-11.5 of the process
between "$h" 82 95 && between "$w" 5 16 && ok "--symbols kt_hot,kt_warm: $h% $w%" ||
	fail "--symbols kt_hot,kt_warm relative: '$h' '$w' (want 9:1)"
if have_perf; then
	pr hp sy --symbols kt_hot -s sym
	rows=$(awk '{ print $2, $3 }' sy.perf | sort -u | tr '\n' ' ')
	[ "$rows" = "[.] kt_hot " ] && ok "perf --symbols kt_hot: $rows" ||
		fail "perf --symbols kt_hot: '$rows'"
else
	without perf "the --symbols comparison with perf report"
fi
kt ds -n 1 -d 1 -p $hp --dsos kt-helper
bad=$(kt_rows ds.out | awk '$3 != "[.]"' | head -2)
[ -z "$bad" ] && kt_rows ds.out | grep -q ' kt_hot' &&
	kt_header ds.out | grep -Eq '^ *Overhead +Samples +Symbol *$' &&
	kt_target ds.out | grep -q '   dso: kt-helper' &&
	ok "--dsos kt-helper: the helper's rows, no Shared Object column" ||
	fail "--dsos kt-helper: '$(kt_header ds.out)' $bad"
kt dk -n 1 -d 1 -p $hp --dsos '[kernel.kallsyms]'
bad=$(kt_rows dk.out | awk '$3 != "[k]"' | head -2)
# a user loop's kernel samples (ticks, switches) may be few: rows are
# not required, only that every one is the kernel's
[ $rc -eq 0 ] && [ -z "$bad" ] && ok "--dsos [kernel.kallsyms]: kernel rows only" ||
	fail "--dsos [kernel.kallsyms]: $bad"
kt f -n 1 -d 1 -p $hp -f 20
bad=$(kt_rows f.out | awk '$2 <= 20' | head -2)
[ -z "$bad" ] && kt_rows f.out | grep -q ' kt_hot ' &&
	ok "-f 20: rows of more than 20 samples" || fail "-f 20: $bad"
kt fa -n 1 -d 1 -p $hp -f 100000000
[ $rc -eq 0 ] && [ -z "$(kt_rows fa.out)" ] && ok "-f 100000000: no row" ||
	fail "-f 100000000: exit $rc, $(kt_rows fa.out | head -2)"

# --- -s srcline: kt_hot's lines; -s parent: [other] without call chains --
set -- $(lines kt_hot)
kt sl -n 1 -d 1 -p $hp -s srcline,sym
kt_header sl.out | grep -Eq '^ *Overhead +Samples +Source:Line +Symbol +Shared Object *$' ||
	fail "-s srcline header: '$(kt_header sl.out)'"
top=$(kt_rows sl.out | awk 'NR == 1 { print $3, $5 }')
l=${top#kt-helper.c:}
l=${l% kt_hot}
[ "$top" = "kt-helper.c:$l kt_hot" ] && [ "$l" -ge $1 ] && [ "$l" -le $2 ] &&
	ok "-s srcline: $top (kt_hot is lines $1-$2)" ||
	fail "-s srcline: top '$top' (want kt-helper.c:$1-$2 kt_hot)"
kt pa -n 1 -d 1 -p $hp -s parent,sym
kt_header pa.out | grep -Eq '^ *Overhead +Samples +Parent symbol +Symbol' ||
	fail "-s parent header: '$(kt_header pa.out)'"
bad=$(kt_rows pa.out | awk '$3 != "[other]"' | head -2)
[ -z "$bad" ] && kt_rows pa.out | grep -q ' kt_hot ' && ok "-s parent without -g: [other]" || fail "-s parent: $bad"
if have_perf; then
	pr hp sl -s srcline,sym
	top=$(awk 'NR == 1 { print $2, $4 }' sl.perf)
	l=${top#kt-helper.c:}
	l=${l% kt_hot}
	[ "$top" = "kt-helper.c:$l kt_hot" ] && [ "$l" -ge $1 ] && [ "$l" -le $2 ] &&
		ok "perf -s srcline: $top" || fail "perf -s srcline: top '$top'"
	pt_wait par
	bad=$(awk '$2 != "[other]"' par.perf | head -2)
	[ -z "$bad" ] && ok "perf -s parent: [other]" || fail "perf -s parent: $bad"
else
	without perf "the srcline and parent comparisons with perf"
fi

# --- --show-total-period: Period = Samples x -c on a first frame ----------
kt per -n 1 -d 1 -p $hp -c 100000 --show-total-period --show-nr-samples
kt_header per.out | grep -Eq '^ *Overhead +Samples +Period +Symbol +Shared Object *$' ||
	fail "--show-total-period header: '$(kt_header per.out)'"
bad=$(kt_rows per.out | awk '$3 != $2 * 100000' | head -2)
[ -z "$bad" ] && [ -n "$(kt_rows per.out)" ] &&
	ok "--show-total-period: Period = Samples x 100000" ||
	fail "--show-total-period: $bad"
# (perf top decays Samples and Period apart, each rounded down: its
# Period / Samples strays from c, by 0.14% under load; nothing to hold
# ours to.)

# --- --fields: perf's columns, sort keys among them -----------------------
kt fo -n 1 -d 1 -p $hp --fields overhead,sym
kt_header fo.out | grep -Eq '^ *Overhead +Symbol +Shared Object *$' &&
	kt_rows fo.out | awk 'NR == 1 { exit !($2 == "[.]" && $3 == "kt_hot") }' &&
	ok "--fields overhead,sym" || fail "--fields overhead,sym: '$(kt_header fo.out)' $(kt_rows fo.out | head -1)"
kt fs -n 1 -d 1 -p $hp --fields sample,period,comm
kt_header fs.out | grep -Eq '^ *Samples +Period +Command *$' &&
	[ "$(kt_rows fs.out | awk '{ print $3 }' | sort -u)" = kt-helper ] &&
	ok "--fields sample,period,comm" || fail "--fields sample,period,comm: '$(kt_header fs.out)'"
kill $hp
# threads, not perf's: spin's hot_spin() runs in each of its 3 threads
# (a count the workload fixes: each runs all the time, so in 2 s of
# frames each is sampled in it whatever the load); -s comm shows "-".
"$top_builddir/tests/helpers/spin" 60000 3 > /dev/null &
sp=$!
three() { [ "$(ls /proc/$sp/task 2>/dev/null | wc -l)" -eq 3 ]; }
retry 10 three || fail "spin did not start its 3 threads"
kt th -n 2 -d 1 -p $sp --fields overhead,sample,threads,sym
kt tc -n 1 -d 0.5 -p $sp --fields sample,threads,comm
kill $sp
kt_header th.out 2 | grep -Eq '^ *Overhead +Samples +Threads +Symbol +Shared Object *$' &&
	[ "$(kt_rows th.out 2 | awk '$5 == "hot_spin" { print $3 }')" = 3 ] &&
	ok "--fields threads: hot_spin ran in 3 threads" ||
	fail "--fields threads: '$(kt_header th.out 2)' $(kt_rows th.out 2 | grep hot_spin)"
[ "$(kt_rows tc.out | awk '{ print $2 }' | sort -u)" = - ] &&
	ok "--fields threads by comm: -" || fail "--fields threads by comm: $(kt_rows tc.out)"

# --- -s cpu and -s socket: a helper pinned to CPU 1 -----------------------
if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || ! command -v taskset > /dev/null; then
	echo "note: one CPU or no taskset: -s cpu and -s socket not run"
else
	spawn_ready taskset -c 1 "$H" burn 0 || fail "pinned helper did not start"
	bp=${ready%% *}
	if have_perf; then
		pr_start c1 -C 1
	fi
	kt cpu -n 1 -d 1 -p $bp -s cpu,sym
	kt_header cpu.out | grep -Eq '^ *Overhead +Samples +CPU +Symbol' ||
		fail "-s cpu header: '$(kt_header cpu.out)'"
	top=$(kt_rows cpu.out | awk 'NR == 1 { print $3, $5 }')
	[ "$top" = "001 kt_burn" ] && ok "-s cpu: $top" || fail "-s cpu: top '$top' (want 001 kt_burn)"
	sock=$(cat /sys/devices/system/cpu/cpu1/topology/physical_package_id 2>/dev/null || echo -1)
	sock=$(printf '%03d' "$sock")
	kt so -n 1 -d 1 -p $bp -s socket,sym
	top=$(kt_rows so.out | awk 'NR == 1 { print $3, $5 }')
	[ "$top" = "$sock kt_burn" ] && ok "-s socket: $top" ||
		fail "-s socket: top '$top' (want $sock kt_burn)"
	# perf's -p counters are per thread, and its rows then say CPU
	# -001: its columns are compared on CPU 1, sampled as a CPU.  With
	# one --symbols perf leaves the Symbol column out (its "elide").
	if have_perf; then
		pr c1 cpu -s cpu,sym --symbols kt_burn
		top=$(awk 'NR == 1 { print $2, NF }' cpu.perf)
		[ "$top" = "001 2" ] && ok "perf -s cpu: $(head -1 cpu.perf)" ||
			fail "perf -s cpu: '$(head -1 cpu.perf)'"
		pr c1 so -s socket,sym --symbols kt_burn
		top=$(awk 'NR == 1 { print $2, NF }' so.perf)
		[ "$top" = "$sock 2" ] && ok "perf -s socket: $(head -1 so.perf)" ||
			fail "perf -s socket: '$(head -1 so.perf)'"
	fi
fi

# --- what is refused, in one line, exit 2 ----------------------------------
for bad in "--percentage=half" "-f -1" "--fields overhead,nosuch" "-s nosuch"; do
	timeout 20 "$KERNELTOP" -b -n 1 $bad > bad.out 2> bad.err
	rc=$?
	[ $rc -eq 2 ] && [ "$(grep -c . bad.err)" -eq 1 ] && ok "$bad: $(cat bad.err)" ||
		fail "$bad: exit $rc: $(cat bad.err)"
done

done_testing
