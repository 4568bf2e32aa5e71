#!/bin/sh
# --pre/--post CMD around each of -r N runs, as argv (no shell), and -S's
# sync() between --pre and the run, side by side with perf stat.
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

# -S: sync() before each run, after its --pre, where perf calls it.
if have strace; then
	strace -f -qq -e trace=sync,execve -o st.txt "$PCSTAT" -S -r 2 -x, \
		-e task-clock --pre "sh -c :" -- true 2> /dev/null
	seq=$(awk '!/= 0$/ { next } /execve\(.*\["sh"/ { printf "pre " }
		   / sync\(/ { printf "sync " }
		   /execve\(.*\["true"/ { printf "run " }' st.txt)
	check "-S -r 2: pre, sync, run, twice ($seq)" \
		test "$seq" = "pre sync run pre sync run "
	strace -f -qq -e trace=sync -o st0.txt "$PCSTAT" -r 2 -x, \
		-e task-clock -- true 2> /dev/null
	check "without -S: no sync()" test "$(grep -c 'sync()' st0.txt)" -eq 0
	if have perf; then
		strace -f -qq -e trace=sync -o pst.txt perf stat -S -r 2 -x, \
			-e task-clock -- true 2> /dev/null
		check "-S -r 2: as many sync() calls as perf's" \
			test "$(grep -c 'sync()' pst.txt)" -eq "$(grep -c 'sync()' st.txt)"
	fi
else
	without strace "the -S check"
fi

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
