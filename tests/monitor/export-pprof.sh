#!/bin/sh
# export-pprof.sh - --pprof read back by go tool pprof: its total and top
# functions are monitor's own summary of the same samples.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/monitor/export-lib.sh"
need perf_event
command -v go >/dev/null 2>&1 || skip "no go tool (apt-get install golang-go)"
"$MONITOR" --pprof x.pb.gz -n 1 -- true 2>&1 | grep -q "no pprof" &&
	skip "built without protobuf-c"

record --pprof out.pb.gz
# HOME and GOCACHE: go wants somewhere to write, even to read a profile
HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= \
	go tool pprof -top -nodecount=100000 -nodefraction=0 -sample_index=samples \
	-symbolize=none out.pb.gz > top 2> top.err ||
	{ cat top.err; fail "go tool pprof cannot read it"; done_testing; }
total=$(sed -n 's/.* of \([0-9]*\) total$/\1/p' top)
[ "$total" = "$samples" ] && ok "pprof total $total = monitor's $samples samples" ||
	fail "pprof total '$total', monitor $samples"
grep -q "^File: cg-helper-fp" top && ok "the program's file first" ||
	fail "File: line: $(head -1 top)"

# the three functions monitor counts most: the same flat counts in pprof
# (the summary groups what has no name as "[unknown]"; the exports name
# each such place by its file and offset)
# (the helper's own functions: a name that several libraries share, such
# as ld.so's, is one row in pprof's -top but may be several in monitor's)
awk 'NR > 2 && $2 ~ /%$/ && $3 ~ /^(cg_|main$)/ { print $3, $1 }' summary |
	head -3 > want
n=0
while read -r fn count; do
	got=$(awk -v f="$fn" '$6 == f { print $1; exit }' top)
	[ "$got" = "$count" ] && n=$((n + 1)) ||
		fail "$fn: pprof flat '$got', monitor $count"
done < want
[ $n -ge 1 ] && [ $n -eq "$(wc -l < want)" ] &&
	ok "top functions' samples equal: $(tr '\n' ' ' < want)"
# the call tree made it: main's cumulative count holds cg_hot's
cum=$(awk '$6 == "main" { print $4 }' top)
hot=$(summary_count cg_hot)
[ -n "$cum" ] && [ "$cum" -ge "$hot" ] && ok "main: cum $cum >= cg_hot's $hot" ||
	fail "main cum '$cum' < cg_hot $hot"
# build-ids and lines are there
HOME=$tmpdir GOCACHE=$tmpdir/gocache go tool pprof -raw out.pb.gz > raw 2>&1
grep -q "cg-helper-fp [0-9a-f]\{40\} \[FN\]\[FL\]\[LN\]" raw &&
	ok "mapping with build-id, functions, files, lines" ||
	fail "mapping: $(grep -A3 '^Mappings' raw)"
grep -q "cg_hot .*cg-helper.c:[0-9]" raw && ok "cg_hot with file:line" ||
	fail "no file:line for cg_hot"

# Frame-pointer chains end in libc's __libc_start_call_main (Debian's libc
# has no frame pointers), yet the program is still the "File:" (it was
# libc.so.6)
"$MONITOR" -g -u -F 997 --summary --pprof fp.pb.gz \
	-- "$T/cg-helper-fp" tree 300 > /dev/null 2> fp.err ||
	fail "monitor -g --pprof: $(cat fp.err)"
HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= \
	go tool pprof -top -symbolize=none fp.pb.gz > fptop 2>&1
grep -q "^File: cg-helper-fp$" fptop && ok "-g: the program's file first" ||
	fail "-g: $(head -1 fptop)"
done_testing
