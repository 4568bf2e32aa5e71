#!/bin/sh
# callgraph.sh - kerneltop -g on cg-helper's known call tree (cg_hot()
# called three quarters of the time as main -> cg_a -> cg_b -> cg_hot, a
# quarter as main -> cg_c -> cg_hot), on a real terminal (tmux): the
# Children and Self columns, the callers of cg_hot expanded as a tree on
# screen, its callees, the sort key, the snapshot key; in batch, the
# columns and the export written at the end.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop tmux perf_event

T="$top_builddir/tests/monitor"
mode=dwarf helper=cg-helper-nofp
if "$KERNELTOP" --call-graph dwarf -b -n 1 2>&1 | grep -q "without libunwind"; then
	echo "note: built without libunwind: frame pointers instead of dwarf"
	mode=fp helper=cg-helper-fp
fi
spawn_ready "$T/$helper" tree 600000 || fail "helper did not start"
hp=$spawned

# row NAME FUNC: "children self samples" of FUNC's row on the last screen
row() {
	awk -v f="$2" '/^ *Children / { t = 1; next }
	     t && $5 == f { sub("%", "", $1); sub("%", "", $2); print $1, $2, $3; exit }' "$1.screen"
}

# === batch: the columns, and the chains exported at the end ===========
"$KERNELTOP" -b -n 3 -d 0.5 -e cpu-clock --call-graph $mode -p $hp \
	--folded out.folded > batch.out 2> batch.err ||
	fail "batch: $(cat batch.err)"
n=$(kt_frames batch.out) && [ "$n" -eq 3 ] && ok "batch: $n frames" ||
	fail "batch frames: $n"
kt_header batch.out | grep -Eq '^ *Children +Self +Samples +Symbol +Shared Object' &&
	ok "batch: Children, Self, Samples columns" ||
	fail "batch header: $(kt_header batch.out)"
kt_rows batch.out | awk '$5 == "main" { sub("%", "", $1); m = $1 + 0 }
	$5 == "cg_hot" { sub("%", "", $2); h = $2 + 0 }
	END { exit !(m >= 95 && h >= 70) }' &&
	ok "batch: main holds the chains (Children), cg_hot the samples (Self)" ||
	fail "batch rows: $(kt_rows batch.out | head -8)"
grep -q '^_start;.*main;cg_a;cg_b;cg_hot [0-9]*$' out.folded &&
	grep -q ';main;cg_c;cg_hot [0-9]*$' out.folded &&
	ok "--folded written at the end, both paths in it" ||
	fail "folded: $(head -3 out.folded)"

# === -g on a stripped copy: one [unknown] row for its file ===============
# The flat table (and the man page) count what has no name as one
# "[unknown]" row per DSO; -g's rows must agree, not show one
# "cgs+0xOFF" row per address.
cp "$T/$helper" ./cgs && strip ./cgs
spawn_ready ./cgs tree 600000 || fail "stripped helper did not start"
sp=$spawned
SP=$(pwd -P)/cgs
"$KERNELTOP" -b -n 2 -d 0.5 -e cpu-clock --call-graph $mode -p $sp > sg.out 2> sg.err &&
	"$KERNELTOP" -b -n 2 -d 0.5 -e cpu-clock -p $sp > sf.out 2>> sg.err ||
	fail "stripped: $(cat sg.err)"
kill $sp
g=$(kt_rows sg.out | awk -v p="$SP" '$NF == p { print $5 }' | sort | uniq -c | sed 's/^ *//')
f=$(kt_rows sf.out | awk -v p="$SP" '$NF == p { print $4 }' | sort | uniq -c | sed 's/^ *//')
[ "$g" = "1 [unknown]" ] && [ "$f" = "1 [unknown]" ] &&
	ok "stripped: -g and the flat table each show one [unknown] row of $SP" ||
	fail "stripped: -g rows of $SP: $(echo $g | head -c 300); flat: $(echo $f)"

# === -g --pprof: the program is pprof's "File:" ===========================
# xz's samples are in liblzma, built without frame pointers: its chains
# stop there and never reach xz, so the program must come from the
# process (it was liblzma.so in most runs).
xz=$(command -v xz)
if [ -z "$xz" ] || ! command -v go >/dev/null 2>&1; then
	echo "note: no xz or no go tool: -g --pprof's File: not checked"
elif "$KERNELTOP" -b -n 1 --pprof x.pb.gz 2>&1 | grep -q "no pprof"; then
	echo "note: built without protobuf-c: -g --pprof not checked"
else
	sh -c 'exec "$0" -9 -T1 -c < /dev/zero > /dev/null' "$xz" &
	xp=$!
	at_exit "kill $xp 2>/dev/null"
	retry 5 sh -c "[ \"\$(readlink /proc/$xp/exe)\" = \"$(readlink -f "$xz")\" ]"
	"$KERNELTOP" -b -g -n 3 -d 0.5 -e cpu-clock -p $xp --pprof xz.pb.gz \
		> /dev/null 2> xz.err || fail "-g --pprof on xz: $(cat xz.err)"
	kill $xp
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= \
		go tool pprof -top -symbolize=none xz.pb.gz > xz.top 2>&1
	[ "$(head -1 xz.top)" = "File: $(basename "$(readlink -f "$xz")")" ] &&
		ok "-g --pprof on xz: $(head -1 xz.top)" ||
		fail "-g --pprof on xz: '$(head -1 xz.top)' (want File: xz)"
fi

# tree_lines NAME: the lines of the call tree on NAME's last screen
tree_lines() {
	grep -cE '^ *[0-9.]+% +[0-9]+  ' "$1.screen"
}

# === the TUI ===============================================================
kt_start g 120 40 -d 0.5 -e cpu-clock --call-graph $mode -p $hp
wait_screen g '^ *Children +Self +Samples' 5 && wait_screen g ' \[\.\] cg_b ' 10 ||
	fail "no Children columns with cg_b: $(cat g.screen)"
set -- $(row g main)
main_c=$1 main_s=$2
set -- $(row g cg_hot)
awk -v mc="$main_c" -v ms="$main_s" -v hs="$2" \
	'BEGIN { exit !(mc >= 95 && ms < 1 && hs >= 70) }' &&
	ok "main: Children $main_c%, Self $main_s%; cg_hot: Self $2%" ||
	fail "main '$main_c' '$main_s', cg_hot '$*': $(cat g.screen)"
tail -n 1 g.screen | grep -q 'Enter callers' || fail "key bar: $(tail -n 1 g.screen)"

# h: Children and Self said in one sentence each, and why past 100%
keys g h
wait_screen g 'sums past' 3 && grep -q 'Self (-g): the samples taken in the function itself' g.screen &&
	ok "help: what Children and Self mean" || fail "help: $(cat g.screen)"
keys g x
wait_screen g '^ *Children ' 3 || fail "help did not go"

# Enter on cg_hot: its callers as a tree
keys g /
keys g cg_hot Enter
wait_screen g 'filter: cg_hot' 3 || fail "filter: $(cat g.screen)"
keys g Home Enter
if wait_screen g '^Callers of cg_hot ' 5; then
	wait_screen g '^ *[0-9.]+% +[0-9]+ +\+ cg_b ' 3 &&
		grep -Eq '^ *[0-9.]+% +[0-9]+ +\+ cg_c ' g.screen &&
		ok "Enter: the callers of cg_hot, cg_b and cg_c, closed" ||
		fail "callers: $(cat g.screen)"
	# cg_b's share of all samples against cg_c's: 3 to 1 by design
	awk '$4 == "cg_b" { sub("%", "", $1); b = $1 + 0 } $4 == "cg_c" { sub("%", "", $1); c = $1 + 0 }
	     END { exit !(c > 0 && b / c > 1.8 && b / c < 5) }' g.screen &&
		ok "shares: $(awk '$4 ~ /^cg_[bc]$/ { printf "%s %s ", $4, $1 }' g.screen)" ||
		fail "shares of cg_b and cg_c: $(cat g.screen)"
	# open cg_b, then cg_a under it: main is the root
	keys g Down
	keys g Enter
	wait_screen g '^ *[0-9.]+% +[0-9]+ +\+ cg_a ' 3 && ok "cg_b opened: cg_a under it" ||
		fail "cg_b open: $(cat g.screen)"
	keys g Down Enter
	wait_screen g '^ *[0-9.]+% +[0-9]+ {7,}[-+ ] main ' 3 &&
		ok "cg_a opened: main, three levels down" || fail "cg_a open: $(cat g.screen)"
	# C: the root and its callers alone, every one closed; E: every
	# node open, cg_c's too (never opened), and those that come later
	# (the tree is taken afresh at each refresh); C again: as before
	keys g C
	tree_deep='^ *[0-9.]+% +[0-9]+ {6,}[-+ ] '
	wait_screen_not g "$tree_deep" 3 && wait_screen g '^ *[0-9.]+% +[0-9]+ {4}\+ cg_b ' 3 &&
		grep -Eq '^ *[0-9.]+% +[0-9]+ {4}\+ cg_c ' g.screen &&
		ok "C: cg_hot and its callers only, closed ($(tree_lines g) lines)" ||
		fail "C: $(cat g.screen)"
	closed=$(tree_lines g)
	tail -n 1 g.screen | grep -q 'E expand all  C collapse all' ||
		fail "call tree footer: $(tail -n 1 g.screen)"
	keys g E
	wait_screen g '^ *[0-9.]+% +[0-9]+ {6}[- ] main ' 3 &&
		wait_screen g '^ *[0-9.]+% +[0-9]+ {8}[- ] main ' 3 &&
		wait_screen_not g '^ *[0-9.]+% +[0-9]+ +\+ ' 3 &&
		[ "$(tree_lines g)" -gt "$closed" ] &&
		ok "E: every node open, main under cg_c and under cg_a ($(tree_lines g) lines)" ||
		fail "E: $(cat g.screen)"
	sleep 1.2	# two refreshes: the nodes taken anew stay open
	screen g > /dev/null
	! grep -Eq '^ *[0-9.]+% +[0-9]+ +\+ ' g.screen &&
		ok "E: still open after refreshes" || fail "E, refreshed: $(cat g.screen)"
	keys g C
	wait_screen_not g "$tree_deep" 3 && wait_screen g '^ *[0-9.]+% +[0-9]+ {4}\+ cg_b ' 3 &&
		grep -Eq '^ *[0-9.]+% +[0-9]+ {4}\+ cg_c ' g.screen &&
		ok "C again: closed back to the callers of cg_hot ($(tree_lines g) lines)" ||
		fail "C again: $(cat g.screen)"
	# c: the callees instead; q: back
	keys g c
	wait_screen g '^Callees of cg_hot ' 3 && ok "c: the callees of cg_hot" ||
		fail "callees: $(cat g.screen)"
	keys g q
	wait_screen g '^ *Children ' 3 && ok "q: back to the table" || fail "q: $(cat g.screen)"
else
	fail "Enter: no callers tree: $(cat g.screen)"
fi

# c: sort by Self (cg_hot first), and back; S: a flame graph saved
keys g /
keys g Enter
keys g c
wait_screen g 'sort: self' 3 &&
	awk '/^ *Children / { getline; exit !($5 == "cg_hot") }' g.screen &&
	ok "c: by Self, cg_hot first" || fail "sort by self: $(cat g.screen)"
keys g c
keys g S
if wait_screen g 'flame graph saved to ' 5; then
	svg=$(ls kerneltop-*.svg 2>/dev/null | head -1)
	[ -n "$svg" ] && grep -q 'data-n="cg_hot"' "$svg" &&
		ok "S: $svg saved, cg_hot in it" || fail "S: no svg with cg_hot: $(ls)"
else
	fail "S: $(cat g.screen)"
fi
# S in a sticky directory that anyone may write (as /tmp; the test's
# own, made so for the while): links that user nobody planted at every
# name of the next 20 seconds, to a file of root's, are never followed
if have root && have setpriv; then
	mkdir private && echo root-file > private/passwd
	rm -f kerneltop-*.svg
	chmod 1777 "$tmpdir"
	now=$(date +%s)
	for s in $(seq $now $((now + 20))); do
		setpriv --reuid=65534 --regid=65534 --clear-groups ln -s \
			private/passwd kerneltop-$(date -d @$s +%Y%m%d-%H%M%S).svg
	done
	keys g S
	if wait_screen g 'cannot save kerneltop-[0-9-]*\.svg: a symbolic link on the path is another' 5 &&
	   [ "$(cat private/passwd)" = root-file ]; then
		ok "S over links nobody planted: refused, the file they name kept"
	else
		fail "S over planted links: '$(head -c 80 private/passwd)', $(status g)"
	fi
	chmod 700 "$tmpdir"
	find . -maxdepth 1 -type l -name 'kerneltop-*.svg' -delete
else
	without root "S over links another user planted"
fi
keys g q
rc=$(kt_wait_exit g 10)
[ "$rc" = 0 ] && ok "q: exit 0" || fail "exit '$rc'"

# without -g: Enter still annotates, S says what is missing
kt_start n 120 40 -d 0.5 -e cpu-clock -p $hp
wait_screen n '^ *Overhead ' 5 || fail "no table"
keys n S
wait_screen n 'start kerneltop with -g' 3 && ok "S without -g: says to use -g" ||
	fail "S without -g: $(cat n.screen)"
keys n q
kt_wait_exit n 10 > /dev/null
done_testing
