#!/bin/bash
# tests/kernel/inplace.sh - make check-kernel from a source tree configured
# in place (./configure in the top, the classic way): the arm64 guest's
# cross build, configured in another directory, must not meet a configured
# source tree ("source directory already configured").  A scratch copy of
# the distributed sources is configured in place, then run.sh configures
# its cross build (run.sh --cross-configure: no kernel, no boot).  Prints
# a PASS or FAIL line as run.sh does; exit status 0 on PASS.
#
#	PCTOOLS_BUILD=BUILD tests/kernel/inplace.sh
#
# BUILD: a configured pctools build, whose `make distdir` gives the copy.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
name=arm64/cross-configure-from-in-place-tree
build=${PCTOOLS_BUILD:-}
if [ -z "$build" ] || [ ! -f "$build/Makefile" ]; then
	echo "FAIL $name: give PCTOOLS_BUILD, a configured pctools build"
	exit 1
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pctools-inplace.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
src=$scratch/src

step() {
	local what=$1 log=$scratch/$2.log
	shift 2
	if ! "$@" > "$log" 2>&1; then
		echo "FAIL $name: $what failed; its log:"
		tail -20 "$log" | sed 's/^/| /'
		exit 1
	fi
}
step "make distdir" distdir make -s -C "$build" distdir distdir="$src"
# what check-kernel needs of the tree: its Makefile and the programs'
# sources, configured in place (no build: run.sh builds the cross copy)
step "./configure in the top" configure sh -c 'cd "$1" && ./configure' sh "$src"
[ -f "$src/config.status" ] ||
	{ echo "FAIL $name: ./configure left no config.status in the top"; exit 1; }
step "run.sh --cross-configure arm64" cross \
	env PCTOOLS_BUILD="$src" bash "$here/run.sh" --cross-configure arm64
if [ -f "$src/cross-arm64/config.status" ]; then
	echo "PASS $name"
else
	echo "FAIL $name: no config.status in $src/cross-arm64"
	exit 1
fi
