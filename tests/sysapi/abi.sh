#!/bin/sh
# libsysapi exports exactly the functions its installed headers declare:
# nothing internal leaks into the ABI, nothing declared is missing; and
# sysapi(3) gives each a prototype and a description.
. "$top_srcdir/tests/test-subr.sh"
so=$(ls "$top_builddir"/.libs/libsysapi.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] || skip "no shared libsysapi in this build (--disable-shared)"
need binutils
grep -ohE '\b(pc_[a-z_]+|perf_counter_[a-z_]+)\(' "$top_srcdir"/include/sysapi/*.h |
	tr -d '(' | sort -u > declared
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort > exported
check "exports match the headers" diff -u declared exported
check "the export list is the headers' list" diff -u declared "$top_srcdir/lib/sysapi/libsysapi.sym"

# .Fn NAME in a section of the page, one name a line
man_fns() {
	awk -v sh="$1" '/^\.Sh / { in_sh = ($2 == sh); next }
		in_sh && $1 == ".Fn" { print $2 }' "$top_srcdir/man/sysapi.3" | sort -u
}
man_fns SYNOPSIS > synopsis
man_fns DESCRIPTION > described
check "sysapi(3)'s SYNOPSIS has every export, and only those" \
	diff -u declared synopsis
comm -23 declared described > undescribed
check "sysapi(3)'s DESCRIPTION tells of every export (missing: $(echo $(cat undescribed)))" \
	test ! -s undescribed

# the Debian symbols file names the same exports (dh_makeshlibs fails
# the package build on any difference)
if [ -f "$top_srcdir/debian/libsysapi0.symbols" ]; then
	sed -n 's/^ \([a-z_]*\)@Base .*/\1/p' \
		"$top_srcdir/debian/libsysapi0.symbols" | sort > debsyms
	check "debian/libsysapi0.symbols lists every export, and only those" \
		diff -u declared debsyms
fi
done_testing
