#!/bin/sh
# Every manual page is clean under mandoc -Tlint (warnings and worse;
# "referenced manual not found" depends on what the host has installed).
. "$top_srcdir/tests/test-subr.sh"
need mandoc
for page in "$top_srcdir"/man/*.[1-8]; do
	mandoc -Tlint -W warning "$page" > lint.out 2>&1
	grep -v 'outdated mandoc.db' lint.out > lint.err
	if [ -s lint.err ]; then
		cat lint.err >&2
		fail "$(basename "$page") is not lint-clean"
	else
		ok "$(basename "$page")"
	fi
done
done_testing
