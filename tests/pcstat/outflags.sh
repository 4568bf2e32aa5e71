#!/bin/sh
# Output and counting flags perf stat users reach for: -n, --all-user,
# --all-kernel, --json-output, --no-scale/--scale, -B/--no-big-num, and perf's
# event modifiers G H I D e P S W; side by side
# with perf stat on touch-pages (numbers masked).
. "$top_srcdir/tests/test-subr.sh"
need perf_event

mask() { sed -e 's/[0-9][0-9.,]*/N/g' -e 's/  */ /g' "$@"; }
val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }
n=3000

"$PCSTAT" -n -- true 2> null.txt
check "-n: no event lines" test "$(grep -c 'msec\|faults' null.txt)" -eq 0
check "-n: the elapsed line" grep -q 'seconds time elapsed' null.txt
"$PCSTAT" -n -e page-faults -- true 2> /dev/null
check "-n with -e: exit 2 ($?)" test $? -eq 2

"$PCSTAT" -x, --all-user -e page-faults -- "$helpers/touch-pages" $n 2> u.csv
"$PCSTAT" -x, --all-kernel -e page-faults -- "$helpers/touch-pages" $n 2> k.csv
u=$(val page-faults u.csv) k=$(val page-faults k.csv)
check "--all-user: $u page faults, the $n touched and start-up" \
	awk -v v="$u" -v n=$n 'BEGIN { exit !(v >= n && v <= n + 200) }'
check "--all-kernel: $k page faults, none of the $n" test "$k" -lt 200
"$PCSTAT" --all-user --all-kernel -- true 2> /dev/null
check "--all-user --all-kernel: exit 2 ($?)" test $? -eq 2

"$PCSTAT" --json-output -e page-faults -- true 2> jo.json
"$PCSTAT" -j -e page-faults -- true 2> j.json
mask jo.json > x; mask j.json > y
check "--json-output is -j" cmp -s x y

"$PCSTAT" -v -x, -e page-faults,task-clock -- "$helpers/touch-pages" $n 2> v.txt
check "-v: the raw page-fault count, as the CSV line has it" \
	test "$(awk '$1 == "page-faults:" { print $2 }' v.txt)" = \
	     "$(val page-faults v.txt)"
check "-v: value enabled running, the enabled time as the CSV's" \
	test "$(awk '$1 == "task-clock:" { print $3 }' v.txt)" = \
	     "$(awk -F, '$3 == "task-clock" { print $4 }' v.txt)"
"$PCSTAT" -v -r 2 -x, -e page-faults -- true 2> vr.txt
check "-v -r 2: a line per run" test "$(grep -c '^page-faults: ' vr.txt)" -eq 2

mkdir -p loc
if localedef -i en_US -f UTF-8 "$PWD/loc/en_US.UTF-8" >/dev/null 2>&1; then
	LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8 "$PCSTAT" --no-big-num -e page-faults \
		-- "$helpers/touch-pages" $n 2> nobig.txt
	check "--no-big-num: no thousands separator" \
		grep -Eq '^ +[0-9]{4} +page-faults' nobig.txt
	LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8 "$PCSTAT" --no-big-num -B -e page-faults \
		-- "$helpers/touch-pages" $n 2> big.txt
	check "-B after --no-big-num: grouped again" \
		grep -Eq '^ +[0-9],[0-9]{3} +page-faults' big.txt
else
	echo "note: localedef cannot build en_US here; --no-big-num not checked"
fi

"$PCSTAT" -x, -B -e page-faults -- true 2> bx.txt
check "-x, -B: exit 2 ($?)" test $? -eq 2
check "-x, -B: says -B is for the human layout" grep -q 'human layout only' bx.txt

if have perf; then
	# perf refuses -B with -x, the last of -B and --no-big-num counting.
	for args in "-x, -B" "-B -x," "-x, -B --no-big-num" \
		    "-x, --no-big-num -B" "-j -B" "-x, -j -B"; do
		"$PCSTAT" $args -e page-faults -- true 2> /dev/null; prc=$?
		perf stat $args -e page-faults -- true > /dev/null 2>&1; qrc=$?
		check "'$args': pcstat exits $prc, perf $qrc: both 0 or neither" \
			test $((prc == 0)) -eq $((qrc == 0))
	done
	for args in "-n" "-n -x," "--no-scale -e page-faults" \
		    "--no-scale -x, -e page-faults" "--all-user -x, -e page-faults" \
		    "--scale -e page-faults" "--no-scale --scale -x, -e page-faults" \
		    "--json-output -e page-faults"; do
		"$PCSTAT" $args -- true 2> p.out
		perf stat $args -- true 2> q.out
		mask p.out > x; mask q.out | sed 's/"(null)"/""/' > y
		diff -u y x || fail "'$args': the layout of perf's"
	done
	# -v: perf's "NAME: VALUE ENABLED RUNNING" lines (its CPUID and
	# control-descriptor notes are perf's own).
	perf stat -v -x, -e page-faults,task-clock -- "$helpers/touch-pages" $n 2> pv.txt
	grep -v '^Using CPUID\|^Control descriptor' pv.txt | mask > y; mask v.txt > x
	diff -u y x || fail "-v: the layout of perf's"
	# -d, -dd, -ddd, -d -d: perf's events, in perf's order.
	for d in -d -dd -ddd "-d -d"; do
		"$PCSTAT" $d -x, -- true 2> d.csv
		perf stat $d -x, -- true 2> pd.csv
		cut -d, -f3 d.csv > x; cut -d, -f3 pd.csv > y
		diff -u y x || fail "$d: perf's events in perf's order"
	done
	# perf's modifiers G H I D e P S W: the same counts and layout.
	for m in G H I D e P S W; do
		"$PCSTAT" -x, -e page-faults:$m -- "$helpers/touch-pages" $n 2> m.csv
		perf stat -x, -e page-faults:$m -- "$helpers/touch-pages" $n 2> pm.csv
		mask m.csv > x; mask pm.csv > y
		diff -u y x || fail "page-faults:$m: the layout of perf's"
		check "page-faults:$m: pcstat $(val page-faults:$m m.csv), perf $(val page-faults:$m pm.csv) (within 3%)" \
			within "$(val page-faults:$m m.csv)" "$(val page-faults:$m pm.csv)" 3
	done
	# perf refuses a modifier given twice (p excepted, up to three).
	for ev in page-faults:uu page-faults:kuk page-faults:upp \
		  page-faults:pppp "{page-faults}:HH" msr/tsc/uu; do
		"$PCSTAT" -x, -e "$ev" -- true 2> /dev/null; prc=$?
		perf stat -x, -e "$ev" -- true > /dev/null 2>&1; qrc=$?
		check "-e '$ev': pcstat exits $prc, perf $qrc: both 0 or neither" \
			test $((prc == 0)) -eq $((qrc == 0))
	done
	perf stat -x, --all-user -e page-faults -- "$helpers/touch-pages" $n 2> pu.csv
	pu=$(val page-faults pu.csv)
	check "--all-user: pcstat $u, perf $pu (within 3%)" within "$u" "$pu" 3
else
	without perf "the comparison with perf"
fi
done_testing
