#!/bin/sh
# -G and --for-each-cgroup: a cgroup of the test's own with a workload of
# known page faults moved into it, counted by pcstat and perf stat at the
# same time; perf's pairing of -G names with events; the cgroup column in
# the human, CSV and JSON layouts, side by side with perf.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

# Numbers masked; and the running percentage a busy machine may add: the
# kernel's times for cgroup events (the root's above all) are the cgroup's
# clock, which need not agree with the event's enabled time.
# numbers masked, and the rate's prefix (K/sec, M/sec) that follows from
# them: the root cgroup's rate is the whole machine's, run to run;
# a running share shown by one tool only leaves a trailing blank
mask() {
	sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' -e 's/ *$//' -e 's/ (N%)$//' \
	    -e 's/N [KMG]\/sec/N \/sec/g' -e 's/,N[KMG]\/sec/,N\/sec/g' \
	    -e 's/"[KMG]\/sec"/"\/sec"/g' -e 's/ *$//' "$@"
}
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

# The hierarchy perf counts in: a v1 perf_event one, else cgroup2.
mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$mnt" ] || mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$mnt" ] || skip "no cgroup hierarchy mounted"
cg=pctools-test-$$
mkdir "$mnt/$cg" 2> /dev/null ||
	skip "cannot create a cgroup under $mnt (needs root)"
# Whatever happens: the cgroup's tasks back to the root, the cgroup gone.
at_exit "for p in \$(cat '$mnt/$cg/cgroup.procs' 2> /dev/null); do
	kill \$p 2> /dev/null; echo \$p > '$mnt/cgroup.procs'; done 2> /dev/null
	rmdir '$mnt/$cg' 2> /dev/null"

"$PCSTAT" -e page-faults -G "$cg" -- true 2> e.txt
check "-G without -a: exit 2 ($?)" test $? -eq 2
check "-G without -a: says to add -a or -C" grep -q 'add -a or -C' e.txt
"$PCSTAT" -a -e page-faults -G "$cg-none" -- true 2> e.txt
check "-G of a missing cgroup: exit 2 ($?), names it" \
	grep -q "no access to cgroup $mnt/$cg-none" e.txt
"$PCSTAT" -a -G "$cg" -- true 2> e.txt
check "-G before any -e: perf's 'must define events before cgroups'" \
	grep -q 'must define events before cgroups' e.txt
"$PCSTAT" -a -e page-faults -G "$cg,$cg" -- true 2> e.txt
check "-G with more cgroups than events: exit 2 ($?)" test $? -eq 2
"$PCSTAT" -a -e page-faults -G "$cg" --for-each-cgroup "$cg" -- true 2> e.txt
check "-G with --for-each-cgroup: exit 2 ($?)" test $? -eq 2

# Both tools count the same run: enabled through --control (acknowledged)
# before the workload joins the cgroup, ended after it has exited.
mkfifo c1 a1 c2 a2 go1 go2
cat > work.sh <<EOF2
echo \$\$ > "$mnt/$cg/cgroup.procs" && exec "$helpers/touch-pages" 2000
EOF2
counted() {	# FILE1 FILE2 EVENT-OPTIONS...: run both, the workload once
	local out1=$1 out2=$2
	shift 2
	"$PCSTAT" -a -x, "$@" -D -1 --control fifo:c1,a1 -- cat go1 2> "$out1" &
	p1=$!
	if have perf; then
		perf stat -a -x, "$@" -D -1 --control fifo:c2,a2 -- cat go2 2> "$out2" &
		p2=$!
	fi
	exec 3> c1 4< a1
	echo enable >&3; read -r a <&4
	if have perf; then
		exec 5> c2 6< a2
		echo enable >&5; read -r a <&6
	fi
	sh work.sh
	echo > go1
	wait "$p1"
	if have perf; then
		echo > go2
		wait "$p2"
		exec 5>&- 6<&-
	fi
	exec 3>&- 4<&-
}
counted p.csv q.csv -e page-faults,task-clock,page-faults -G "$cg,$cg"
cat p.csv
pf=$(val page-faults p.csv | head -1)
rest=$(val page-faults p.csv | tail -1)
check "-G: $pf page faults in the cgroup: the workload's 2000 and its start" \
	awk -v v="$pf" 'BEGIN { exit !(v >= 2000 && v <= 2600) }'
check "-G: the third event, with no cgroup, counts the whole system ($rest)" \
	awk -v v="$rest" -v c="$pf" 'BEGIN { exit !(v >= c) }'
check "-G a,b: the cgroup column names the first two events' cgroup" \
	test "$(awk -F, 'NF > 3 && $4 != "" { print $4 }' p.csv | uniq -c |
		awk '{ print $1 $2 }')" = "2$cg"
if have perf; then
	cat q.csv
	ppf=$(val page-faults q.csv | head -1)
	# Same run, same kernel events: the counts agree exactly.
	check "-G: perf counts $ppf page faults in the cgroup, pcstat $pf" \
		test "$pf" = "$ppf"
	mask p.csv > a; mask q.csv > b
	diff -u b a || fail "-G CSV: the layout of perf's"
else
	without perf "the count beside perf's"
fi

counted p.csv q.csv --for-each-cgroup "$cg,/" -e page-faults
pf=$(awk -F, -v c="$cg" '$4 == c { print $1 }' p.csv)
all=$(awk -F, '$4 == "/" { print $1 }' p.csv)
check "--for-each-cgroup: $pf page faults in the cgroup" \
	awk -v v="$pf" 'BEGIN { exit !(v >= 2000 && v <= 2600) }'
check "--for-each-cgroup: the root's $all include them" \
	awk -v v="$all" -v c="$pf" 'BEGIN { exit !(v >= c) }'
if have perf; then
	ppf=$(awk -F, -v c="$cg" '$4 == c { print $1 }' q.csv)
	check "--for-each-cgroup: perf counts $ppf, pcstat $pf" \
		test "$pf" = "$ppf"
fi

# Layouts, numbers masked: the test's cgroup is empty now (<not counted>),
# the root counts.
if have perf; then
	for args in "-e task-clock,page-faults -G $cg" \
		    "-e task-clock,page-faults,context-switches -G $cg,/" \
		    "-e task-clock -G $cg -e page-faults" \
		    "-e task-clock,page-faults -G ,$cg" \
		    "-A -e task-clock -G $cg" \
		    "--per-socket -e task-clock -G $cg" \
		    "--for-each-cgroup $cg,/ -e task-clock,page-faults" \
		    "--for-each-cgroup ^pctools-test-$$\$ -e {task-clock,page-faults}" \
		    "--for-each-cgroup $cg"; do
		for fmt in "" -x, -j; do
			# shellcheck disable=SC2086
			"$PCSTAT" -a $fmt $args -- sleep 0.1 2> p.out
			# shellcheck disable=SC2086
			perf stat -a $fmt $args -- sleep 0.1 2> q.out
			# perf's JSON says "(null)" for no metric, pcstat ""
			mask p.out > x
			mask q.out | sed 's/"(null)"/""/' > y
			diff -u y x || fail "$args ${fmt:-human}: the layout of perf's"
		done
	done
	"$PCSTAT" -a -I 100 --interval-count 2 -e task-clock -G "$cg" 2> p.out
	perf stat -a -I 100 --interval-count 2 -e task-clock -G "$cg" 2> q.out
	mask p.out > x; mask q.out > y
	diff -u y x || fail "-G -I: the layout of perf's"
else
	without perf "the layouts beside perf's"
fi
done_testing
