#!/bin/sh
# libsysapi exports exactly the functions its installed headers declare:
# nothing internal leaks into the ABI, nothing declared is missing.
. "$top_srcdir/tests/test-subr.sh"
so=$(ls "$top_builddir"/.libs/libsysapi.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] || skip "no shared libsysapi in this build (--disable-shared)"
need binutils
grep -ohE '\b(pc_[a-z_]+|perf_counter_[a-z_]+)\(' "$top_srcdir"/include/sysapi/*.h |
	tr -d '(' | sort -u > declared
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort > exported
check "exports match the headers" diff -u declared exported
check "the export list is the headers' list" diff -u declared "$top_srcdir/lib/sysapi/libsysapi.sym"
done_testing
