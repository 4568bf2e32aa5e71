#!/bin/sh
# corrupt.sh - broken files must give an answer with a cause, never a
# crash (run it in a --enable-sanitizers build to have ASan watch).
. "$top_srcdir/tests/test-subr.sh"

need binutils

SYMRES="$top_builddir/tests/symbols/symres"
FX="$top_builddir/tests/symbols/fixture"

# patch FILE OFFSET BYTES...: overwrite bytes (octal escapes) in place.
patch() {
	f=$1 off=$2
	shift 2
	printf "$@" | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
}

size=$(wc -c < "$FX")
: > empty
echo "not an elf file" > text
head -c 64 "$FX" > header-only
head -c $((size / 2)) "$FX" > half
head -c 4096 "$FX" > first-page
cp "$FX" shoff-past-eof;  patch shoff-past-eof 40 '\377\377\377\377\377\000\000\000'
cp "$FX" shnum-huge;      patch shnum-huge 60 '\377\377'
cp "$FX" shstrndx-bad;    patch shstrndx-bad 62 '\376\377'
cp "$FX" phnum-zero;      patch phnum-zero 56 '\000\000'
cp "$FX" phoff-past-eof;  patch phoff-past-eof 32 '\377\377\377\377\000\000\000\000'
cp "$FX" class-bad;       patch class-bad 4 '\007'
# garbage over the middle of the file (DWARF and symbol tables), from
# a seed new each run, printed so that a failure can be run again:
# CORRUPT_SEED=N make check TESTS=tests/symbols/corrupt.sh.  Four seeds.
seed=${CORRUPT_SEED:-$(od -An -tu4 -N4 /dev/urandom | tr -d ' ')}
echo "garbage seeds $seed to $((seed + 3)) (CORRUPT_SEED=$seed reproduces)"
garbled=
for i in 0 1 2 3; do
	cp "$FX" garbled.$((seed + i))
	perl -e 'srand($ARGV[0]); print pack("C*", map { int(rand(256)) } 1 .. $ARGV[1])' \
		$((seed + i)) $((size / 3)) |
		dd of=garbled.$((seed + i)) bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
	garbled="$garbled
garbled.$((seed + i)) any"
done
# every section's DWARF bytes zeroed: a valid ELF with broken debug info
cp "$FX" dwarf-zeroed
readelf -SW "$FX" | awk '$2 ~ /^\.debug_/ { print $5, $6 }' |
while read -r off len; do
	dd if=/dev/zero of=dwarf-zeroed bs=1 seek=$((0x$off)) count=$((0x$len)) \
		conv=notrunc 2>/dev/null
done

# the first bytes of two of the fixture's functions, wherever this build
# put them, and addresses in no function
addrs="0 1 $(nm "$FX" | awk '$3 == "fx_alpha" || $3 == "fx_local" { print $1 }' |
	tr '\n' ' ')ffffffffffffffff"
set -- $addrs
[ $# -eq 5 ] || fail "fx_alpha and fx_local not in nm's output: $addrs"
# file: causes that may be given (anything but a crash is acceptable for
# the files whose headers are intact; header damage must say bad ELF).
while read -r f want; do
	"$SYMRES" "$f" $addrs > "$f.out" 2> "$f.err"
	rc=$?
	if [ $rc -ne 0 ] || grep -q "Sanitizer\|runtime error" "$f.err"; then
		fail "$f: exit $rc $(head -3 "$f.err")"
		continue
	fi
	n=$(wc -l < "$f.out")
	[ "$n" -eq 5 ] || { fail "$f: $n answers for 5 addresses"; continue; }
	if [ "$want" != any ] && grep -v -q " $want\$" "$f.out"; then
		fail "$f: want cause '$want': $(grep -v " $want\$" "$f.out" | head -2)"
		continue
	fi
	ok "$f: $(cut -d' ' -f4- "$f.out" | sort | uniq -c | tr -s ' \n' ' ')"
done <<LIST
empty bad ELF
text bad ELF
header-only bad ELF
half any
first-page any
shoff-past-eof any
shnum-huge any
shstrndx-bad any
phnum-zero bad ELF
phoff-past-eof bad ELF
class-bad bad ELF
dwarf-zeroed any$garbled
LIST

# missing file; unreadable file (as non-root only: root reads anything)
out=$("$SYMRES" ./does-not-exist 1000)
case $out in *" no file") ok "missing file: no file" ;; *) fail "missing: $out" ;; esac
if [ "$(id -u)" -ne 0 ]; then
	cp "$FX" unreadable && chmod 000 unreadable
	out=$("$SYMRES" ./unreadable 1000)
	case $out in *" permission") ok "unreadable: permission" ;; *) fail "unreadable: $out" ;; esac
fi
# a directory
out=$("$SYMRES" . 1000)
case $out in *" bad ELF") ok "directory: bad ELF" ;; *) fail "directory: $out" ;; esac
# what anyone may plant where a mapped file was: read without blocking
# (a FIFO without a writer), never endlessly (a device); bounded, so that
# a hang shows as status 124
mkfifo fifo
ln -s /dev/zero zero
for f in fifo zero /dev/null; do
	out=$(timeout -k 5 30 "$SYMRES" $f 1000)
	rc=$?
	case $rc:$out in
	0:*" bad ELF") ok "$f: bad ELF, at once" ;;
	*) fail "$f: status $rc, '$out'" ;;
	esac
done

done_testing
