# export-lib.sh - sourced by the export tests: one recording of
# cg-helper's known call tree with an export, and monitor's own summary
# of the same samples to compare the consumer's reading with.

T="$top_builddir/tests/monitor"

# record OPTION FILE: sample cg-helper-fp (user space, call chains by
# DWARF, or fp in a build without libunwind) into FILE; the summary
# table goes to summary.
record() {
	mode=dwarf
	"$MONITOR" --call-graph dwarf -n 1 -- true 2>&1 |
		grep -q "without libunwind" && mode=fp
	"$MONITOR" --call-graph $mode -u -F 997 --summary "$1" "$2" \
		-- "$T/cg-helper-fp" tree 1000 > summary 2> record.err ||
		{ cat record.err; fail "monitor $1 $2 failed"; done_testing; }
	[ -s "$2" ] || { fail "$2 is empty"; done_testing; }
	# "monitor: N samples of EVENT on ..."
	samples=$(sed -n 's/^monitor: \([0-9]*\) samples of .*/\1/p' summary)
}

# summary_count FUNCTION: its samples in monitor's table
summary_count() {
	awk -v f="$1" '$3 == f { print $1; exit }' summary
}
