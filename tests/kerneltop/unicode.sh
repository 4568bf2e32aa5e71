#!/bin/sh
# unicode.sh - a function name that is UTF-8 text, "hot_ünïcödé_漢字"
# (kt-helper unicode: 14 characters, 16 columns), reaches the terminal as
# text: in a UTF-8 locale the TUI draws it as it is, padded and cut by
# display width (a CJK character takes two columns), so that the Shared
# Object column stays where the other rows have it and a narrow
# terminal cuts the row on a whole character; in the C locale it is
# shown as \xNN escapes, never as stray bytes; -b pads it alike.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop tmux perf_event python
utf8=$(locale -a 2>/dev/null | grep -Eix 'c\.utf-?8' | head -1)
[ -n "$utf8" ] || skip "no C.UTF-8 locale (locales: $(locale -a | tr '\n' ' '))"

H="$top_builddir/tests/kerneltop/kt-helper"
NAME=$(printf 'hot_\303\274n\303\257c\303\266d\303\251_\346\274\242\345\255\227')
spawn_ready "$H" unicode 0 || fail "helper did not start"
hp=$spawned

# columns FILE WIDTH [any]: every line of FILE at most WIDTH columns; the
# row of NAME and the row of kt_warm start their Shared Object at the
# same column (unless "any").  Prints that column.
columns() {
	"$PYTHON3" - "$1" "$2" "$NAME" "${3:-}" <<'PY'
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
name, w = sys.argv[3], int(sys.argv[2])
long = [l for l in lines if width(l) > w]
assert not long, "wider than %d columns: %r" % (w, long[:2])
if sys.argv[4] == "any":
    sys.exit(0)
def dso_col(fn):
    rows = [l for l in lines if " [.] %s " % fn in l]
    assert rows, "no row of %s" % fn
    l = rows[0].rstrip()
    return width(l[:l.rindex(" ") + 1])
a, b = dso_col(name), dso_col("kt_warm")
assert a == b, "Shared Object at column %d after %s, %d after kt_warm" % (a, name, b)
print(a)
PY
}
# starts FILE HEAD ROW: the column where the header's HEAD starts, and
# where ROW's first field after the command does: "N N" when equal
starts() {
	"$PYTHON3" - "$@" <<'PY'
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
head = [l for l in lines if sys.argv[2] in l][0]
row = [l for l in lines if sys.argv[3] in l][0]
print(width(head[:head.index(sys.argv[2])]), width(row[:row.index(sys.argv[4])]))
PY
}
# row_of NAME PATTERN: the first row of NAME's screen holding PATTERN
row_of() {
	grep -F -- "$2" "$1.screen" | head -1 | sed 's/ *$//'
}

# --- a UTF-8 locale: the name as text, the columns aligned ---------------
KT_WRAP="env LC_ALL=$utf8"
kt_start u 120 30 -d 0.5 -e cpu-clock -s sym,dso -p $hp
if wait_screen u " kt_warm " 5 && wait_screen u " \\[\\.\\] $NAME " 5; then
	if col=$(columns u.screen 120 2>&1); then
		ok "UTF-8 locale: $NAME drawn as text, Shared Object at column $col on both rows"
	else
		fail "UTF-8 locale: $col"
	fi
else
	fail "UTF-8 locale: no row '$NAME': $(grep -F '[.]' u.screen | head -3)"
fi
keys u q
kt_wait_exit u 10 > /dev/null

# --- the command column and the thread list: "kt-漢字", 7 columns --------
COMM=$(printf 'kt-\346\274\242\345\255\227')
kt_start uc 120 30 -d 0.5 -e cpu-clock -s comm,sym,dso -p $hp
if wait_screen uc " \\[\\.\\] $NAME " 5; then
	set -- $(starts uc.screen Symbol "$COMM" "[.] $NAME")
	[ $# -eq 2 ] && [ "$1" = "$2" ] &&
		ok "-s comm: the Symbol column at $1 after the command $COMM" ||
		fail "-s comm: Symbol at '$1', the row's at '$2': $(grep -F "$COMM" uc.screen | head -2)"
else
	fail "-s comm: $(grep -F '[.]' uc.screen | head -3)"
fi
keys uc t
if wait_screen uc "TID +COMMAND +SAMPLES" 3 && wait_screen uc " $COMM " 3; then
	set -- $(starts uc.screen SHARE "$COMM" "%")
	# the share ends where its header does: "%" one column left of the
	# header's end ("   SHARE" is 8 wide, "xx.xx%" right-aligned in it)
	[ $# -eq 2 ] && [ $(($1 + 4)) -eq "$2" ] &&
		ok "thread list: the columns after $COMM aligned" ||
		fail "thread list: SHARE at '$1', the row's % at '$2': $(grep -F "$COMM" uc.screen)"
else
	fail "thread list: $(head -5 uc.screen)"
fi
keys uc q
keys uc q
kt_wait_exit uc 10 > /dev/null

# --- a terminal that ends inside the name: cut on a whole character ------
# The row is "%7.2f%% %10d  [.] " (25 columns), then the name: at 41
# columns it fits whole; at 40 the last CJK character (two columns) does
# not fit and is left out, never split nor wrapped onto the next line.
for w in 41 40; do
	kt_start n$w $w 12 -d 0.5 -e cpu-clock -s sym -p $hp
	if wait_screen n$w ' \[\.\] hot_' 5 && wait_screen n$w ' kt_warm' 5; then
		got=$(row_of n$w ' [.] hot_' | sed 's/.*\[\.\] //')
		want=$NAME
		[ $w = 40 ] && want=$(printf 'hot_\303\274n\303\257c\303\266d\303\251_\346\274\242')
		if [ "$got" = "$want" ] && columns n$w.screen $w any > /dev/null 2>&1 &&
		   [ "$(wc -l < n$w.screen)" -eq 12 ]; then
			ok "$w columns: the name cut to '$got'"
		else
			fail "$w columns: '$got' (want '$want'): $(columns n$w.screen $w any 2>&1 | tail -1)"
		fi
	else
		fail "$w columns: $(cat n$w.screen)"
	fi
	keys n$w q
	kt_wait_exit n$w 10 > /dev/null
done

# --- the C locale: escapes, never raw bytes on the terminal -------------
KT_WRAP="env LC_ALL=C"
kt_start c 120 30 -d 0.5 -e cpu-clock -s sym,dso -p $hp
esc='hot_\xc3\xbcn\xc3\xafc\xc3\xb6d\xc3\xa9_\xe6\xbc\xa2\xe5\xad\x97'
if wait_screen c " kt_warm " 5 && wait_screen c "$(printf '%s' "$esc" | sed 's/\\/\\\\/g')" 5; then
	LC_ALL=C grep -q "$(printf '[\200-\377]')" c.screen &&
		fail "C locale: bytes above 0x7f on the screen: $(grep -F '[.]' c.screen | head -2)" ||
		ok "C locale: $esc"
else
	fail "C locale: $(grep -F '[.]' c.screen | head -3)"
fi
keys c q
kt_wait_exit c 10 > /dev/null

# --- -b: the same padding, in a file -------------------------------------
LC_ALL=$utf8 "$KERNELTOP" -b -n 2 -d 0.5 -e cpu-clock -s sym,dso -p $hp > b.out 2> b.err ||
	fail "-b: $(cat b.err)"
if col=$(columns b.out 200 2>&1); then
	ok "-b: Shared Object at column $col after $NAME and kt_warm"
else
	fail "-b: $col"
fi
done_testing
