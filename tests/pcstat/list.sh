#!/bin/sh
# `pcstat list` and `pcstat -e list`: every name of libsysapi's event table
# and every cache name, each with its availability here: software events
# open, hardware ones only where a PMU is.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

# Without tracefs (not mounted, and not root to mount it) the list has
# no tracepoints and one line on stderr says how to mount it.
have tracefs && tracefs=yes || tracefs=no
"$PCSTAT" list > list.out 2> list.err || fail "pcstat list failed"
"$PCSTAT" -e list > elist.out 2> elist.err || fail "pcstat -e list failed"
cmp -s list.out elist.out && cmp -s list.err elist.err ||
	fail "pcstat list and pcstat -e list differ"
if [ $tracefs = yes ]; then
	[ -s list.err ] && fail "pcstat list wrote to stderr: $(cat list.err)"
else
	[ "$(wc -l < list.err)" -eq 1 ] && grep -q 'mount -t tracefs' list.err ||
		fail "pcstat list without tracefs: $(cat list.err)"
fi

# A PMU here?  perf's answer where perf runs, else pcstat's.
if have_perf; then
	perf stat -x, -e instructions -- true 2> pmu.csv
else
	"$PCSTAT" -x, -e instructions -- true 2> pmu.csv
fi
if grep -q 'not supported' pmu.csv; then pmu=no; else pmu=yes; fi
echo "hardware PMU: $pmu"

"$top_builddir/tests/pcstat/event-names" > names
[ "$(wc -l < names)" -gt 30 ] || fail "event-names printed $(wc -l < names) names"
nbad=0
while read -r name alias kind; do
	if [ "$alias" = - ]; then label=$name; else label="$name OR $alias"; fi
	line=$(awk -v l="$label" '{ s = $0; sub(/^  /, "", s); sub(/ +\[.*$/, "", s) }
		s == l { print; exit }' list.out)
	if [ -z "$line" ]; then
		fail "'$label' not listed"; nbad=$((nbad + 1)); continue
	fi
	# With a PMU, which hardware events a CPU model has varies: only
	# instructions must open.
	case $kind:$pmu:$name in
	sw:*|tool:*|*:yes:instructions) want=available ;;
	*:no:*) want=unavailable ;;
	*) want=any ;;
	esac
	case $line in
	*"not supported here]") got=unavailable ;;
	*) got=available ;;
	esac
	if [ "$want" != any ] && [ "$got" != "$want" ]; then
		fail "'$label' listed $got, expected $want: $line"
		nbad=$((nbad + 1))
	fi
	case $kind in
	sw) t="Software event" ;; hw) t="Hardware event" ;; cache) t="Hardware cache event" ;;
	tool) t="Tool event" ;;
	esac
	case $line in *"[$t"*) ;; *) fail "'$label' not a $t: $line" ;; esac
done < names
[ "$nbad" -eq 0 ] && ok "$(wc -l < names) names listed with their availability"
grep -q '^  rNNN ' list.out || fail "raw event syntax not listed"
done_testing
