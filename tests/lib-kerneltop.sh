# lib-kerneltop.sh - what kerneltop's tests share, sourced after
# tests/test-subr.sh: a parser of batch frames, and a real terminal
# (a private tmux server) to drive the TUI on.

# kt NAME ARGS...: kerneltop $KT_ARGS ARGS > NAME.out 2> NAME.err, never
# more than 20 s; the status in $rc.  (A test that runs kerneltop its own
# way defines its own kt after sourcing this file.)
KT_ARGS=
kt() {
	kt_once "$@"
	rc=$?
	[ $rc -ne 124 ] || fail "kerneltop $* hung (killed after 20 s)"
}

# kt_spawn NAME ARGS...: kt NAME ARGS in the background; kt_reap NAME
# waits for it and sets $rc (bg_start and bg_wait).  Independent batch
# runs of one test go at once: most of a run is the wait for its frames.
# kt_once NAME ARGS...: the run itself, its status returned.
kt_once() {
	local name=$1
	shift
	# shellcheck disable=SC2086
	timeout 20 "$KERNELTOP" $KT_ARGS "$@" > "$name.out" 2> "$name.err"
}
kt_spawn() { bg_start "$1" kt_once "$@"; }
kt_reap() {
	bg_wait "$1"
	[ "$rc" -ne 124 ] || fail "kerneltop ($1) hung (killed after 20 s)"
}

# kt_nochains FILE: FILE without the call graphs that -b -g prints under
# each row (kt_chains reads those): their lines are indented 11 columns
# and more (graph, flat) and end with a blank line, or are folded lines
# ("74.25% main;cg_a").
kt_nochains() {
	awk '/^           / { c = 1; next }
	     /^[0-9][0-9.]*% [^ ]/ { next }
	     c && $0 == "" { c = 0; next }
	     { c = 0; print }' "$1"
}

# kt_frames FILE: check that FILE is a sequence of kerneltop batch frames
# (two header lines, a blank line, the column header, rows, a blank line);
# prints the number of frames, or what is wrong, and fails.
kt_frames() {
	kt_nochains "$1" | awk '
	function bad(why) { printf "line %d: %s: %s\n", NR, why, $0; err = 1; exit 1 }
	st == 0 { if ($0 !~ /^kerneltop: [0-9]+ samples\/s /) bad("not a first header line")
		  n++; st = 1; next }
	st == 1 { if ($0 !~ /^target: /) bad("not a target line"); st = 2; next }
	st == 2 { if ($0 != "") bad("no blank line after the header"); st = 3; next }
	st == 3 { if ($0 !~ /^ *(Overhead|Weight|Children) /) bad("not a column header"); st = 4; next }
	st == 4 { if ($0 == "") { st = 0; next }
		  if ($0 !~ /^ *[0-9][0-9.]*%? /) bad("not a row") }
	END { if (err) exit 1; if (st != 0) { print "truncated frame"; exit 1 }
	      print n + 0 }'
}

# kt_rows FILE [N]: the rows of batch frame N of FILE (default: the last).
# kt_header FILE [N]: its column header; kt_target FILE [N]: its line 2;
# kt_head FILE [N]: its line 1.
kt_part() {
	kt_nochains "$2" | awk -v part="$1" -v want="${3:-0}" '
	/^kerneltop: [0-9]+ samples\/s / && st == 0 { f++; st = 1; h1[f] = $0; next }
	st == 1 { t[f] = $0; st = 2; next }
	st == 2 { if ($0 == "") st = 3; next }	# (kt_frames says if not blank)
	st == 3 { c[f] = $0; st = 4; next }
	st == 4 { if ($0 == "") st = 0; else r[f] = r[f] $0 "\n" }
	END { k = want > 0 ? want : f
	      if (part == "rows") printf "%s", r[k]
	      else if (part == "header") print c[k]
	      else if (part == "head") print h1[k]
	      else print t[k] }'
}
# kt_chains FILE SYM: the graph printed under SYM's entry (or, for a SYM
# in brackets, the entry of that name: -s parent's "[other]"), the first in
# the last frame of FILE that has one -- kerneltop -b -g's or perf top
# --stdio -g's, the same layout -- as a line per node of the tree: its
# share (- for the chain printed after "---", which has none) and its
# functions from the top, ';'-joined: "74.50 main;cg_a;cg_b;cg_hot".
kt_chains() {
	sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$1" | awk -v sym="$2" '
	function row() {
		return substr($0, 1, 11) != "           " &&
		       (index($0, "] " sym " ") > 0 ||
			substr($0, length($0) - length(sym) - 1) == "] " sym ||
			(substr(sym, 1, 1) == "[" && index($0, " " sym)))
	}
	/^kerneltop: [0-9]+ samples\/s / || /PerfTop:/ { st = 0; next }
	st == 0 && row() { st = 1; left = 12; n = 0; root = 0; next }
	st == 1 && $0 == "" {
		for (i = 1; i <= n; i++)
			keep[i] = pc[i] " " (par[i] ? full[par[i]] ";" : "") txt[i]
		kn = n; st = 2; next }
	st == 1 && substr($0, 1, 15) == "            ---" {
		n++; pc[n] = "-"; txt[n] = substr($0, 16); par[n] = 0
		root = n; left = 15; full[n] = txt[n]; next }
	st == 1 {
		s = substr($0, left + 1)
		k = match(s, /[^ |]/)
		if (!k) next
		if (substr(s, k, 2) == "--") {
			d = int((k - 2) / 11) + 1
			r = substr(s, k + 2); p = index(r, "%--")
			n++; pc[n] = substr(r, 1, p - 1); txt[n] = substr(r, p + 3)
			par[n] = d > 1 ? cur[d - 1] : root; cur[d] = n
		} else {
			d = int((k - 1) / 11)
			x = d ? cur[d] : root
			if (x) txt[x] = txt[x] ";" substr(s, k)
			else next
		}
		x = d ? cur[d] : root
		full[x] = (par[x] ? full[par[x]] ";" : "") txt[x]
	}
	END { for (i = 1; i <= kn; i++) print keep[i] }'
}

# between X LO HI: LO <= X <= HI (X may be empty: false)
between() {
	[ -n "$1" ] && awk -v x="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(x >= l && x <= h) }'
}

kt_rows() { kt_part rows "$@"; }
kt_header() { kt_part header "$@"; }
kt_target() { kt_part target "$@"; }
kt_head() { kt_part head "$@"; }

# kt_weight_order: the rows of a weight view (two events: Weight, then one
# count per event) on stdin, a "> " selection mark allowed.  Every row's
# weight, recomputed from its printed counts as count0 / (count1 + 1) (the
# 2009 kerneltop's sym_weight), matches the printed one and does not grow
# down the table; at least two rows.  Prints the first offence; 1 then.
kt_weight_order() {
	sed 's/^[> ]*//' | awk '
	{ w = $2 / ($3 + 1)
	  if ($1 - w > 0.5 + w / 100 || w - $1 > 0.5 + w / 100) {
		print "printed weight " $1 " != " $2 "/(" $3 "+1): " $0; bad = 1; exit 1 }
	  if (NR > 1 && w > prev * 1.0001 + 1e-9) {
		print "row " NR " weight " w " above row " NR - 1 " weight " prev ": " $0; bad = 1; exit 1 }
	  prev = w }
	END { if (bad) exit 1
	      if (NR < 2) { print "fewer than two rows"; exit 1 } }'
}

# --- a real terminal, driven as tmux's own regress/ tests drive it ---
# One private tmux server per test (socket kt-PID, no configuration file),
# killed when the test ends.  Assertions poll the screen with a timeout;
# fixed sleeps only ever bound a "nothing changes" check.

# tm ARGS...: tmux on the test's private server.
tm() {
	tmux -L "kt-$$" -f /dev/null "$@"
}

# tmux_start NAME WIDTH HEIGHT COMMAND: a detached session NAME running
# the shell COMMAND in $tmpdir on a WIDTHxHEIGHT terminal.
tmux_start() {
	if [ -z "${tmux_server:-}" ]; then
		tmux_server=kt-$$
		at_exit 'tm kill-server 2>/dev/null'
	fi
	env -u TMUX tmux -L "kt-$$" -f /dev/null new-session -d -s "$1" \
		-x "$2" -y "$3" -c "$tmpdir" "$4"
}

# screen NAME: the visible text of NAME's pane, also left in NAME.screen.
screen() {
	tm capture-pane -p -t "$1" > "$tmpdir/$1.screen" 2>&1
	cat "$tmpdir/$1.screen"
}

# screen_has NAME ERE / screen_lacks NAME ERE: one capture of NAME's pane.
screen_has() {
	screen "$1" | grep -Eq -- "$2"
}
screen_lacks() {
	! screen_has "$@"
}

# wait_screen NAME ERE [SECS]: poll NAME's pane (up to SECS, default 10)
# until a line matches ERE; 1 on timeout, with the last screen in
# NAME.screen for the failure message.  wait_screen_not: until none does.
wait_screen() {
	retry "${3:-10}" screen_has "$1" "$2"
}
wait_screen_not() {
	retry "${3:-10}" screen_lacks "$1" "$2"
}

# keys NAME KEY...: type KEYs (tmux key names: Enter, Escape, Tab, Up,
# NPage, C-c; a word of several characters is typed as it is).
keys() {
	local name=$1
	shift
	tm send-keys -t "$name" "$@"
}

# kt_start NAME WIDTH HEIGHT ARGS...: kerneltop ARGS on a terminal of its
# own.  The pane records `stty -a` in NAME.stty-before and NAME.stty-after,
# kerneltop's pid in NAME.pid and, once it has exited, its status in
# NAME.rc and as "rc=N" on the screen; the pane then stays open.  Words
# in KT_WRAP go before kerneltop (KT_WRAP="env -u TERM").
kt_start() {
	local name=$1 w=$2 h=$3 a
	shift 3
	{
		# a handler, not SIG_IGN (which kerneltop would inherit): ^C
		# must end kerneltop, not this script
		echo "trap : INT"
		echo "stty -a > $name.stty-before"
		printf '%s' "sh -c 'echo \$\$ > $name.pid; exec \"\$@\"' kerneltop"
		for a in ${KT_WRAP:-} "$KERNELTOP" "$@"; do
			printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
		done
		echo
		echo "rc=\$?; stty -a > $name.stty-after; echo \$rc > $name.rc"
		echo 'printf "\\nrc=%d\\n" $rc; trap "" INT; exec sleep 100000'
	} > "$tmpdir/$name.sh"
	rm -f "$tmpdir/$name.pid" "$tmpdir/$name.rc" "$tmpdir/$name.stty-after"
	tmux_start "$name" "$w" "$h" "sh $name.sh"
}

# stty_same NAME: NAME.stty-before and NAME.stty-after agree, but for the
# window size (a test may have resized the terminal meanwhile).
stty_same() {
	sed 's/rows [0-9]*; columns [0-9]*;//' "$tmpdir/$1.stty-before" > "$tmpdir/$1.stty-b"
	sed 's/rows [0-9]*; columns [0-9]*;//' "$tmpdir/$1.stty-after" > "$tmpdir/$1.stty-a" 2>/dev/null &&
		cmp -s "$tmpdir/$1.stty-b" "$tmpdir/$1.stty-a"
}

# kt_wait_exit NAME [SECS]: until kerneltop in NAME has exited; its status.
kt_wait_exit() {
	local n=0 max=$((${2:-10} * 10))
	while [ ! -s "$tmpdir/$1.rc" ] && [ $n -lt $max ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -s "$tmpdir/$1.rc" ] && cat "$tmpdir/$1.rc"
}
