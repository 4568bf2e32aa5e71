#!/bin/sh
# layering.sh - lib/ has no dependency cycle and includes nothing of
# tools/, each folder of lib/ depends only on those layering.py's LAYERS
# puts below it (and its Makemodule.am links), each tool's files have no
# cycle and includes no other tool's file (tests/layering.py derives the
# graph from #include lines and from the objects of this build), every
# .c file of lib/ and tools/ is built, Makefile.am's fragments name each
# test and distributed file once; and the check itself catches each.
. "$top_srcdir/tests/test-subr.sh"
need python binutils

check "the check catches cycles, a tools/ include, a layer out of order, a missing LIBADD, an unbuilt file, a tool reaching into another, a double listing (selftest)" \
	"$PYTHON3" "$top_srcdir/tests/layering.py" --selftest
check "lib/ in its declared layers, no cycle, no tools/ header; tools/ without cycles, each on its own; every .c built; TESTS and EXTRA_DIST once each" \
	"$PYTHON3" "$top_srcdir/tests/layering.py" "$top_srcdir" "$top_builddir"
done_testing
