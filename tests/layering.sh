#!/bin/sh
# layering.sh - lib/ has no dependency cycle and includes nothing of
# tools/ (tests/layering.py derives the graph from #include lines and
# from the objects of this build); and the check itself catches both.
. "$top_srcdir/tests/test-subr.sh"
need python binutils

check "the check catches a cycle and a tools/ include (selftest)" \
	"$PYTHON3" "$top_srcdir/tests/layering.py" --selftest
check "lib/: no cycle, no tools/ header" \
	"$PYTHON3" "$top_srcdir/tests/layering.py" "$top_srcdir" "$top_builddir"
done_testing
