#!/bin/sh
# --pre/--post CMD around each of -r N runs, as argv (no shell), side by
# side with perf stat.
. "$top_srcdir/tests/test-subr.sh"
need perf_event

"$PCSTAT" -r 2 -x, -e task-clock --pre "sh -c 'echo pre >> log'" \
	--post "sh -c 'echo post >> log'" -- sh -c 'echo run >> log' 2> r.csv
check "-r 2: pre, run, post, twice ($(echo $(cat log)))" \
	test "$(echo $(cat log))" = "pre run post pre run post"
check "-r 2 with --pre/--post: one CSV line" test "$(wc -l < r.csv)" -eq 1
"$PCSTAT" -e task-clock --pre 'echo $HOME *' -- true 2> /dev/null > noshell.out
check "no shell: \$HOME and * reach echo as written" \
	test "$(cat noshell.out)" = '$HOME *'
"$PCSTAT" -r 3 --pre false -- sh -c 'echo run >> log2' 2> fail.txt
check "--pre false: exit 1 ($?)" test $? -eq 1
check "--pre false: nothing measured" test ! -e log2
check "--pre false: says which" grep -q "^pcstat: --pre 'false' exited 1" fail.txt
"$PCSTAT" --pre "echo 'open" -- true 2> /dev/null
check "--pre with an open quote: exit 2 ($?)" test $? -eq 2
"$PCSTAT" -a --pre true 2> /dev/null
check "--pre without a command: exit 2 ($?)" test $? -eq 2

if have perf; then
	rm -f log
	perf stat -r 2 -x, -e task-clock --pre "sh -c 'echo pre >> log'" \
		--post "sh -c 'echo post >> log'" -- sh -c 'echo run >> log' 2> perf-r.csv
	check "perf runs them in the same order" \
		test "$(echo $(cat log))" = "pre run post pre run post"
	sed 's/[0-9][0-9.,]*/N/g' r.csv > x; sed 's/[0-9][0-9.,]*/N/g' perf-r.csv > y
	diff -u y x || fail "-r 2 --pre/--post CSV: the layout of perf's"
else
	without perf "the comparison with perf"
fi
done_testing
