#!/bin/sh
# proc-files.sh - the files of a running process as it sees them, read
# by lib/symbols from /proc/PID/maps (symres -p), from outside:
#  - a binary whose name really ends in " (deleted)" is not deleted;
#  - a deleted binary keeps " (deleted)" in its name, is read through
#    map_files (root) or said deleted, and never taken for the different
#    file now at its old path;
#  - a name with a newline (the kernel writes it "\012" in maps);
#  - a binary in a mount namespace of its own, at a path that in ours
#    holds nothing (root) or another file (a user, whom map_files is
#    closed to): read through /proc/PID/root, neither "no file" nor
#    "replaced";
#  - a JIT in a pid namespace of its own writes /tmp/perf-1.map in its
#    own /tmp: monitor finds it there (root).
# Each case as root and, where it differs, as a user (nobody).
. "$top_srcdir/tests/test-subr.sh"
need binutils

SYMRES="$top_builddir/tests/symbols/symres"
FX="$top_builddir/tests/symbols/fixture"
alpha=$(nm "$FX" | awk '$3 == "fx_alpha" { print $1 }')
[ -n "$alpha" ] || fail "no fx_alpha in the fixture"
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
users=
have root && users=root
have root && have setpriv && users="$users nobody"
[ -n "$users" ] || skip "neither root nor setpriv: the cases need root or a user to be"
# a user must reach the files here
chmod 755 "$tmpdir"

# start TAG CMD...: run CMD (a fixture that prints "ready"), wait for it;
# $pid is the fixture's pid (CMD execs it)
start() {
	local tag=$1 i=0
	shift
	"$@" > "ready.$tag" 2> "err.$tag" &
	pid=$!
	at_exit "kill $pid 2>/dev/null"
	while ! [ -s "ready.$tag" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "ready.$tag" ] || fail "$tag: the fixture did not start: $(cat "err.$tag")"
}
# alpha_at PID MAPSPATH: the run-time address of fx_alpha+4 in PID, whose
# fixture maps shows as MAPSPATH (as the kernel writes it)
alpha_at() {
	local base
	# (through the environment: awk -v would read "\012" as a newline)
	base=$(P="$2" awk 'BEGIN { p = ENVIRON["P"] }
		substr($0, length($0) - length(p) + 1) == p && $3 == "00000000" {
		split($1, r, "-"); print r[1]; exit }' /proc/$1/maps)
	[ -n "$base" ] && printf '%x' $((0x$base + 0x$alpha + 4))
}
# resolves USER PID MAPSPATH WANTDSO WHAT: symres -p as USER names fx_alpha
# in the file named WANTDSO
resolves() {
	local who=$1 p=$2 mp=$3 dso=$4 what=$5 a out run=
	[ "$who" = nobody ] && run=$nobody
	a=$(alpha_at $p "$mp") || { fail "$what ($who): no mapping '$mp'"; return; }
	out=$($run "$SYMRES" -D -p $p $a 2>&1)
	case $out in
	*" fx_alpha+0x4 fixture.c:"*" ok in $dso") ok "$what ($who): $out" ;;
	*) fail "$what ($who): '$out' (want fx_alpha+0x4 in $dso)" ;;
	esac
}

# --- a name that ends in " (deleted)", never deleted ---------------------
cp "$FX" "fx (deleted)"
for who in $users; do
	run=
	[ $who = nobody ] && run=$nobody
	start lit-$who $run "./fx (deleted)" wait
	resolves $who $pid "$tmpdir/fx (deleted)" "$tmpdir/fx (deleted)" "a live file named 'fx (deleted)'"
	kill $pid
done

# --- deleted, a different file now at its old path -----------------------
for who in $users; do
	run=
	[ $who = nobody ] && run=$nobody
	cp "$FX" fx-d
	start del-$who $run ./fx-d wait
	rm fx-d
	cp "$SYMRES" fx-d		# another ELF, other symbols
	mp="$tmpdir/fx-d (deleted)"
	if [ $who = root ]; then
		resolves root $pid "$mp" "$mp" "deleted, read through map_files"
	else
		a=$(alpha_at $pid "$mp")
		out=$($nobody "$SYMRES" -D -p $pid $a 2>&1)
		case $out in
		*" deleted in $mp") ok "deleted (nobody): $out" ;;
		*) fail "deleted (nobody): '$out' (want: deleted in $mp)" ;;
		esac
	fi
	kill $pid
	rm -f fx-d
done

# --- a newline in the name --------------------------------------------------
nl=$(printf 'fx\nnl')
cp "$FX" "./$nl"
start nl "./$nl" wait
resolves $(echo $users | cut -d' ' -f1) $pid "$tmpdir/fx\\012nl" "$tmpdir/fx\\x0anl" "a newline in the name"
kill $pid

# --- another mount namespace --------------------------------------------------
if have root && unshare -m true 2> /dev/null; then
	# a tmpfs over ./mnt in the namespace only: ./mnt/fx is not in ours
	mkdir mnt
	start mntns unshare -m sh -c "mount -t tmpfs none '$tmpdir/mnt' &&
		cp '$FX' '$tmpdir/mnt/fx' && exec '$tmpdir/mnt/fx' wait"
	[ -e mnt/fx ] && fail "mount namespace: the tmpfs leaked into ours"
	resolves root $pid "$tmpdir/mnt/fx" "$tmpdir/mnt/fx" "a file only in its mount namespace"
	kill $pid
else
	echo "note: no root or no unshare -m: the mount namespace not checked as root"
fi
# as a user, in a user namespace: another file at the path in ours
if have setpriv && $nobody unshare -r -m true 2> /dev/null; then
	mkdir -p umnt
	cp "$SYMRES" umnt/fx
	start umntns $nobody unshare -r -m sh -c "mount -t tmpfs none '$tmpdir/umnt' &&
		cp '$FX' '$tmpdir/umnt/fx' && exec '$tmpdir/umnt/fx' wait"
	resolves nobody $pid "$tmpdir/umnt/fx" "$tmpdir/umnt/fx" "another file at its path in ours"
	kill $pid
else
	echo "note: no user namespaces for nobody: the replaced-by-namespace case not checked"
fi

# --- a JIT in its own pid namespace: /tmp/perf-1.map in its own /tmp -----
if have root && have perf_event && unshare -p -f -m --mount-proc true 2> /dev/null; then
	H="$top_builddir/tests/monitor/mon-helper"
	# unshare -f blocks TERM while it waits, and the helper is the
	# namespace's init, deaf to it too: KILL ends unshare, and
	# --kill-child the namespace with it, so nothing outlives the test.
	# The tmpfs hides all of our /tmp, the build tree too when it is
	# there: the helper is opened before and copied into the tmpfs.
	spawn_ready unshare --kill-child -p -f -m --mount-proc sh -c \
		"exec 3< '$H' && mount -t tmpfs none /tmp &&
		 cat <&3 > /tmp/mon-helper && chmod 755 /tmp/mon-helper &&
		 exec /tmp/mon-helper jit 600000 3<&-" ||
		fail "JIT in a pid namespace: the helper did not start"
	at_exit "kill -KILL $spawned 2>/dev/null"
	set -- $ready
	inner=$1
	jp=
	retry 5 sh -c "[ -n \"\$(cat /proc/$spawned/task/$spawned/children 2>/dev/null)\" ]"
	jp=$(cat /proc/$spawned/task/$spawned/children | awk '{ print $1 }')
	if [ -n "$jp" ] && [ "$inner" = 1 ]; then
		[ -e /tmp/perf-$jp.map ] && fail "a /tmp/perf-$jp.map in our /tmp"
		timeout -k 5 60 "$MONITOR" -u -F 2000 -n 40 --summary $jp > jit.out 2>&1
		grep -Eq '^ *[0-9]+ +[0-9.]+% +jitted_spin +\[jit\]' jit.out &&
			ok "JIT map of pid $jp (1 in its namespace) found in its /tmp" ||
			fail "JIT in a pid namespace: $(head -6 jit.out)"
	else
		fail "JIT in a pid namespace: pid '$jp', '$inner' inside"
	fi
	kill -KILL $spawned 2> /dev/null
else
	echo "note: no root, perf_event or unshare -p: the pid namespace not checked"
fi
done_testing
