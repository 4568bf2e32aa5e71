#!/bin/sh
# script.sh - monitor --script prints perf script's default sample lines:
# the same workload under perf record + perf script and under monitor
# --script gives lines of the same shape (each field's width, the
# separators, the colons), the same comm, tid, events, functions and
# DSOs, and the same counts: page faults exactly (touch-pages), hot_spin's
# CPU time within a tolerance measured under load.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

T="$top_builddir/tests/helpers/touch-pages"
S="$top_builddir/tests/helpers/spin"
CG="$top_builddir/tests/monitor/cg-helper-fp"

# perf script's line, its fields cut apart by '|':
# COMM|TID|TIME|PERIOD|EVENT|IP|SYM|DSO (the spaces that pad them kept)
LINE='^( *[^ ]+) ( *[0-9]+) ( *[0-9]+\.[0-9]{6}): ( *[0-9]+) ( *[a-z:-]+): ( +[0-9a-f]+) ([^ ]+\+0x[0-9a-f]+|\[unknown\]) \(([^)]*)\)$'
# fields FILE: the lines cut apart; a line that is not perf's is "BAD"
fields() {
	sed -E "s/$LINE/\1|\2|\3|\4|\5|\6|\7|\8/; t; s/^/BAD|/" "$1"
}
# shape FILE: each field's width, one line per distinct shape
shape() {
	fields "$1" | awk -F'|' '{ printf "%s", $1 == "BAD" ? "BAD " $0 : "";
		for (i = 1; i <= 6; i++) printf " %d", length($i); print "" }' |
		sort -u
}
# funcs FILE: "COUNT EVENT FUNCTION DSO" per function, the offset dropped
funcs() {
	fields "$1" | awk -F'|' '$1 != "BAD" { sub(/^ */, "", $5);
		sub(/\+0x.*/, "", $7); n[$5 " " $7 " " $8]++ }
		END { for (k in n) print n[k], k }' | sort -k2
}

# --- page faults: every fault one sample, exactly as perf's -------------
"$MONITOR" --script -e page-faults -c 1 -- "$T" 1000 > mon.out 2> mon.err
if have_perf; then
	perf record -q -o pf.data -e page-faults -c 1 -- "$T" 1000 \
		> /dev/null 2>&1
	perf script -i pf.data > perf.out 2> /dev/null
else
	without perf "perf script's lines"
fi
shape mon.out > mon.shape
if grep -q BAD mon.shape; then
	fail "--script: lines that are not perf script's: $(grep BAD mon.shape | head -3)"
else
	ok "--script: every line is perf script's (widths $(head -1 mon.shape))"
fi
# the comm and tid are the command's, one thread
n=$(fields mon.out | awk -F'|' '{ sub(/^ */, "", $1); sub(/^ */, "", $2);
	print $1, $2 }' | sort -u)
[ "$(echo "$n" | wc -l)" = 1 ] && [ "${n% *}" = touch-pages ] &&
	ok "--script: comm and tid '$n'" ||
	fail "--script: comm and tid: '$n' (want touch-pages and one tid)"
# touch-pages' own loop: 1000 faults in main, one sample each
mmain=$(funcs mon.out | awk '$3 == "main" { print $1 }')
[ "${mmain:-0}" -eq 1000 ] && ok "--script: 1000 faults, $mmain in main" ||
	fail "--script: '$mmain' samples in main for 1000 faults"
if have_perf; then
	shape perf.out > perf.shape
	if cmp -s mon.shape perf.shape; then
		ok "--script: the fields' widths are perf script's: $(cat perf.shape)"
	else
		fail "--script: widths differ: monitor $(cat mon.shape), perf $(cat perf.shape)"
	fi
	funcs mon.out > mon.funcs
	funcs perf.out > perf.funcs
	# the functions and DSOs of the fault loop agree exactly; start-up
	# (the loader's, libc's) within a few faults
	pmain=$(awk '$3 == "main" { print $1 }' perf.funcs)
	if [ "$mmain" = "$pmain" ] &&
	   [ "$(grep ' main ' mon.funcs | cut -d' ' -f2-)" = \
	     "$(grep ' main ' perf.funcs | cut -d' ' -f2-)" ]; then
		ok "--script: main's samples and DSO equal perf's ($pmain)"
	else
		fail "--script: main: monitor '$(grep ' main ' mon.funcs)', perf '$(grep ' main ' perf.funcs)'"
	fi
	mt=$(wc -l < mon.out) pt=$(wc -l < perf.out)
	within "$mt" "$pt" 2 && ok "--script: $mt lines, perf script $pt" ||
		fail "--script: $mt lines, perf script $pt"
fi

# --- --fields: perf script -F's fields, in perf's order and widths ---------
# mask PID: the run's own numbers out, their widths kept, for lines of
# two runs to compare: PID as perf prints it (%5d, or %5d/%-5d with the
# tid) all P, then each digit a 9, an address all x
mask() {
	awk -v p="$1" '{ s = $0; out = "";
		a = sprintf("%5d/%-5d", p, p); b = sprintf("%5d ", p);
		if ((i = index(s, a)) > 0)
			s = substr(s, 1, i - 1) "PPPPP/PPPPP" substr(s, i + length(a));
		else if ((i = index(s, b)) > 0)
			s = substr(s, 1, i - 1) "PPPPP " substr(s, i + length(b));
		while (match(s, /[^ \t]+/)) {
			tok = substr(s, RSTART, RLENGTH);
			out = out substr(s, 1, RSTART - 1);
			if (tok ~ /^[0-9a-f]+$/ && length(tok) >= 8)
				gsub(/./, "x", tok);
			else
				gsub(/[0-9]/, "9", tok);
			out = out tok; s = substr(s, RSTART + RLENGTH) }
		print out s }'
}
# the command's pid in a file: sh execs touch-pages in its place
TP='echo $$ > pid; exec "$1" 1000'
if have_perf; then
	perf record -q -o f.data -e page-faults -c 1 -- sh -c "$TP" sh "$T" \
		> /dev/null 2>&1
	ppid=$(cat pid)
fi
nf=0
for f in comm,tid,ip,sym tid,time,event,ip,sym,symoff,dso ip,sym,dso \
	 event,period,ip pid,tid,comm,ip,sym dso,ip,time,sym +pid -period,-dso \
	 sw:comm,tid,period; do
	"$MONITOR" --fields "$f" -e page-faults -c 1 -- sh -c "$TP" sh "$T" \
		> f.out 2> /dev/null
	n=$(wc -l < f.out) mpid=$(cat pid)
	# touch-pages' loop: main's lines, or without the ip its own (not
	# the sh's before the exec)
	key=' main'
	grep -q "$key" f.out || key='touch-pages '
	grep "$key" f.out | mask "$mpid" | sort -u > f.mon
	if have_perf; then
		perf script -i f.data -F "$f" > f.perf 2> /dev/null
		grep "$key" f.perf | mask "$ppid" | sort -u > f.p
		if cmp -s f.mon f.p && [ "$n" -gt 1000 ]; then
			nf=$((nf + 1))
		else
			fail "--fields $f: monitor '$(head -1 f.mon)', perf script -F '$(head -1 f.p)'"
		fi
	elif [ "$n" -gt 1000 ]; then
		nf=$((nf + 1))
	fi
done
[ $nf = 9 ] && ok "--fields: 9 lists, each line perf script -F's"
"$MONITOR" --fields comm,srcline -- "$T" 10 > /dev/null 2> ferr
[ $? = 2 ] && grep -q "'srcline' is not a field monitor prints" ferr &&
	ok "--fields comm,srcline: $(cat ferr)" || fail "--fields srcline: $(cat ferr)"

# --- cpu-clock: hot_spin's CPU time, under load ---------------------------
# Two busy loops share the 2 CPUs: the tolerance holds under load.
sh -c 'while :; do :; done' &
at_exit "kill $!"
sh -c 'while :; do :; done' &
at_exit "kill $!"
# spin prints its CPU time (us); -c 1000000 is one sample per ms
# its CPU time apart: its write would fall between monitor's blocks
"$MONITOR" --script -e cpu-clock -c 1000000 -- sh -c 'exec "$1" 300 > cpu' \
	sh "$S" > spin.lines 2> spin.err
cpu=$(cat cpu)
hot=$(funcs spin.lines | awk '$3 == "hot_spin" { print $1 }')
if [ -n "$hot" ] && within "$hot" $((cpu / 1000)) 15; then
	ok "--script cpu-clock: $hot samples in hot_spin for $((cpu / 1000)) ms"
else
	fail "--script cpu-clock: '$hot' samples in hot_spin for $((cpu / 1000)) ms: $(head -2 spin.lines)"
fi
if have_perf; then
	perf record -q -o spin.data -e cpu-clock -c 1000000 -- \
		sh -c 'exec "$1" 300 > cpu' sh "$S" > /dev/null 2>&1
	pcpu=$(cat cpu)
	perf script -i spin.data > pspin.lines 2> /dev/null
	phot=$(funcs pspin.lines | awk '$3 == "hot_spin" { print $1 }')
	# each against its own run's CPU time: the runs differ
	if [ -n "$phot" ] && within "$phot" $((pcpu / 1000)) 15 &&
	   [ "$(funcs spin.lines | awk '$3 == "hot_spin" { print $2, $4 }')" = \
	     "$(funcs pspin.lines | awk '$3 == "hot_spin" { print $2, $4 }')" ]; then
		ok "--script cpu-clock: perf script $phot in hot_spin for $((pcpu / 1000)) ms, same event and DSO"
	else
		fail "--script cpu-clock: perf '$phot' for $((pcpu / 1000)) ms: $(grep hot_spin pspin.lines | head -1) vs $(grep hot_spin spin.lines | head -1)"
	fi
fi

# --- several events: the name padded to the longest ---------------------
"$MONITOR" --script -e cpu-clock,page-faults -c 1000000 -- "$T" 3000 \
	> two.out 2> two.err
ncc=$(grep -c '^ *touch-pages  *[0-9]*  *[0-9.]*:  *1000000   cpu-clock:  ' two.out)
npf=$(grep -c '^ *touch-pages  *[0-9]*  *[0-9.]*:  *1000000 page-faults:  ' two.out)
if have_perf; then
	perf record -q -o two.data -e cpu-clock,page-faults -c 1000000 -- \
		"$T" 3000 > /dev/null 2>&1
	perf script -i two.data > ptwo.out 2> /dev/null
	pcc=$(grep -c '^ *touch-pages  *[0-9]*  *[0-9.]*:  *1000000   cpu-clock:  ' ptwo.out)
	[ "$pcc" -gt 0 ] || fail "two events: perf's cpu-clock lines differ: $(head -2 ptwo.out)"
	shape two.out | grep -q BAD && fail "two events: not perf's: $(shape two.out | grep BAD | head -2)"
fi
# 3000 faults at -c 1000000: no page-faults sample; some cpu-clock ones
[ "$ncc" -gt 0 ] && [ "$ncc" = "$(wc -l < two.out)" ] && [ "$npf" = 0 ] &&
	ok "two events: $ncc cpu-clock lines, padded as perf pads them" ||
	fail "two events: $ncc cpu-clock, $npf page-faults of $(wc -l < two.out): $(head -2 two.out)"

# --- -g: the chain under the sample, perf's frame lines ------------------
FRAME='^	 *[0-9a-f]+ ([^ ]+\+0x[0-9a-f]+|\[unknown\]) \([^)]*\)$'
HEAD='^[^ ]+ +[0-9]+ +[0-9]+\.[0-9]{6}: +[0-9]+ [a-z-]+: $'
# chains FILE: the first chain of each sample as "f1;f2;...", counted
chains() {
	awk '/^\t/ { sub(/^\t */, ""); split($0, a, " "); f = a[2];
		sub(/\+0x.*/, "", f); c = c (c == "" ? "" : ";") f; next }
		/^$/ { if (c != "") n[c]++; c = ""; next }
		END { for (k in n) print n[k], k }' "$1" | sort -rn
}
# badlines FILE: lines neither a sample's head, a frame nor the blank
badlines() {
	grep -Ev "$HEAD" "$1" | grep -Ev "$FRAME" | grep -v '^$' | grep -v '^ready '
}
"$MONITOR" --script -g -e cpu-clock -c 1000000 -- "$CG" tree 400 > cg.out 2> cg.err
bad=$(badlines cg.out | head -3)
[ -z "$bad" ] && ok "-g: heads, frames and blank lines only" ||
	fail "-g: lines that are not perf script's: $bad"
top=$(chains cg.out | head -1 | cut -d' ' -f2)
case $top in
	cg_hot\;*main*) ok "-g: the hottest chain is $top" ;;
	*) fail "-g: the hottest chain is '$top': $(chains cg.out | head -3)" ;;
esac
if have_perf; then
	perf record -q -g -o cg.data -e cpu-clock -c 1000000 -- "$CG" \
		tree 400 > /dev/null 2>&1
	perf script -i cg.data > pcg.out 2> /dev/null
	bad=$(badlines pcg.out | head -3)
	[ -z "$bad" ] || fail "-g: perf's own lines outside the pattern: $bad"
	# the chains monitor saw most are perf's, up to main
	mtop=$(chains cg.out | head -2 | sed 's/;main.*/;main/' | cut -d' ' -f2 | sort)
	ptop=$(chains pcg.out | head -2 | sed 's/;main.*/;main/' | cut -d' ' -f2 | sort)
	[ "$mtop" = "$ptop" ] && ok "-g: the two hottest chains are perf's: $(echo $ptop)" ||
		fail "-g: monitor's hottest chains $(echo $mtop), perf's $(echo $ptop)"
fi
done_testing
