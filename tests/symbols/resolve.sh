#!/bin/sh
# resolve.sh - lib/symbols on fixture binaries: a table of addresses to
# symbol+offset and file:line, checked against the source's markers and
# against binutils' addr2line; stripped copies, separate debuginfo, -d
# files, demangling, and a running process (deleted and replaced binary).
. "$top_srcdir/tests/test-subr.sh"

SYMRES="$top_builddir/tests/symbols/symres"
FX="$top_builddir/tests/symbols/fixture"
SRC="$top_srcdir/tests/symbols/fixture.c"
need binutils

# marker_lines FUNC: "first last" line of FUNC's BEGIN/END markers.
marker_lines() {
	echo "$(grep -n "BEGIN $1 " "$SRC" | cut -d: -f1)" \
	     "$(grep -n "END $1 " "$SRC" | cut -d: -f1)"
}

# The table: symbol in the ELF, name we must print, function(s) whose
# lines the address may be on (inlining puts fx_leaf's lines in fx_outer).
cat > table <<'TABLE'
fx_alpha fx_alpha fx_alpha
fx_local fx_local fx_local
fx_outer fx_outer fx_outer,fx_leaf
_ZN2fx6Widget4spinEi fx::Widget::spin(int) fx_widget_spin
TABLE

nm -S "$FX" > nm.out
while read -r elfsym want ranges; do
	set -- $(awk -v s="$elfsym" '$4 == s { print $1, $2 }' nm.out)
	[ $# -eq 2 ] || { fail "$elfsym not in nm output"; continue; }
	start=$((0x$1)); size=$((0x$2))
	for off in 0 1 4 $((size / 2)) $((size - 1)); do
		addr=$(printf '%x' $((start + off)))
		line=$("$SYMRES" "$FX" "$addr")
		got=$(echo "$line" | cut -d' ' -f2)
		want_so=$(printf '%s+0x%x' "$want" "$off")
		# C++ names hold spaces in general; this one does not
		[ "$got" = "$want_so" ] || fail "$addr: got '$got', want '$want_so'"
		srcline=$(echo "$line" | cut -d' ' -f3)
		ln=${srcline##*:}
		inside=no
		for fn in $(echo "$ranges" | tr , ' '); do
			set -- $(marker_lines "$fn")
			[ "$ln" -ge "$1" ] && [ "$ln" -le "$2" ] && inside=yes
		done
		[ "$inside" = yes ] ||
			fail "$addr ($want_so): line $srcline not in $ranges"
	done
	ok "$want: symbol+offset and line at 5 offsets"
done < table

# Every address of the fixture's functions: same file:line as addr2line.
awk '$4 ~ /^(fx_|_ZN2fx)/ { print $1, $2 }' nm.out | while read -r a s; do
	i=0
	while [ $i -lt $((0x$s)) ]; do
		printf '%x\n' $((0x$a + i))
		i=$((i + 1))
	done
done > addrs
n=$(wc -l < addrs)
"$SYMRES" "$FX" < addrs | awk '{ print $3 }' > ours
addr2line -e "$FX" < addrs | sed 's,.*/,,; s/ (discriminator.*//' > theirs
if cmp -s ours theirs; then
	ok "file:line of $n addresses agree with addr2line"
else
	fail "file:line differs from addr2line: $(diff ours theirs | head -5)"
fi

# Every address of the inlining functions: the same chain of inlined
# frames as addr2line -i (function, then file:line of each frame; the
# blocks and repeated call sites of fx_deep make the tree deep).  symres
# prints "[inlined: f@file:line <- ...]"; addr2line -a -i -f prints the
# address, then each frame's function and file:line, innermost first.
awk '$4 == "fx_outer" || $4 == "fx_deep" { print $1, $2 }' nm.out |
while read -r a s; do
	i=0
	while [ $i -lt $((0x$s)) ]; do
		printf '%x\n' $((0x$a + i))
		i=$((i + 1))
	done
done > iaddrs
"$SYMRES" "$FX" < iaddrs | sed -n 's/.*\[inlined: \(.*\)\]$/\1/p; t; s/.*/-/p' |
	sed 's/ <- / /g' > ichains
addr2line -a -i -f -e "$FX" < iaddrs | sed 's,^[^ ]*/,,; s/ (discriminator.*//' |
	awk '/^0x/ { if (n) print (n > 1 ? c : "-"); c = ""; n = 0; next }
	     { if (f == "") { f = $0; next }
	       c = c (n ? " " : "") f "@" $0; n++; f = "" }
	     END { if (n) print (n > 1 ? c : "-") }' > ichains.want
ni=$(grep -vc '^-$' ichains.want)
if [ "$ni" -gt 20 ] && cmp -s ichains ichains.want; then
	ok "inline chains of $(wc -l < iaddrs) addresses ($ni inlined) agree with addr2line -i"
else
	fail "inline chains differ from addr2line -i ($ni inlined): $(diff ichains ichains.want | head -6)"
fi
grep -q 'fx_leaf@fixture.c:[0-9]* fx_mid@fixture.c:[0-9]* fx_deep@' ichains ||
	fail "no two-level chain fx_leaf <- fx_mid <- fx_deep"

# Assembly labels (untyped symbols in code) name code, as perf takes them
# (ld.so's _start, where every DWARF chain of a process's start ends, was
# "[unknown]"); a label inside a sized function leaves it its name
lab=$(awk '$NF == "asmfx_label" { print $1 }' nm.out)
sized=$(awk '$NF == "asmfx_sized" { print $1 }' nm.out)
got=$("$SYMRES" "$FX" "$(printf '%x' $((0x$lab + 2)))" | cut -d' ' -f2)
[ "$got" = "asmfx_label+0x2" ] && ok "untyped label: $got" ||
	fail "untyped label: got '$got', want asmfx_label+0x2"
got=$("$SYMRES" "$FX" "$(printf '%x' $((0x$sized + 3)))" | cut -d' ' -f2)
[ "$got" = "asmfx_sized+0x3" ] && ok "label inside a function: $got" ||
	fail "label inside a function: got '$got', want asmfx_sized+0x3"

# Inlined frames: fx_leaf inside fx_outer, with the call site's line.
a=$(awk '$4 == "fx_outer" { print $1 }' nm.out)
"$SYMRES" "$FX" < addrs > all
if grep -q "fx_outer+0x[0-9a-f]* .*inlined: fx_leaf@fixture.c:[0-9]* <- fx_outer@fixture.c:" all; then
	ok "inlined fx_leaf reported inside fx_outer"
else
	fail "no inline frame for fx_leaf: $(grep fx_outer all | head -3)"
fi

alpha=$(awk '$4 == "fx_alpha" { print $1 }' nm.out)
alpha4=$(printf '%x' $((0x$alpha + 4)))

# Stripped: dso+offset, cause stripped, no crash.
cp "$FX" fx.stripped && strip fx.stripped
out=$("$SYMRES" fx.stripped "$alpha4")
case $out in
*" fx.stripped+0x$alpha4 ??:0 stripped") ok "stripped: $out" ;;
*) fail "stripped copy: '$out'" ;;
esac

# Separate debuginfo next to it, found through .gnu_debuglink.
objcopy --only-keep-debug "$FX" fx.debug
objcopy --strip-all --add-gnu-debuglink=fx.debug "$FX" fx.linked
out=$("$SYMRES" fx.linked "$alpha4")
case $out in
*" fx_alpha+0x4 fixture.c:"*" ok") ok "debuglink: $out" ;;
*) fail "debuglink: '$out'" ;;
esac

# -d: an unstripped build of the same binary serves the stripped one ...
out=$("$SYMRES" -d "$FX" fx.stripped "$alpha4")
case $out in
*" fx_alpha+0x4 fixture.c:"*" ok") ok "-d same build: $out" ;;
*) fail "-d same build: '$out'" ;;
esac
# ... another build (different build-id) is refused, not trusted.
other_build_id "$FX" fx.other || fail "cannot make fx.other"
out=$("$SYMRES" -d fx.other fx.stripped "$alpha4")
case $out in
*"build-id mismatch") ok "-d other build: $out" ;;
*) fail "-d with a different build-id: '$out'" ;;
esac
# -d path with shell metacharacters is a plain path.
evil='fx;touch pwned;$(touch pwned2)`touch pwned3`|x'
cp "$FX" "./$evil"
out=$("$SYMRES" -d "./$evil" fx.stripped "$alpha4")
case $out in
*" fx_alpha+0x4 fixture.c:"*) ok "-d metacharacter path read as a file" ;;
*) fail "-d '$evil': '$out'" ;;
esac
[ ! -e pwned ] && [ ! -e pwned2 ] && [ ! -e pwned3 ] ||
	fail "a shell ran the -d path"

# Real C++ through g++, when there is one (the C fixture covers the
# mangled name without it).
if command -v g++ >/dev/null 2>&1 &&
   g++ -g -O1 -o cxx "$top_srcdir/tests/symbols/fixture-cxx.cc" 2>/dev/null; then
	for fn in _ZN2fx6Widget4spinEi _ZN2fx5twiceIlEET_S1_; do
		a=$(nm cxx | awk -v f=$fn '$3 == f { print $1 }')
		"$SYMRES" cxx "$a"
	done > cxx.out
	if grep -q ' fx::Widget::spin(int)+0x0 ' cxx.out &&
	   grep -q ' long fx::twice<long>(long)+0x0 ' cxx.out; then
		ok "g++ names demangled"
	else
		fail "C++ demangling: $(cat cxx.out)"
	fi
else
	echo "note: no g++, the mangled-name fixture stands in"
fi

# A running process, then its binary deleted, then replaced: the mapped
# file must be what is read (through /proc/PID/map_files), never the
# file now at the path.
for how in live deleted replaced; do
	cp "$FX" "fx-$how"
	"./fx-$how" wait > ready.$how &
	pid=$!
	i=0
	while ! [ -s ready.$how ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	case $how in
	deleted) rm "fx-$how" ;;
	replaced) cp /bin/true "fx-new" && mv -f fx-new "fx-$how" ;;
	esac
	base=$(awk -v p="$tmpdir/fx-$how" 'index($0, p) && $3 == "00000000" { split($1, r, "-"); print r[1]; exit }' /proc/$pid/maps)
	addr=$(printf '%x' $((0x$base + 0x$alpha4)))
	out=$("$SYMRES" -p $pid "$addr")
	kill $pid; wait $pid 2>/dev/null
	case $out in
	*" fx_alpha+0x4 fixture.c:"*) ok "$how binary: $out" ;;
	*) if [ "$(id -u)" -ne 0 ] && [ $how != live ]; then
		echo "note: $how binary needs /proc/PID/map_files (root): $out"
	   else
		fail "$how binary: '$out'"
	   fi ;;
	esac
done

# The vDSO of a running process resolves to its exported functions.
"$FX" wait > ready.vdso &
pid=$!
i=0
while ! [ -s ready.vdso ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
set -- $(awk '/\[vdso\]/ { split($1, r, "-"); print r[1], r[2] }' /proc/$pid/maps)
a=$((0x$1)); found=
while [ $a -lt $((0x$2)) ]; do printf '%x\n' $a; a=$((a + 16)); done |
	"$SYMRES" -p $pid > vdso.out
kill $pid; wait $pid 2>/dev/null
if grep -q ' __vdso_clock_gettime+0x\| clock_gettime+0x' vdso.out; then
	ok "vDSO symbols resolve"
else
	fail "vDSO: $(head -3 vdso.out)"
fi

# PLT stubs have no symbol: the sizeless _init ending .init right before
# .plt must not claim them, nor may any symbol reach past its section;
# each is named from its relocation, as objdump labels it (plt.sh checks
# the layouts).
plt=$(readelf -SW "$FX" | awk '$2 == ".plt" { print $4 }')
if [ -n "$plt" ]; then
	a=$(printf '%x' $((0x$plt + 16)))
	want=$(objdump -d "$FX" | awk -v a="$(printf '%016x' 0x$a)" '$1 == a { gsub(/[<>:]/, "", $2); print $2 "+0x0" }')
	got=$("$SYMRES" "$FX" "$a" | cut -d' ' -f2)
	[ -n "$want" ] && [ "$got" = "$want" ] && ok "PLT stub: $got" ||
		fail "PLT stub resolved as '$got', want '$want'"
fi

done_testing
