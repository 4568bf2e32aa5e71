#!/bin/sh
# openmetrics.sh - kerneltop --openmetrics FILE: rewritten each refresh,
# in batch and on a terminal (tmux); the OpenMetrics text format that
# promtool accepts; its figures are the batch header's of the same run,
# and its sample total the samples the frames counted.
. "$top_srcdir/tests/test-subr.sh"
. "$top_srcdir/tests/lib-kerneltop.sh"
need kerneltop tmux perf_event
command -v promtool >/dev/null 2>&1 ||
	skip "promtool not installed (apt-get install prometheus; ./bootstrap does)"

T="$top_builddir/tests/monitor"
spawn_ready "$T/cg-helper-fp" tree 600000 || fail "helper did not start"
hp=$spawned

# om_check FILE: the format: each family's # TYPE (then # UNIT, # HELP)
# before its one sample, names as OpenMetrics spells them, a number for
# each value, # EOF last and once; and promtool accepts it.
om_check() {
	awk '
	function bad(why) { print "line " NR ": " why ": " $0; err = 1; exit 1 }
	eof { bad("after # EOF") }
	/^# EOF$/ { eof = 1; next }
	/^# TYPE / { if ($3 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/) bad("name")
		     if ($4 != "counter" && $4 != "gauge") bad("type")
		     if ($4 == "counter" && $3 !~ /_total$/) bad("a counter not _total")
		     type[$3] = $4; next }
	/^# (UNIT|HELP) / { if (!($3 in type)) bad("before its # TYPE"); next }
	/^#/ { bad("a comment") }
	{ if (!($1 in type)) bad("a sample without # TYPE")
	  if (seen[$1]++) bad("a second sample")
	  if ($2 !~ /^[0-9]+(\.[0-9]+)?$/ || NF != 2) bad("value") }
	END { if (!err && !eof) { print "no # EOF"; exit 1 } }' "$1" > om.why ||
		{ fail "$1: $(cat om.why)"; return 1; }
	promtool check metrics < "$1" > promtool.out 2>&1 ||
		{ fail "promtool rejects $1: $(cat promtool.out)"; return 1; }
	ok "$1: OpenMetrics text, promtool accepts it"
}

# om VALUE FILE: the value of a family
om() { awk -v n="$1" '$1 == n { print $2 }' "$2"; }

# near A B ROUND: A, printed finer, rounds to B (B rounded to ROUND)
near() {
	[ -n "$1" ] && [ -n "$2" ] &&
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN {
		d = a - b; exit !(d <= r + 1e-6 && -d <= r + 1e-6) }'
}

# 1. batch, -z: each frame counts its own samples; the last frame's
#    header is what the file says at the end
"$KERNELTOP" -b -n 4 -d 0.5 -z --show-nr-samples -e cpu-clock -p $hp \
	--openmetrics b.prom > b.out 2> b.err || fail "kerneltop -b: $(cat b.err)"
om_check b.prom
rows=$(kt_nochains b.out | awk '/^ *[0-9.]+% +[0-9]+ / { s += $2 } END { print s + 0 }')
total=$(om kerneltop_samples_total b.prom)
[ "$rows" -gt 0 ] && [ "$total" = "$rows" ] &&
	ok "samples_total $total = the samples of the 4 frames" ||
	fail "samples_total '$total', frames' rows $rows"
head=$(grep '^kerneltop: [0-9]* samples/s' b.out | tail -1)
tgt=$(grep '^target: ' b.out | tail -1)
rate=$(echo "$head" | awk '{ print $2 }')
got=$(om kerneltop_samples_per_second b.prom)
# the header rounds to units, the file to thousandths
near "$got" "$rate" 0.5 && ok "samples/s $got: the header's $rate" ||
	fail "samples_per_second '$got', header $rate"
for f in lost throttled; do
	want=$(echo "$head" | sed -n "s/.* $f \([0-9]*\).*/\1/p")
	case $f in lost) n=kerneltop_lost_samples_total ;;
		   throttled) n=kerneltop_throttled_total ;; esac
	got=$(om $n b.prom)
	[ -n "$want" ] && [ "$got" = "$want" ] && ok "$f $got: the header's" ||
		fail "$n '$got', header '$want'"
done
want=$(echo "$tgt" | sed -n 's/.* unresolved \([0-9.]*\)%.*/\1/p')
got=$(awk -v r="$(om kerneltop_unresolved_ratio b.prom)" 'BEGIN { print r * 100 }')
near "$got" "$want" 0.05 && ok "unresolved $got%: the header's $want%" ||
	fail "unresolved_ratio '$got'%, header '$want'%"
want=$(echo "$head" | sed -n 's/.* kernel \([0-9.]*\)%.*/\1/p')
got=$(awk -v r="$(om kerneltop_kernel_ratio b.prom)" 'BEGIN { print r * 100 }')
near "$got" "$want" 0.05 && ok "kernel $got%: the header's $want%" ||
	fail "kernel_ratio '$got'%, header '$want'%"
[ -z "$(om kerneltop_chain_frames_total b.prom)" ] &&
	ok "no chains' frames without -g" || fail "chain_frames_total without -g"

# 2. on a terminal: the file is rewritten each refresh, its total grows
tmux_start tui 120 30 "'$KERNELTOP' -d 0.3 -e cpu-clock --call-graph fp -p $hp \
	--openmetrics t.prom 2> tui.err; echo \$? > tui.rc"
retry 20 test -s t.prom || fail "no t.prom on a terminal"
first=$(om kerneltop_samples_total t.prom)
retry 20 sh -c '[ "$(awk "\$1 == \"kerneltop_samples_total\" { print \$2 }" t.prom)" -gt '"${first:-0}"' ]' &&
	ok "rewritten on a terminal: samples_total grows past $first" ||
	fail "t.prom not rewritten: $(om kerneltop_samples_total t.prom), first $first"
tm send-keys -t tui q
retry 20 test -s tui.rc || fail "kerneltop did not end at q"
[ "$(cat tui.rc)" = 0 ] || fail "kerneltop on a terminal: $(cat tui.err)"
om_check t.prom
[ "$(om kerneltop_chain_frames_total t.prom)" -gt 0 ] &&
	ok "-g: the chains' frames" || fail "-g: no chain_frames_total"
ls -a | grep -q '^\.t\.prom\.tmp' && fail "a temporary left: $(ls -a)"
done_testing
