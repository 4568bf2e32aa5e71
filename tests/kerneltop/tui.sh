#!/bin/sh
# tui.sh - kerneltop on a real terminal (a private tmux server, as tmux's
# regress/ tests drive tmux): the hot function shows up with its share,
# every key of the help screen does what it says and the screen is
# asserted each time, resizes redraw to fit, a too-small terminal says
# so, and q, SIGINT, SIGTERM and SIGHUP leave the terminal as it was.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop tmux perf_event

H="$top_builddir/tests/kerneltop/kt-helper"
HPATH=$(cd "$(dirname "$H")" && pwd -P)/kt-helper
SRC="$top_srcdir/tests/kerneltop/kt-helper.c"
KEYBAR='h help  q quit  s sort  d dso  t thread  / filter  e event  b baseline  H health'

# rows NAME: the table rows on the last captured screen of NAME (the lines
# after the column header that start with a number)
rows() {
	awk '/^ *(Overhead|Weight) / { t = 1; next }
	     t && /^[> ]*[-+]?[0-9][0-9.]*%? / { print }' "$1.screen"
}
# line NAME N: line N of the last captured screen
line() {
	sed -n "${2}p" "$1.screen"
}
# status NAME: the status line (line 3)
status() {
	line "$1" 3
}
# path_shown NAME TEXT [AFTER]: a line of NAME's screen (captured anew)
# has TEXT, then $HPATH and AFTER, or as much of them as the terminal's
# width leaves: a build in a long path is cut at the edge.  Compared as
# text, not as a pattern (a path may hold '.', '+' or '(').
path_shown() {
	local w
	w=$(tm display -p -t "$1" '#{pane_width}')
	screen "$1" | awk -v t="$2" -v p="$HPATH${3:-}" -v w="$w" '
		{ i = index($0, t); if (!i) next
		  r = substr($0, i + length(t)); sub(/ +$/, "", r)
		  if (index(r, p) == 1 ||
		      (length($0) >= w && r != "" && index(p, r) == 1)) f = 1 }
		END { exit !f }'
}
# fixline NAME: the number of the first line with a fix on NAME's screen
# (captured anew), empty when none is shown; fixline_at NAME N: it is N
fixline() {
	screen "$1" | grep -nE '^ +fix: ' | head -1 | cut -d: -f1
}
fixline_at() {
	[ "$(fixline "$1")" = "$2" ]
}
# fixline_past NAME N: the first fix, at N at the start, is gone or above
# line N - 1 (scrolled past a line)
fixline_past() {
	local f
	f=$(fixline "$1")
	[ -z "$f" ] || [ "$f" -lt $(($2 - 1)) ]
}
# lastline NAME: the bottom line of the screen
lastline() {
	tail -n 1 "$1.screen"
}
# selected NAME: the row shown in reverse video, as plain text.  tmux
# writes an SGR sequence only where the attributes change, so the state
# is carried from line to line.
# The capture also leaves NAME.screen, so that rows NAME is of the same
# instant.
selected() {
	tm capture-pane -p -e -t "$1" > "$1.escreen"
	sed 's/\x1b\[[0-9;]*m//g' "$1.escreen" > "$1.screen"
	awk '
	function sgr(p, n, a, i) {
		n = split(p == "" ? "0" : p, a, ";")
		for (i = 1; i <= n; i++) {
			if (a[i] == 38 || a[i] == 48) { i += a[i + 1] == 5 ? 2 : 4; continue }
			if (a[i] == 0 || a[i] == 27) rev = 0; else if (a[i] == 7) rev = 1
		}
	}
	{ s = $0
	  while (match(s, /^\033\[[0-9;]*m/)) { sgr(substr(s, 3, RLENGTH - 3)); s = substr(s, RLENGTH + 1) }
	  lead = rev
	  while (match(s, /\033\[[0-9;]*m/)) { sgr(substr(s, RSTART + 2, RLENGTH - 3)); s = substr(s, RSTART + RLENGTH) }
	  plain = $0; gsub(/\033\[[0-9;]*m/, "", plain)
	  if (t && lead && plain ~ /^[> ]*[-+]?[0-9][0-9.]*%? /) { print plain; exit }
	  if (plain ~ /^ *(Overhead|Weight) /) t = 1 }' "$1.escreen"
}
# wait_sel NAME ERE [SECS]: until the selected row matches ERE
sel_has() {
	selected "$1" | grep -Eq -- "$2"
}
wait_sel() {
	retry "${3:-5}" sel_has "$1" "$2"
}
# poll NAME SECS CMD...: capture NAME's screen until CMD (which reads
# it, e.g. through rows) succeeds, SECS at most: a screen caught in the
# middle of a redraw must not decide a check
poll() {
	local name=$1 secs=$2
	shift 2
	retry "$secs" screen_then "$name" "$@"
}
# screen_then NAME CMD...: capture NAME's screen, then run CMD on it
screen_then() {
	local name=$1
	shift
	screen "$name" > /dev/null
	"$@"
}
by_sym() { rows m | awk '{ print $4 }' | LC_ALL=C sort -c 2>/dev/null; }
by_dso() { rows m | awk '{ print $NF }' | LC_ALL=C sort -c 2>/dev/null; }
by_share() {
	rows m | awk '{ v = $1; sub("%", "", v); v += 0; if (NR > 1 && v > p + 0.001) exit 1; p = v }'
}
# hot_share MIN: kt_hot is the first row, with at least MIN samples
hot_share() {
	rows m | awk -v min="$1" 'NR == 1 && $4 == "kt_hot" && $2 >= min { ok = 1 } END { exit !ok }'
}

# hot_lines FUNC: the first and last source line of FUNC in the helper
hot_lines() {
	echo "$(grep -n "BEGIN $1 " "$SRC" | cut -d: -f1) $(grep -n "END $1 " "$SRC" | cut -d: -f1)"
}
# restored NAME: kerneltop in NAME exited, stty -a as before, the shell's
# screen back (no alternate screen) with a visible cursor
restored() {
	local what=$1 name=$2 want=$3 rc
	rc=$(kt_wait_exit "$name" 10)
	if [ -z "$rc" ]; then
		fail "$what: kerneltop did not exit; screen: $(screen "$name" | head -3)"
		return
	fi
	[ -z "$want" ] || [ "$rc" = "$want" ] || fail "$what: exit $rc (want $want)"
	if stty_same "$name"; then
		ok "$what: exit $rc, stty -a unchanged"
	else
		fail "$what: stty -a changed: $(diff "$name.stty-before" "$name.stty-after" | tail -2)"
	fi
	flags=$(tm display -p -t "$name" '#{alternate_on} #{cursor_flag}')
	[ "$flags" = "0 1" ] || fail "$what: alternate screen / cursor flags '$flags' (want '0 1')"
	wait_screen "$name" "^rc=$rc\$" 3 || fail "$what: no shell output after exit: $(cat "$name.screen")"
}

spawn_ready "$H" hot 0 || fail "helper did not start"
hp=$spawned

# === the main session: one helper, -p, cpu-clock, 0.5 s refresh ==========
kt_start m 120 40 -d 0.5 -e cpu-clock -p $hp
# the first frame at once, the hot function within a few seconds
wait_screen m '^kerneltop: ' 3 && ok "first frame" || fail "no frame in 3 s: $(cat m.screen)"
# then on top with its share, once it has 500 samples (perf here: 89.3%;
# batch.sh measured 87.1-90.4 on ~3000 samples; 500 add +-1.4 points)
if wait_screen m ' \[\.\] kt_hot ' 5 && poll m 5 hot_share 500; then
	hot=$(rows m | awk '$4 == "kt_hot" { sub("%", "", $1); print $1; exit }')
	awk -v h="$hot" 'BEGIN { exit !(h >= 82 && h <= 95) }' &&
		ok "kt_hot on top with $hot%" || fail "kt_hot share '$hot' (want 82-95)"
else
	fail "kt_hot not on top with 500 samples in 10 s: $(rows m | head -3)"
fi
line m 1 | grep -Eq '^kerneltop: [0-9]+ samples/s +cpu-clock 4000 Hz +kernel [0-9.]+% +user [0-9.]+% +lost [0-9]+ +throttled [0-9]+' ||
	fail "line 1: '$(line m 1)'"
line m 2 | grep -Eq "^target: pid $hp( on CPUs [0-9][-0-9,]*)? +unresolved [0-9.]+% +refresh 0\.5s \(decay\)" ||
	fail "line 2: '$(line m 2)'"
line m 4 | grep -Eq '^ *Overhead +Samples +Symbol +Shared Object' || fail "line 4: '$(line m 4)'"
[ "$(lastline m | sed 's/ *$//')" = "$KEYBAR" ] && [ "$(wc -l < m.screen)" -eq 40 ] &&
	ok "key bar on line 40" || fail "key bar: '$(lastline m)' (line $(wc -l < m.screen))"

# --- h / ?: the help screen lists every key; any key leaves it ------------
for k in h '?'; do
	keys m -l "$k"
	if wait_screen m 'annotate' 3; then
		miss=
		for w in quit sort dso thread hide filter zero pause event annotate health baseline save; do
			grep -qi "$w" m.screen || miss="$miss $w"
		done
		[ -z "$miss" ] && ok "help ($k) lists every key" || fail "help ($k) lacks:$miss"
		for key in 'PgUp|PageUp' 'PgDn|PageDown' Home End Enter Tab space; do
			grep -Eqi "$key" m.screen || fail "help ($k) does not list $key"
		done
	else
		fail "'$k': no help screen: $(cat m.screen)"
	fi
	keys m x
	wait_screen_not m 'annotate' 3 && wait_screen m '^ *Overhead ' 3 &&
		ok "a key leaves the help" || fail "help did not go: $(cat m.screen)"
done

# --- moving the selection ------------------------------------------------
keys m Home
wait_sel m ' kt_hot ' && ok "Home: kt_hot selected" || fail "Home: selected '$(selected m)'"
keys m Down
wait_sel m ' kt_warm ' && ok "Down: kt_warm" || fail "Down: selected '$(selected m)'"
keys m Up
wait_sel m ' kt_hot ' || fail "Up: selected '$(selected m)'"
keys m j
wait_sel m ' kt_warm ' || fail "j: selected '$(selected m)'"
keys m k
wait_sel m ' kt_hot ' && ok "j/k" || fail "k: selected '$(selected m)'"
# End / PgDn: the last row (the table changes each refresh: poll)
for k in End NPage; do
	keys m Home; wait_sel m ' kt_hot ' 3
	# the rows at the bottom change each refresh: press again until the
	# screen is caught with the selection on the last row
	n=0
	while [ $n -lt 30 ]; do
		keys m $k
		sleep 0.1
		s=$(selected m)
		[ -n "$s" ] && [ "$s" = "$(rows m | tail -n 1)" ] && break
		n=$((n + 1))
	done
	[ $n -lt 30 ] && ok "$k: the last row ($(rows m | wc -l) rows)" ||
		fail "$k: selected '$s', last row '$(rows m | tail -n 1)'"
done
keys m PPage
wait_sel m ' kt_hot ' && ok "PgUp: back to the first row" || fail "PgUp: '$(selected m)'"

# --- s: cycle the sort column --------------------------------------------
for want in sym dso comm pid tid overhead; do
	keys m s
	if wait_screen m "sort: $want" 3 && status m | grep -q "sort: $want"; then
		ok "s: status 'sort: $want'"
	else
		fail "s: status '$(status m)' (want sort: $want)"
		continue
	fi
	case $want in
	sym) poll m 3 by_sym ||
		fail "sort: sym: rows not by symbol: $(rows m | awk '{ print $4 }' | tr '\n' ' ')" ;;
	dso) poll m 3 by_dso ||
		fail "sort: dso: rows not by dso: $(rows m | awk '{ print $NF }' | tr '\n' ' ')" ;;
	overhead) poll m 3 by_share ||
		fail "sort: overhead: $(rows m | awk '{ print $1 }' | tr '\n' ' ')" ;;
	esac
done

# --- d: zoom into the selected row's DSO, and back ----------------------
keys m Home
wait_sel m ' kt_hot ' 3
keys m d
if retry 3 path_shown m "dso: "; then
	# a path too long for its column keeps its end: ".../kt-helper"
	other=$(rows m | awk -v p="$HPATH" '$NF != p && !(substr($NF, 1, 3) == "..." &&
		substr(p, length(p) - length($NF) + 4) == substr($NF, 4))')
	[ -z "$other" ] && ok "d: zoomed into $HPATH" || fail "d: rows of other DSOs: $other"
else
	fail "d: status '$(status m)'"
fi
keys m d
wait_screen_not m 'dso: /' 3 && ok "d again: zoom off" || fail "d again: status '$(status m)'"

# --- / filter: a symbol substring; an empty one clears ------------------
keys m /
wait_screen m '^filter:' 3 && [ "$(lastline m | sed 's/ *$//')" = "filter:" ] &&
	ok "/: prompt on the last line" || fail "/: last line '$(lastline m)'"
keys m -l warm
keys m Enter
if wait_screen m 'filter: warm' 3 && status m | grep -q 'filter: warm'; then
	wait_screen m ' kt_warm ' 3
	[ "$(rows m | awk '{ print $4 }' | sort -u)" = kt_warm ] &&
		ok "filter warm: only kt_warm" || fail "filter warm: $(rows m)"
else
	fail "filter: status '$(status m)'"
fi
[ "$(lastline m | sed 's/ *$//')" = "$KEYBAR" ] || fail "key bar not back after /: '$(lastline m)'"
keys m /
wait_screen m '^filter:' 3
keys m Enter
wait_screen_not m 'filter: warm' 3 && wait_screen m ' kt_hot ' 3 &&
	ok "empty filter clears" || fail "empty filter: $(status m)"

# --- z: zero and decay --------------------------------------------------
keys m z
wait_screen m '\(zero\)' 3 && status m | grep -qw zero &&
	ok "z: zero (line 2: $(line m 2 | grep -o '(zero)'))" ||
	fail "z: status '$(status m)', line 2 '$(line m 2)'"
keys m z
wait_screen m '\(decay\)' 3 && status m | grep -qw decay &&
	ok "z again: decay" || fail "z again: status '$(status m)', line 2 '$(line m 2)'"

# --- p / space: the display stops (sampling goes on), and starts again --
for k in p Space; do
	keys m $k
	if wait_screen m 'paused' 3 && status m | grep -q paused; then
		grep -v 'paused' m.screen > frozen.1
		# three refresh periods: nothing may change meanwhile
		sleep 1.6
		screen m | grep -v 'paused' > frozen.2
		cmp -s frozen.1 frozen.2 && ok "$k: paused, the screen holds still" ||
			fail "$k: paused but the screen changed: $(diff frozen.1 frozen.2 | head -4)"
	else
		fail "$k: status '$(status m)'"
	fi
	keys m $k
	wait_screen_not m 'paused' 3 || fail "$k again: still paused"
	n=0
	while [ $n -lt 30 ] && screen m | grep -v paused | cmp -s - frozen.2; do
		sleep 0.1; n=$((n + 1))
	done
	[ $n -lt 30 ] && ok "$k again: the display moves" || fail "$k again: the display did not move"
done

# --- b: baseline, a Delta column; b again drops it -----------------------
keys m b
if wait_screen m 'Delta' 3 && status m | grep -q baseline; then
	line m 4 | grep -q 'Delta' || fail "b: Delta not in the column header: $(line m 4)"
	bad=$(rows m | grep -Ev ' [-+][0-9]+\.[0-9][0-9] ' | head -2)
	[ -z "$bad" ] && ok "b: Delta column, every row signed" || fail "b: rows without a delta: $bad"
	d=$(rows m | awk '/ kt_hot / { for (i = 1; i <= NF; i++) if ($i ~ /^[-+][0-9]+\.[0-9][0-9]$/) print $i }' | head -1)
	# the workload does not change: kt_hot's share stays within a few points
	[ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d > -6 && d < 6) }' ||
		fail "b: kt_hot delta '$d'"
else
	fail "b: status '$(status m)', $(line m 4)"
fi
keys m b
wait_screen_not m 'Delta' 3 && ! status m | grep -q baseline &&
	ok "b again: baseline dropped" || fail "b again: $(status m) / $(line m 4)"

# --- P: save the table as a batch frame ---------------------------------
keys m P
if wait_screen m 'saved to /' 3; then
	f=$(status m | sed -n 's/.*saved to \(\/[^ ]*\.txt\).*/\1/p')
	case $(basename "$f") in
	kerneltop-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9].txt) ;;
	*) fail "P: file name '$f'" ;;
	esac
	[ "$(cd "$(dirname "$f")" 2>/dev/null && pwd -P)" = "$(pwd -P)" ] ||
		fail "P: saved to '$f', not in the working directory $(pwd -P)"
	if [ -f "$f" ] && [ "$(kt_frames "$f")" = 1 ] && kt_rows "$f" | grep -q ' kt_hot '; then
		ok "P: $f is a batch frame with kt_hot"
	else
		fail "P: $f: $(kt_frames "$f" 2>&1; head -5 "$f" 2>&1)"
	fi
else
	fail "P: status '$(status m)'"
fi
# P in a directory another user can write: links planted at every
# temporary and final name of the next 20 seconds are never written
# through (they point at a file of ours that must stay as it is)
echo victim > victim
now=$(date +%s)
for s in $(seq $now $((now + 20))); do
	n=kerneltop-$(date -d @$s +%Y%m%d-%H%M%S).txt
	ln -sf victim ".$n.tmp"
	ln -sf victim "$n"
done
keys m P
if wait_screen m 'saved to /' 3; then
	f=$(status m | sed -n 's/.*saved to \(\/[^ ]*\.txt\).*/\1/p')
	if [ "$(cat victim)" = victim ] && [ -f "$f" ] && ! [ -L "$f" ] &&
	   kt_rows "$f" | grep -q ' kt_hot '; then
		ok "P over planted links: $f is a new file, the link target unchanged"
	else
		fail "P over planted links: victim '$(head -c 80 victim)', $(ls -l "$f" 2>&1)"
	fi
else
	fail "P over planted links: status '$(status m)'"
fi
rm -f victim .kerneltop-*.tmp

# --- Enter / a: annotate kt_hot, then kt_warm ---------------------------
# annotated NAME FUNC: the annotate view of FUNC, its hottest line marked
# '>' in column 1, inside FUNC's BEGIN/END lines, with the source text
annotated() {
	local name=$1 fn=$2 hl fl ln
	if ! retry 5 path_shown "$name" "Annotate: $fn (" ")"; then
		fail "annotate $fn: $(head -3 "$name.screen")"
		return
	fi
	hl=$(grep '^>' "$name.screen" | head -1)
	fl=$(printf '%s\n' "$hl" | grep -o 'kt-helper\.c:[0-9]*' | head -1)
	ln=${fl#kt-helper.c:}
	set -- $(hot_lines "$fn")
	if [ -n "$ln" ] && [ "$ln" -ge "$1" ] && [ "$ln" -le "$2" ]; then
		ok "annotate $fn: hottest line $ln, inside $1-$2"
	else
		fail "annotate $fn: hottest '$hl' not inside lines $1-$2"
		return
	fi
	printf '%s\n' "$hl" | grep -Eq '^> *[0-9.]+% +[0-9]+ +kt-helper\.c:[0-9]+ ' ||
		fail "annotate $fn: line format: '$hl'"
	src=$(sed -n "${ln}p" "$SRC" | sed 's/^[[:space:]]*//' | cut -c1-20)
	printf '%s\n' "$hl" | grep -qF -- "$src" ||
		fail "annotate $fn: source text '$src' not on '$hl'"
	tm capture-pane -p -e -t "$name" | grep '^[^>]*>' | grep "kt-helper.c:$ln" |
		grep -q $(printf '\033')'\[' || fail "annotate $fn: hottest line not highlighted"
}
keys m Home
wait_sel m ' kt_hot ' 3
keys m Enter
annotated m kt_hot
keys m q
wait_screen m '^ *Overhead ' 3 && [ ! -s m.rc ] && ok "q leaves annotate, not kerneltop" ||
	fail "q in annotate: $(head -4 m.screen), rc '$(cat m.rc 2>/dev/null)'"
keys m Home Down
wait_sel m ' kt_warm ' 3
keys m a
annotated m kt_warm
keys m Escape
wait_screen m '^ *Overhead ' 3 && ok "Esc leaves annotate" || fail "Esc in annotate: $(head -4 m.screen)"

# --- resize: the redraw fits; a too-small terminal says so --------------
for size in 80x24 160x50; do
	w=${size%x*} h=${size#*x}
	tm resize-window -t m -x $w -y $h
	n=0
	while [ $n -lt 30 ]; do
		screen m > /dev/null
		[ "$(wc -l < m.screen)" -eq "$h" ] && [ "$(lastline m | cut -c1-6)" = "h help" ] &&
			line m 1 | grep -q '^kerneltop: ' && break
		sleep 0.1; n=$((n + 1))
	done
	long=$(awk -v w=$w 'length($0) > w' m.screen | wc -l)
	[ $n -lt 30 ] && [ "$long" -eq 0 ] && grep -Eq '^ *Overhead ' m.screen &&
		rows m | grep -q ' kt_hot ' &&
		ok "resized to $size: header, table and key bar on line $h" ||
		fail "resized to $size: $(head -5 m.screen; echo ...; tail -2 m.screen)"
done
tm resize-window -t m -x 60 -y 7
if wait_screen m 'terminal too small \(60x7\); need at least 40x8' 3; then
	[ "$(grep -c . m.screen)" -eq 1 ] && ok "60x7: only 'terminal too small (60x7); need at least 40x8'" ||
		fail "60x7: more than the message: $(cat m.screen)"
else
	fail "60x7: $(cat m.screen)"
fi
tm resize-window -t m -x 30 -y 20
wait_screen m 'terminal too small' 3 && ! grep -q 'Overhead' m.screen &&
	ok "30x20: too small" || fail "30x20: $(cat m.screen)"
tm resize-window -t m -x 120 -y 40
wait_screen m ' kt_hot ' 3 && [ "$(lastline m | sed 's/ *$//')" = "$KEYBAR" ] &&
	ok "back to 120x40: the table again" || fail "back to 120x40: $(head -5 m.screen)"

# --- q: exit 0, terminal as before ---------------------------------------
keys m q
restored "q" m 0

# === keys act on the rows drawn: paused, the rows swap underneath =====
# The helper runs kt_hot 9:1 kt_warm until SIGUSR1, then the other way
# round; -z leaves each refresh only its own samples.  Paused with kt_hot
# on the first row and selected, the rows swap in the model: a key must
# not draw them, and a, Enter must act on kt_hot, the row highlighted.
spawn_ready "$H" flip 0 || fail "flip helper did not start"
fl=$spawned flerr="$tmpdir/spawn.$spawn_n"
kt_start fl 120 40 -d 0.5 -z -e cpu-clock -p $fl
keys fl Home
wait_sel fl ' kt_hot ' 5 || fail "flip: kt_hot not selected: $(rows fl | head -3)"
keys fl p
wait_screen fl 'paused' 3 || fail "flip: not paused: $(status fl)"
rows fl > flip.1
kill -USR1 $fl
retry 5 grep -q '^flipped' "$flerr" || fail "flip: the helper did not flip"
# three refresh periods: a refresh after the flip and its samples
sleep 1.6
# z: the status line says "decay" once the key's redraw is on the screen
keys fl z
wait_screen fl 'paused.*decay' 3 || fail "flip: z not shown: $(status fl)"
rows fl > flip.2
keys fl z
cmp -s flip.1 flip.2 && ok "paused: a key draws the rows drawn before, not new ones" ||
	fail "paused: a key showed new rows: $(diff flip.1 flip.2 | grep '^[<>]' | head -4 | tr '\n' ' ')"
for k in a Enter; do
	keys fl $k
	if retry 5 path_shown fl "Annotate: kt_hot (" ")"; then
		ok "$k acts on the row highlighted (kt_hot), not on the model's first now"
	else
		fail "$k: $(head -1 fl.screen) / $(status fl) (want Annotate: kt_hot)"
	fi
	keys fl q
	wait_screen fl '^ *Overhead ' 3 || fail "$k: q did not go back: $(head -2 fl.screen)"
done
# unpaused, the swap shows: the check above saw the model move
keys fl p
wait_screen_not fl 'paused' 3 || fail "flip: still paused"
first_is_warm() {
	rows fl | awk 'NR == 1 { exit $4 != "kt_warm" }'
}
poll fl 5 first_is_warm && ok "unpaused: kt_warm on top, the rows had swapped" ||
	fail "unpaused: the rows did not swap: $(rows fl | head -2)"
keys fl q
restored "q (flip)" fl 0
# (each helper ends with the section that samples it: one left spinning
# takes a CPU from every test running beside this one)
kill $fl

# === two events: e / TAB, K / U, on a helper with kernel and user rows ===
spawn_ready "$H" faults 0 || fail "faults helper did not start"
fp=$spawned
kt_start ev 120 40 -d 0.5 -e cpu-clock -e page-faults -p $fp
# The weight view orders by the 2009 kerneltop's sym_weight, here
# cpu-clock / (page-faults + 1): kt_touch, with most of the faults, sorts
# near the bottom (below the fold when the sanitizers add rows), so it is
# looked for in the page-faults view below.  Here: the header, and rows
# in weight order (kt_weight_order).
weight_rows_ok() {
	screen_has ev '^ *Weight +cpu-clock +page-faults +Symbol +Shared Object' &&
	rows ev | kt_weight_order > /dev/null
}
retry 5 weight_rows_ok && ok "two events: Weight cpu-clock page-faults, by weight" ||
	fail "two events: $(rows ev | kt_weight_order): $(head -6 ev.screen)"
for step in e:cpu-clock Tab:page-faults e:weight; do
	k=${step%:*} want=${step#*:}
	keys ev $k
	if [ $want = weight ]; then
		wait_screen ev '^ *Weight +cpu-clock +page-faults ' 3 &&
			ok "$k: back to the weight" || fail "$k: $(status ev) / $(line ev 4)"
		continue
	fi
	wait_screen ev "event: $want" 3 && wait_screen ev '^ *Overhead +Samples +Symbol' 3 &&
		ok "$k: event: $want" || { fail "$k: '$(status ev)' / '$(line ev 4)'"; continue; }
	# page faults happen in kt_touch only
	if [ $want = page-faults ]; then
		rows ev | awk 'NR == 1 { exit $4 != "kt_touch" }' ||
			fail "page-faults: first row $(rows ev | head -1)"
	fi
done
wait_screen ev ' \[k\] ' 5 || fail "no kernel rows for K/U: $(rows ev)"
keys ev K
wait_screen ev 'kernel hidden' 3 && wait_screen_not ev ' \[k\] ' 3 && rows ev | grep -q ' \[\.\] ' &&
	ok "K: kernel hidden" || fail "K: $(status ev): $(rows ev | head -4)"
keys ev K
wait_screen_not ev 'kernel hidden' 3 && wait_screen ev ' \[k\] ' 3 || fail "K again: $(status ev)"
keys ev U
wait_screen ev 'user hidden' 3 && wait_screen_not ev ' \[\.\] ' 3 && rows ev | grep -q ' \[k\] ' &&
	ok "U: user hidden" || fail "U: $(status ev): $(rows ev | head -4)"
keys ev U
wait_screen_not ev 'user hidden' 3 && wait_screen ev ' \[\.\] ' 3 && ok "U again" || fail "U again: $(status ev)"
keys ev q
restored "q (two events)" ev 0
kill $fp

# === t: the thread list, Enter picks, t unzooms, Esc / q back =============
spawn_ready "$H" threads 0 || fail "threads helper did not start"
set -- $ready
tp=$1 ta=$2 tb=$3
kt_start th 120 40 -d 0.5 -e cpu-clock -p $tp
wait_screen th ' kt_beta ' 5 && wait_screen th ' kt_alpha ' 5 || fail "threads: $(rows th)"
# threads NAME: the rows of the thread list (TID COMMAND SAMPLES)
tlist() {
	awk '/TID +COMMAND +SAMPLES/ { t = 1; next } t && /^[ >]*[0-9]+ +[^ ]+ +[0-9]+/' "$1.screen"
}
keys th t
if wait_screen th 'Threads' 3 && wait_screen th 'TID +COMMAND +SAMPLES' 3 && wait_screen th "$tb +kt-beta" 3; then
	ok "t: thread list: $(tlist th | tr -s ' \n' ' ')"
	pos=$(tlist th | awk -v t=$tb '$1 == t { print NR; exit }')
	i=1
	while [ $i -lt "${pos:-1}" ]; do keys th Down; i=$((i + 1)); done
	keys th Enter
	if wait_screen th "thread: $tb \\(kt-beta\\)" 3; then
		wait_screen_not th 'TID +COMMAND +SAMPLES' 3
		wait_screen th ' kt_beta ' 3
		rows th | grep -q ' kt_alpha ' && fail "thread zoom: kt_alpha still shown" ||
			ok "Enter: thread: $tb (kt-beta), its rows only"
	else
		fail "Enter on kt-beta (row $pos): status '$(status th)'"
	fi
	keys th t
	wait_screen_not th 'thread: ' 3 && wait_screen th ' kt_alpha ' 3 &&
		ok "t in a zoom: unzoomed" || fail "t in zoom: $(status th)"
else
	fail "t: $(head -8 th.screen)"
fi
for k in Escape q; do
	keys th t
	wait_screen th 'TID +COMMAND +SAMPLES' 3 || fail "t: no list"
	keys th $k
	wait_screen_not th 'TID +COMMAND +SAMPLES' 3 && wait_screen th '^ *Overhead ' 3 &&
		[ ! -s th.rc ] && ok "$k leaves the thread list" || fail "$k in the thread list: $(head -4 th.screen)"
done
keys th q
restored "q (threads)" th 0
kill $tp

# === H: the health view, on a stripped copy ==============================
# (a short name: the DSO column must hold the whole path), beside a
# stripped program of a Debian package (sha256sum, coreutils) when there
# is one: both rows under one "stripped", its fix said once and wrapped
# whole on an 80-column terminal, the packaged file naming the -dbgsym
# package dpkg's lists give (dpkg -S here is the test's ground truth).
cp "$H" ./kts && strip ./kts
spawn_ready ./kts hot 0 || fail "stripped helper did not start"
spid=$spawned
SPATH=$(pwd -P)/kts
pids=$spid
sha=$(command -v sha256sum)
pkg=
if [ -n "$sha" ] && command -v dpkg >/dev/null 2>&1 &&
   ! readelf -S "$sha" 2>/dev/null | grep -q '\.symtab'; then
	sha=$(readlink -f "$sha")
	pkg=$(dpkg -S "$sha" 2>/dev/null | sed -n 's/^\([^:]*\)\(:[^:]*\)\{0,1\}: .*/\1/p' | head -1)
fi
if [ -n "$pkg" ]; then
	"$sha" /dev/zero &
	shapid=$!
	at_exit "kill $shapid 2>/dev/null"
	pids=$spid,$shapid
else
	echo "note: no stripped sha256sum of a dpkg package: the health view's -dbgsym advice not run"
fi
kt_start st 80 40 -d 0.5 -e cpu-clock -p $pids
if wait_screen st "\\[unknown\\] +(/|\\.\\.\\.)[^ ]*/kts *\$" 5; then
	u=$(line st 2 | sed -n 's/.*unresolved \([0-9.]*\)%.*/\1/p')
	awk -v u="$u" 'BEGIN { exit !(u >= 50) }' && ok "stripped: [unknown] rows, unresolved $u%" ||
		fail "stripped: line 2 '$(line st 2)'"
else
	fail "stripped: no [unknown] row of $SPATH: $(rows st | head -3)"
fi
[ -z "$pkg" ] || wait_screen st " $sha *\$" 5 || fail "no row of $sha: $(rows st | head -3)"
keys st H
if wait_screen st 'Symbolization health' 3 && wait_screen st 'SAMPLES +CAUSE +DSO' 3 &&
   { [ -z "$pkg" ] || wait_screen st "stripped +$sha " 5; }; then
	grep -E '^ *[0-9]+ +stripped +' st.screen | grep -Eq '(/|\.\.\.)[^ ]*/kts( |$)' &&
		ok "H: stripped $SPATH" || fail "H: $(cat st.screen | head -12)"
	n=$(grep -c 'install its debug package' st.screen)
	# the fix, its lines joined: whole, once
	fix=$(sed -n '/^ *fix: the file has no \.symtab/,/^ *[0-9]/p' st.screen |
		grep -v '^ *[0-9]' | grep -v '^q/Esc' | sed 's/^ *//; s/^fix: //' |
		tr '\n' ' ' | sed 's/ *$//')
	want="the file has no .symtab: install its debug package (-dbgsym), set DEBUGINFOD_URLS, or pass an unstripped copy with -d"
	[ "$n" -eq 1 ] && [ "$fix" = "$want" ] && ok "H: the fix once, wrapped whole" ||
		fail "H: the fix $n times, as '$fix': $(cat st.screen | head -12)"
	if [ -n "$pkg" ]; then
		grep -E "^ *[0-9]+ +stripped +$sha " st.screen | grep -qF "(install $pkg-dbgsym)" &&
			ok "H: $sha names $pkg-dbgsym" ||
			fail "H: no '$pkg-dbgsym' on $sha's row: $(grep -F "$sha" st.screen)"
	fi
else
	fail "H: $(head -6 st.screen)"
fi
# on a terminal too small for the text (40x9: five lines of it, the
# fix wrapped on six), the list keys scroll it under the heading: Down
# a line, End further, Home back
tm resize-window -t st -x 40 -y 9
if wait_screen st '^ +fix: ' 5 && [ "$(fixline st)" -gt 4 ]; then
	at=$(fixline st)
	keys st Down
	retry 3 fixline_at st $((at - 1)) &&
		ok "H, 40x9: Down moves the text a line (fix: from line $at up)" ||
		fail "H, 40x9, Down: $(cat st.screen)"
	keys st End
	retry 3 fixline_past st "$at" && line st 1 | grep -q 'Symbolization health' &&
		line st 3 | grep -Eq 'SAMPLES +CAUSE' &&
		ok "H, 40x9: End: further down, under the heading" ||
		fail "H, 40x9, End: $(cat st.screen)"
	keys st Home
	retry 3 fixline_at st "$at" && ok "H, 40x9: Home: the text from its start" ||
		fail "H, 40x9, Home: $(cat st.screen)"
else
	fail "H, 40x9: the text fits, or no fix: $(cat st.screen)"
fi
tm resize-window -t st -x 80 -y 40
keys st Escape
wait_screen st '^ *Overhead ' 3 && ok "Esc leaves the health view" || fail "Esc in H: $(head -3 st.screen)"
keys st q
restored "q (health)" st 0
[ -z "$pkg" ] || kill $shapid 2>/dev/null
kill $spid

# === names from the target reach the terminal as text, not as commands ===
# a command name and a file name holding OSC 2 ("set the title to pwn"):
# obeyed, tmux's pane title would become "pwn"
evil=$(printf 'kt\033]2;pwn\007')
cp "$H" "./$evil"
spawn_ready "./$evil" evil 0 || fail "evil helper did not start"
evp=$spawned
kt_start ev2 120 40 -d 0.5 -e cpu-clock -s comm,sym -p $spawned
if wait_screen ev2 ' kt_hot ' 5; then
	title=$(tm display -p -t ev2 '#{pane_title}')
	case $title in
	*pwn*) fail "a target's name set the terminal's title: '$title'" ;;
	*) ok "control sequences in comm and path shown, not obeyed (title '$title')" ;;
	esac
	line ev2 1 | grep -q '^kerneltop: ' || fail "escape in names: header gone: $(head -2 ev2.screen)"
else
	fail "evil helper: no kt_hot: $(rows ev2 | head -3)"
fi
keys ev2 q
restored "q (control sequences)" ev2 0
kill $evp

# a path cut to fit its column keeps whole escapes: a file name of eight
# ESC bytes (\x1b each, 4 columns), cut at four widths, so at every
# offset inside one \x1b; what follows "..." is whole \x1b's
esc8=$(printf 'k\033\033\033\033\033\033\033\033')
cp "$H" "./$esc8"
spawn_ready "./$esc8" hot 0 || fail "escape-named helper did not start"
for w in 40 41 42 43; do
	kt_start cut$w $w 12 -d 0.5 -e cpu-clock -s dso -p $spawned
	if wait_screen cut$w '\.\.\.' 5; then
		cell=$(rows cut$w | sed -n 's/.*\.\.\.//p' | head -1 | sed 's/ *$//')
		echo "$cell" | grep -Eq '^(\\x1b)+$' &&
			ok "width $w: the path cut on a whole escape: ...$cell" ||
			fail "width $w: the cut path is '...$cell'"
	else
		fail "width $w: no cut path: $(rows cut$w | head -3)"
	fi
	keys cut$w q
	kt_wait_exit cut$w 10 > /dev/null
done
kill $spawned 2>/dev/null

# === the whole machine: two busy helpers, kt_hot in the first rows =======
# (as in batch.sh: its share moves with the load, 18-51% measured with
# the suite alongside; four busy loops beside the suite took 52% and left
# kt_hot under 8%: among the first ten rows with at least 2%, as there)
spawn_ready "$H" hot 0 || fail "second helper did not start"
hp2=$spawned
kt_start all 120 40 -d 0.5 -e cpu-clock
n=0
while [ $n -lt 50 ]; do
	screen all > /dev/null
	r=$(rows all | awk '$4 == "kt_hot" { sub("%", "", $1); print NR, $1; exit }')
	[ -n "$r" ] && set -- $r && [ "$1" -le 10 ] && awk -v s="$2" 'BEGIN { exit !(s >= 2) }' && break
	sleep 0.1; n=$((n + 1))
done
[ $n -lt 50 ] && ok "all tasks: kt_hot row $1 with $2% after $((n / 10)).$((n % 10)) s" ||
	fail "all tasks: kt_hot not in the first 10 rows with >= 2%: $(rows all | head -11)"
line all 2 | grep -q '^target: all tasks on CPUs ' || fail "all: line 2 '$(line all 2)'"
keys all C-c
restored "SIGINT (^C)" all ""
kill $hp2

# === a -p target that exits: said on the status line, table kept =========
spawn_ready "$H" hot 4000 || fail "short helper did not start"
gp=$spawned
kt_start gone 120 40 -d 0.5 -e cpu-clock -p $gp
wait_screen gone ' kt_hot ' 5 || fail "target exits: kt_hot not shown: $(rows gone | head -3)"
if wait_screen gone "process $gp exited" 10; then
	status gone | grep -q "process $gp exited" && rows gone | grep -q ' kt_hot ' &&
		ok "target exited: status line says so, the table stays" ||
		fail "target exited: status '$(status gone)', rows $(rows gone | head -2)"
	# "keeps the last table until q": three refreshes later, the same rows
	rows gone > kept.1
	sleep 1.6
	screen gone > /dev/null
	rows gone > kept.2
	cmp -s kept.1 kept.2 && ok "target exited: the last table holds still" ||
		fail "target exited: the table still changes: $(diff kept.1 kept.2 | grep '^[<>]' | head -2 | tr '\n' ' ')"
	[ ! -s gone.rc ] || fail "target exited: kerneltop quit by itself"
else
	fail "target exited: $(head -4 gone.screen)"
fi
keys gone q
restored "q after the target exited" gone 0

# === --hierarchy on the screen: groups folded as perf's, Enter opens ===
# The hot helper's samples are all of kt-helper: one group, kt_hot the
# first row under it.  Enter and + open or close the group selected, C
# and E every group; a, on a row, annotates it, on a group says why not.
kt_start hi 120 40 -d 0.5 -e cpu-clock -s comm,sym --hierarchy -p $hp
wait_screen hi '^ *Overhead +Samples +Command / Symbol *$' 5 &&
	wait_screen hi '^ *[0-9.]+% +[0-9]+  \+ kt-helper *$' 5 &&
	ok "--hierarchy: one group, kt-helper, folded (+)" ||
	fail "--hierarchy: $(sed -n 4,6p hi.screen)"
keys hi Home Enter
wait_screen hi '^ *[0-9.]+% +[0-9]+  - kt-helper *$' 3 &&
	wait_screen hi '^ *[0-9.]+% +[0-9]+ {7}\[\.\] kt_hot *$' 3 &&
	ok "Enter opens kt-helper: kt_hot under it" ||
	fail "Enter on the group: $(sed -n 4,7p hi.screen)"
keys hi C
wait_screen_not hi 'kt_hot' 3 && wait_screen hi '\+ kt-helper' 3 &&
	ok "C closes every group" || fail "C: $(sed -n 4,7p hi.screen)"
keys hi +
wait_screen hi '\[\.\] kt_hot' 3 && ok "+ opens the group" ||
	fail "+: $(sed -n 4,7p hi.screen)"
keys hi Home a
wait_screen hi 'a group: Enter opens it' 3 && ok "a on a group: says why not" ||
	fail "a on a group: status '$(status hi)'"
keys hi C E
wait_screen hi '\[\.\] kt_hot' 3 || fail "E: $(sed -n 4,7p hi.screen)"
keys hi Home Down
wait_sel hi ' kt_hot' 5 || fail "--hierarchy: kt_hot not selected: '$(selected hi)'"
keys hi a
if retry 5 path_shown hi "Annotate: kt_hot (" ")"; then
	ok "a on a row of the hierarchy annotates it (kt_hot)"
else
	fail "a on kt_hot: $(head -1 hi.screen) / $(status hi)"
fi
keys hi q
wait_screen hi '^ *Overhead ' 3 || fail "--hierarchy: q did not go back"
# C and a in one read: C leaves fewer lines than the selection's place
# (End, under E); a must act on the line C left selected, the group
keys hi E
wait_screen hi '\[\.\] kt_hot' 3 || fail "E again: $(sed -n 4,7p hi.screen)"
keys hi End
sleep 0.3
keys hi C a
wait_screen hi 'a group: Enter opens it' 3 &&
	ok "C then a at once: a acts on the group left selected" ||
	fail "C then a at once: status '$(status hi)'"
keys hi q
restored "q (hierarchy)" hi 0

# === SIGTERM and SIGHUP restore the terminal ============================
for sig in TERM HUP; do
	kt_start sig$sig 100 30 -d 0.5 -e cpu-clock -p $hp
	wait_screen sig$sig ' kt_hot ' 5 || fail "SIG$sig session: $(head -3 sig$sig.screen)"
	kill -$sig "$(cat sig$sig.pid)"
	restored "SIG$sig" sig$sig ""
done
done_testing
