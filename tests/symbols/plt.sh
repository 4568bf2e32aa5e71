#!/bin/sh
# plt.sh - PLT stubs named as perf and objdump name them ("puts@plt"),
# from the relocations, not one ".plt" for all: a program and library
# built here in three link layouts (lazy .plt; -z now; IBT's .plt.sec,
# when the linker has it), every stub objdump labels resolved by symres
# to objdump's name; then a live program whose samples land in its
# plt_target stub, sampled by monitor and by perf on the same program:
# every @plt name perf reports, monitor reports too.
. "$top_srcdir/tests/test-subr.sh"
need binutils
CC=${CC:-cc}
SYMRES="$top_builddir/tests/symbols/symres"
SRC="$top_srcdir/tests/symbols/plt-fixture.c"

$CC -O1 -g -fPIC -shared -DPLT_LIB -o libpltfx.so "$SRC" ||
	skip "cannot build a shared library with $CC"
built=
for v in lazy now ibt; do
	case $v in
	lazy) flags= ;;
	now) flags=-Wl,-z,now ;;
	ibt) flags="-fcf-protection=full -Wl,-z,ibtplt" ;;
	esac
	if ! $CC -O1 -g $flags -o prog-$v "$SRC" -L. -lpltfx \
		-Wl,-rpath,'$ORIGIN' 2> cc-$v.err; then
		echo "note: $CC cannot link with '$flags': the $v layout not checked"
		continue
	fi
	built="$built $v"
	objdump -d prog-$v | awk '/@plt>:$/ { gsub(/[<>:]/, "", $2); print $1, $2 }' > stubs-$v
	[ -s stubs-$v ] || { fail "$v: objdump labels no stub"; continue; }
	bad=
	while read -r a name; do
		got=$("$SYMRES" prog-$v "$a" | cut -d' ' -f2)
		[ "$got" = "$name+0x0" ] || bad="$bad $a:$got(want $name)"
	done < stubs-$v
	[ -z "$bad" ] && ok "$v: $(wc -l < stubs-$v) stubs named as objdump names them ($(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 }' stubs-$v))" ||
		fail "$v:$bad"
	# a stub's middle: the stub, at its offset
	a=$(awk '$2 == "plt_target@plt" { print $1 }' stubs-$v)
	got=$("$SYMRES" prog-$v "$(printf '%x' $((0x$a + 4)))" | cut -d' ' -f2)
	[ "$got" = "plt_target@plt+0x4" ] || fail "$v: inside the stub: '$got'"
done
case $built in *lazy*) ;; *) fail "not even the default layout built"; done_testing ;; esac

# --- a live program, monitor beside perf ----------------------------------
have perf_event || { without perf_event "the live comparison"; done_testing; }
"$MONITOR" -u -F 4000 --summary -- ./prog-lazy 2000 > mon.out 2> mon.err ||
	fail "monitor: $(cat mon.err)"
awk '$3 ~ /@plt$/ { print $3, $1 }' mon.out > mon.plt
awk '$3 == ".plt" || $3 ~ /^\.plt/' mon.out > mon.section
[ ! -s mon.section ] || fail "monitor still names a section: $(cat mon.section)"
n=$(awk '$1 == "plt_target@plt" { print $2 }' mon.plt)
[ -n "$n" ] && [ "$n" -gt 0 ] && ok "monitor: plt_target@plt with $n samples" ||
	fail "monitor: no plt_target@plt: $(head -6 mon.out)"
if have perf; then
	perf record -q -e cpu-clock:u -F 4000 -o perf.data -- ./prog-lazy 2000 \
		> /dev/null 2> perf.err || fail "perf record: $(cat perf.err)"
	# Names with 1% of perf's samples at least: a stub run a few times
	# (the lazy resolver's PLT0, a one-off call) is sampled in one run
	# and not in the other under load, and says nothing of the naming.
	perf report -i perf.data --stdio --sort sym -q 2> /dev/null |
		awk '$3 ~ /@plt$/ && $1 + 0 >= 1 { print $3 }' > perf.plt
	missing=
	while read -r name; do
		grep -q "^$name " mon.plt || missing="$missing $name"
	done < perf.plt
	[ -z "$missing" ] &&
		ok "perf's @plt names all in monitor's: $(tr '\n' ' ' < perf.plt)" ||
		fail "perf names$missing, monitor does not: $(cat mon.plt)"
else
	without perf "the comparison with perf report"
fi
done_testing
