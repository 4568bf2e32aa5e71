#!/bin/bash
# tests/kernel/run.sh - build Debian's Linux 6.1 with kernel-patches/, boot it
# under QEMU (TCG) with an initramfs of static test programs, and turn the
# guest's serial output into PASS/FAIL lines.  Exit status 0 only when every
# guest test passed.
#
#	tests/kernel/run.sh [x86_64|arm64]	(default x86_64)
#	tests/kernel/run.sh --cross-configure arm64
#				(PCTOOLS_BUILD's cross build, configured only)
#
# x86_64 boots qemu-system-x86_64's PC machine, which has no PMU under TCG;
# arm64 boots qemu-system-aarch64's "virt" machine with -cpu max, whose
# emulated Armv8 PMUv3 counts exactly under -icount shift=0: the guest's
# hardware-counter checks run there.  arm64 programs are cross-built
# (gcc-aarch64-linux-gnu) and linked statically, with Debian's arm64
# busybox-static and libdw (see guest_debs).
#
# The built kernel is cached outside the clone, keyed by the SHA-256 of the
# architecture, the series, the patches, the config fragments and the
# kernel source package version, so a rerun only rebuilds the initramfs and
# boots (seconds).
#
# Environment:
#   PCTOOLS_KCACHE        cache directory (default /var/cache/pctools-kernel,
#                         or ~/.cache/pctools-kernel when that is not writable)
#   PCTOOLS_KJOBS         make -j for the kernel build (default 2)
#   PCTOOLS_QEMU_TIMEOUT  seconds before QEMU is killed (default 300 for
#                         x86_64, 600 for arm64: a limit for a hang, not
#                         for speed; beside two busy loops at a load of
#                         9 to 17, the guests took up to 70 s and 51 s,
#                         16 s and 10 s on an idle host)
#   PCTOOLS_KEEP_TREE=1   keep the kernel build tree (tree-<arch> in the
#                         cache directory) and build the next series in it
#                         incrementally: the old patches are reverted, the
#                         new ones applied, and files whose contents did
#                         not change keep their times, so make rebuilds
#                         only what the change touches
#   PCTOOLS_BUILD         a configured pctools build: its programs go into
#                         the x86_64 guest; for arm64, a cross build is
#                         configured and made in its cross-arm64/, from
#                         the distributed sources copied (make distdir)
#                         into its cross-arm64-src/
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
patches=$top/kernel-patches
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=${PCTOOLS_KJOBS:-2}
# Bump when the way the kernel is built changes, to invalidate the cache.
recipe=2

log() { printf '%s\n' "run.sh ${arch:-}: $*" >&2; }
die() { log "$*"; exit 2; }

cross_only=
if [ "${1:-}" = --cross-configure ]; then
	cross_only=1
	shift
fi
arch=${1:-x86_64}
case $arch in
x86_64)
	cross=
	cross_pkgs=
	image=arch/x86/boot/bzImage
	qemu_pkgs=qemu-system-x86
	qemu_timeout=${PCTOOLS_QEMU_TIMEOUT:-300}
	;;
arm64)
	cross=aarch64-linux-gnu-
	image=arch/arm64/boot/Image
	cross_pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross
		    libstdc++-12-dev-arm64-cross"
	qemu_pkgs="qemu-system-arm $cross_pkgs"
	qemu_timeout=${PCTOOLS_QEMU_TIMEOUT:-600}
	;;
*)
	die "unknown architecture '$arch': give x86_64 or arm64"
	;;
esac
fragments="$here/pctools.config $here/pctools-$arch.config"
kmake() { make ARCH="$arch" CROSS_COMPILE="$cross" "$@"; }

# --- 1. packages ---------------------------------------------------------
pkgs="linux-source-6.1 $qemu_pkgs busybox-static flex bison bc
      libssl-dev libelf-dev cpio gcc make libc6-dev xz-utils"
if [ -n "$cross_only" ]; then
	[ -n "$cross" ] || die "--cross-configure: $arch is built natively"
	pkgs="$cross_pkgs make"
fi
# missing_pkgs: those of $pkgs not installed, in $missing.
missing_pkgs() {
	missing=
	for p in $pkgs; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || missing="$missing $p"
	done
}
missing_pkgs
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root or install them)"
	# `make check-kernel` runs both architectures at once, and apt takes
	# dpkg's lock: one run installs at a time, and the second looks again
	# once it has the lock.  apt waits for the lock held by others.
	lock=/run/lock/pctools-kernel-apt.lock
	[ -d /run/lock ] || lock=${TMPDIR:-/tmp}/pctools-kernel-apt.lock
	exec 9> "$lock" || die "cannot open $lock"
	flock 9 || die "cannot lock $lock"
	missing_pkgs
fi
if [ -n "$missing" ]; then
	log "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt_get=(apt-get -q -o DPkg::Lock::Timeout=600)
	# shellcheck disable=SC2086
	"${apt_get[@]}" install -y --no-install-recommends $missing >/dev/null ||
		{ "${apt_get[@]}" update >/dev/null &&
		  "${apt_get[@]}" install -y --no-install-recommends $missing >/dev/null; } ||
		die "apt-get install failed"
fi
exec 9>&-
[ -n "$cross_only" ] || [ -r "$tarball" ] || die "$tarball not found"

# --- 2. cache key ----------------------------------------------------------
[ -r "$patches/series" ] || die "$patches/series not found"
series=$(grep -v '^[[:space:]]*\(#\|$\)' "$patches/series")
key=$( {
	echo "recipe $recipe arch $arch"
	dpkg-query -W -f='${Version}\n' linux-source-6.1
	cat "$patches/series"
	for p in $series; do cat "$patches/$p"; done
	# shellcheck disable=SC2086
	cat $fragments
} | sha256sum | cut -c1-64)

kcache=${PCTOOLS_KCACHE:-/var/cache/pctools-kernel}
if ! mkdir -p "$kcache" 2>/dev/null || [ ! -w "$kcache" ]; then
	kcache=${XDG_CACHE_HOME:-$HOME/.cache}/pctools-kernel
	mkdir -p "$kcache"
fi
case "$kcache" in "$top"/*) die "PCTOOLS_KCACHE must be outside the clone";; esac
entry=$kcache/$key

# --- 2b. the guest's packages, the cross build (used in 4) --------------
# guest_debs DIR PKG...: Debian's packages PKG for the guest's
# architecture, unpacked into DIR (once).  They are fetched by apt-get
# download through package lists kept in the cache, so the host's dpkg and
# apt configuration are left alone.  For a cross build only: busybox-static
# and the static libraries that the tools link.
guest_debs() {
	local d=$1 apt=$kcache/apt-$arch f
	shift
	[ "$(cat "$d/.pctools-debs" 2>/dev/null)" = "$*" ] && return 0
	local opts=(-q -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
		-o "Dir::Cache=$apt/cache")
	mkdir -p "$apt/lists/partial" "$apt/cache"
	: > "$apt/status"
	log "fetching $arch packages: $*"
	apt-get "${opts[@]}" update >/dev/null 2>&1 ||
		die "apt-get update for $arch failed"
	rm -rf "$apt/debs"
	mkdir -p "$apt/debs"
	(cd "$apt/debs" && apt-get "${opts[@]}" download "$@") >/dev/null 2>&1 ||
		die "cannot download the $arch packages $*"
	rm -rf "$d.new"
	mkdir -p "$d.new"
	for f in "$apt"/debs/*.deb; do dpkg-deb -x "$f" "$d.new"; done
	echo "$*" > "$d.new/.pctools-debs"
	rm -rf "$d"
	mv "$d.new" "$d"
}
# cross_src BUILD DIR: BUILD's distributed sources copied into DIR (make
# distdir), which the cross build configures from: configure refuses to
# build beside a source tree configured in place (./configure in the
# top, the classic way).  The copies keep their times, so that an
# unchanged file is not rebuilt.
cross_src() {
	log "copying the distributed sources into $2"
	make -s -C "$1" distdir distdir="$2" > "$2.log" 2>&1 ||
		{ tail -20 "$2.log" >&2; die "make distdir failed (log: $2.log)"; }
}
# cross_configure SRCDIR DIR: configure a --host build in DIR of the
# guest programs, every one linked statically, libdw and its compression
# libraries, and ncurses (for kerneltop, whose -b needs no terminal), from
# Debian's packages for the guest (guest_debs).  Once: again when SRCDIR,
# the sysroot's packages or the arguments changed.
cross_configure() {
	local src=$1 dir=$2 host=${cross%-} sysroot=$kcache/sysroot-$arch libs
	guest_debs "$sysroot" libdw-dev libelf-dev zlib1g-dev liblzma-dev \
		libbz2-dev libzstd-dev libtraceevent-dev libncurses-dev
	libs="-L$sysroot/usr/lib/$host -ldw -lelf -lz -llzma -lbz2 -lzstd -lpthread"
	local args=(--host="$host" --disable-shared
		--with-ncursesw --without-libunwind --without-debuginfod
		--without-protobuf-c --without-llvm
		NCURSESW_CFLAGS="-I$sysroot/usr/include -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600"
		NCURSESW_LIBS="-L$sysroot/usr/lib/$host -lncursesw -ltinfo"
		LIBDW_CFLAGS="-I$sysroot/usr/include" LIBDW_LIBS="$libs"
		LIBELF_CFLAGS="-I$sysroot/usr/include" LIBELF_LIBS="$libs"
		TRACEEVENT_CFLAGS="-I$sysroot/usr/include -I$sysroot/usr/include/traceevent"
		TRACEEVENT_LIBS="-L$sysroot/usr/lib/$host -ltraceevent -ldl")
	# what the configure depends on: the sources, the sysroot's
	# packages, the arguments
	local stamp="$src $(cat "$sysroot/.pctools-debs") ${args[*]}"
	mkdir -p "$dir"
	if [ -f "$dir/Makefile" ] &&
	   [ "$(cat "$dir/.pctools-configured" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	log "configuring a $host build in $dir"
	(cd "$dir" && "$src/configure" "${args[@]}" > configure.log 2>&1) ||
		{ tail -20 "$dir/configure.log" >&2; die "cross configure failed"; }
	echo "$stamp" > "$dir/.pctools-configured"
}
# cross_build DIR: make the guest programs in the configured DIR.
cross_build() {
	log "building the ${cross%-} guest programs"
	# shellcheck disable=SC2086
	nice -n 5 make -C "$1" -j"$jobs" LDFLAGS=-all-static $guest_programs \
		> "$1/make.log" 2>&1 ||
		{ tail -20 "$1/make.log" >&2; die "cross build failed (log: $1/make.log)"; }
}
# run.sh --cross-configure arm64: the cross build's copy of the sources
# and its configure only, for tests/kernel/inplace.sh: no kernel, no boot.
if [ -n "$cross_only" ]; then
	build=${PCTOOLS_BUILD:-}
	[ -n "$build" ] && [ -d "$build" ] ||
		die "--cross-configure: give PCTOOLS_BUILD, a configured pctools build"
	build=$(cd "$build" && pwd)
	cross_src "$build" "$build/cross-$arch-src"
	cross_configure "$build/cross-$arch-src" "$build/cross-$arch"
	log "configured the ${cross%-} build in $build/cross-$arch"
	exit 0
fi

# --- 3. kernel (cached) ----------------------------------------------------
# patched_files PATCH...: the files the patches write, one a line.
patched_files() {
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@" | sort -u
}

# update_tree TREE: turn a kept tree's series (copied in TREE/.pctools)
# into the current one.  Files whose contents end up as they were keep
# their times, so that make does not rebuild what includes them.  1 when
# the tree cannot be updated (a fresh one is then extracted).
update_tree() {
	local tree=$1 saved=$1/.pctools f p old_series
	[ -r "$saved/series" ] && [ -r "$saved/config" ] || return 1
	old_series=$(cat "$saved/series")
	# contents and times of everything either series touches
	rm -f "$saved/stamps"
	# shellcheck disable=SC2086
	for f in $( (cd "$saved" && patched_files $old_series);
		    (cd "$patches" && patched_files $series) ); do
		[ -e "$tree/$f" ] &&
			printf '%s %s %s\n' "$(sha256sum < "$tree/$f" | cut -c1-64)" \
				"$(stat -c %Y "$tree/$f")" "$f"
	done | sort -u -k3 > "$saved/stamps"
	for p in $(printf '%s\n' $old_series | tac); do
		patch -d "$tree" -p1 -R --batch -s < "$saved/$p" || return 1
	done
	for p in $series; do
		patch -d "$tree" -p1 --batch --forward -s < "$patches/$p" || return 1
	done
	while read -r sum t f; do
		[ -e "$tree/$f" ] &&
			[ "$(sha256sum < "$tree/$f" | cut -c1-64)" = "$sum" ] &&
			touch -d "@$t" "$tree/$f"
	done < "$saved/stamps"
	return 0
}

build_kernel() {
	local tree=$entry.build t0=$SECONDS p o
	if [ "${PCTOOLS_KEEP_TREE:-0}" = 1 ]; then
		tree=$kcache/tree-$arch
		if [ -d "$tree" ] && update_tree "$tree"; then
			log "updated the kept tree $tree"
		else
			rm -rf "$tree"
		fi
	else
		rm -rf "$tree"
	fi
	if [ ! -d "$tree" ]; then
		mkdir -p "$tree"
		log "extracting $(basename "$tarball")"
		tar -xJf "$tarball" -C "$tree" --strip-components=1
		for p in $series; do
			log "applying $p"
			patch -d "$tree" -p1 --batch --forward -s < "$patches/$p" ||
				die "$p does not apply"
		done
	fi
	# The tree's series, for update_tree; written before the build so
	# that a failed build still knows what is applied.
	rm -rf "$tree/.pctools"
	mkdir -p "$tree/.pctools"
	for p in $series; do cp "$patches/$p" "$tree/.pctools/"; done
	echo "$series" > "$tree/.pctools/series"
	# shellcheck disable=SC2086
	cat $fragments > "$tree/.pctools/fragments"
	if ! cmp -s "$tree/.pctools/fragments" "$tree/.pctools/config" 2>/dev/null ||
	   [ ! -r "$tree/.config" ]; then
		(
			cd "$tree"
			kmake -s tinyconfig
			# shellcheck disable=SC2086
			scripts/kconfig/merge_config.sh -m -O . .config $fragments >/dev/null
			kmake -s olddefconfig
		) > "$tree/config.log" 2>&1 || { cat "$tree/config.log" >&2; die "config failed"; }
		# Every =y in the fragments must have survived olddefconfig,
		# and nothing they turn off may have come back.
		# shellcheck disable=SC2086
		for o in $(grep -ho '^CONFIG_[A-Za-z0-9_]*=y' $fragments); do
			grep -qx "$o" "$tree/.config" || die "config: $o did not stick"
		done
		# shellcheck disable=SC2086
		for o in $(sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' $fragments); do
			if grep -q "^$o=" "$tree/.config"; then
				die "config: $o came back on"
			fi
		done
		cp "$tree/.pctools/fragments" "$tree/.pctools/config"
	fi
	log "building $(basename "$image") for $arch (make -j$jobs, a few minutes)"
	if ! kmake -C "$tree" -j"$jobs" "$(basename "$image")" > "$tree/build.log" 2>&1; then
		tail -40 "$tree/build.log" >&2
		die "kernel build failed (log: $tree/build.log)"
	fi
	gcc -O2 -o "$tree/gen_init_cpio" "$tree/usr/gen_init_cpio.c"
	rm -rf "$entry.new"
	mkdir -p "$entry.new"
	cp "$tree/$image" "$entry.new/kernel"
	cp "$tree/.config" "$tree/build.log" "$tree/gen_init_cpio" "$entry.new/"
	mv "$entry.new" "$entry"
	if [ "${PCTOOLS_KEEP_TREE:-0}" != 1 ]; then rm -rf "$tree"; fi
	log "kernel built in $((SECONDS - t0)) s, cached in $entry"
}

# One build of an architecture at a time (make check-kernel runs both).
exec 9>"$kcache/.lock-$arch"
flock 9
if [ -r "$entry/kernel" ]; then
	log "cached $arch kernel $entry"
else
	build_kernel
fi
flock -u 9

# --- 4. initramfs ------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/pctools-kernel.XXXXXX")
trap 'rm -rf "$work"' EXIT

busybox=/bin/busybox
if [ -n "$cross" ]; then
	guest_debs "$kcache/busybox-$arch" busybox-static
	busybox=$kcache/busybox-$arch/bin/busybox
fi

list=$work/initramfs.list
cat > "$list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
dir /bin 0755 0 0
file /bin/busybox $busybox 0755 0 0
file /init $here/guest/init 0755 0 0
EOF
# The guest test program: guest/pctest*.c, linked statically.
"${cross}gcc" -static -O2 -g -Wall -Wextra -Werror -I"$top/include" \
	-o "$work/pctest" "$here"/guest/pctest*.c || die "cannot build guest/pctest"
echo "file /bin/pctest $work/pctest 0755 0 0" >> "$list"
# guest/loop.S: a workload of exactly known instruction counts.
"${cross}gcc" -nostdlib -static -o "$work/loop" "$here/guest/loop.S" ||
	die "cannot build guest/loop"
echo "file /bin/loop $work/loop 0755 0 0" >> "$list"

# The project's own programs, from a configured build (make check-kernel
# passes it): libsysapi's tests and the tools, run on the legacy backend
# by guest/tools.sh.  Dynamic programs travel with their libraries.
build=${PCTOOLS_BUILD:-}
declare -A have_dir=() have_file=()
add_dir() {
	local d=$1
	[ "$d" = / ] || [ -n "${have_dir[$d]:-}" ] && return 0
	add_dir "$(dirname "$d")"
	have_dir[$d]=1
	echo "dir $d 0755 0 0" >> "$list"
}
add_file() {	# add_file GUEST-PATH HOST-FILE [MODE]
	[ -n "${have_file[$1]:-}" ] && return 0
	have_file[$1]=1
	add_dir "$(dirname "$1")"
	echo "file $1 $(readlink -f "$2") ${3:-0755} 0 0" >> "$list"
}
# real_elf FILE: the ELF behind a libtool wrapper script.
real_elf() {
	if [ "$(head -c4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; then
		echo "$1"
	else
		echo "$(dirname "$1")/.libs/$(basename "$1")"
	fi
}
add_program() {	# add_program BUILD-RELATIVE-PATH
	local f lib
	f=$(real_elf "$build/$1")
	[ -x "$f" ] || { log "no $1 in $build: skipped"; return 0; }
	add_file "/bin/$(basename "$1")" "$f"
	# and where the test suite's scripts look ($top_builddir/...)
	add_file "/pctools/$1" "$f"
	[ -n "$cross" ] && return 0	# linked statically
	for lib in $(ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		add_file "$lib" "$lib"
	done
}
guest_programs="tests/sysapi/test-legacy tests/sysapi/test-count pcstat monitor
	kerneltop tests/helpers/spin tests/helpers/touch-pages tests/helpers/can-perf"
if [ -n "$build" ] && [ -d "$build" ]; then
	build=$(cd "$build" && pwd)
	if [ -n "$cross" ]; then
		# the sysroot is shared by every tree's runs: one cross
		# build at a time, so that a run that needs other packages
		# does not replace it under another's link
		exec 8>"$kcache/.lock-sysroot-$arch"
		flock 8
		cross_src "$build" "$build/cross-$arch-src"
		cross_configure "$build/cross-$arch-src" "$build/cross-$arch"
		build=$build/cross-$arch
		cross_build "$build"
		flock -u 8
	fi
	for p in $guest_programs; do
		add_program "$p"
	done
	for lib in "$build"/.libs/libsysapi.so*; do
		[ -e "$lib" ] && add_file "/lib/pctools/$(basename "$lib")" "$lib"
	done
	add_file /bin/tools.sh "$here/guest/tools.sh"
	# the suite's tests that need a PMU, run by tools.sh where one is
	for f in tests/test-subr.sh tests/pcstat/multiplex.sh; do
		add_file "/pctools/$f" "$top/$f"
	done
fi
"$entry/gen_init_cpio" "$list" > "$work/initramfs.cpio"

# --- 5. boot -------------------------------------------------------------------
serial=$work/serial.log
case $arch in
x86_64)
	# Two CPUs, which the kernel finds in SeaBIOS's MP table (it has
	# no ACPI), as two sockets: the table has one entry a socket, the
	# cores of a socket are ACPI's to list.  /init checks both came up.
	smp=2
	qemu=(qemu-system-x86_64 -accel tcg -m 512
	      -smp $smp,sockets=$smp,cores=1,threads=1)
	console=ttyS0
	;;
arm64)
	# -icount shift=0: one instruction a virtual ns, so the emulated
	# PMU's instructions event exists and counts exactly; sleep=off
	# keeps idle time from stretching the virtual clock.  One CPU:
	# icount runs CPUs one after the other on one clock, so a second
	# one would add its instructions to the cycles of the first.
	smp=1
	qemu=(qemu-system-aarch64 -M virt -cpu max -accel tcg
	      -icount shift=0,sleep=off -m 512 -smp $smp)
	console=ttyAMA0
	;;
esac
log "booting the $arch guest under QEMU (TCG, timeout ${qemu_timeout}s)"
t0=$SECONDS
set +e
# Each line of the serial log is stamped with the host's seconds since
# the boot began: where a guest ran out of time shows in the log kept.
timeout "$qemu_timeout" "${qemu[@]}" \
	-nographic -no-reboot -kernel "$entry/kernel" \
	-initrd "$work/initramfs.cpio" \
	-append "console=$console panic=-1 quiet pctools.cpus=$smp" \
	< /dev/null 2>&1 |
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%4d %s\n' $((SECONDS - t0)) "${line%$'\r'}"
	done > "$serial"
qrc=${PIPESTATUS[0]}
set -e
log "QEMU exited with $qrc after $((SECONDS - t0)) s$(awk '
	$2 == "PCTEST" && ($3 == "BOOTED" || $3 == "SUMMARY" || $3 == "DONE") {
		printf ", %s at %d s", tolower($3), $1 }' "$serial")"

# --- 6. results ------------------------------------------------------------------
sed 's/^ *[0-9]* //' "$serial" > "$work/clean.log"
fails=0
while IFS= read -r line; do
	case "$line" in
	"PCTEST PASS "*) echo "PASS $arch/${line#PCTEST PASS }" ;;
	"PCTEST FAIL "*) echo "FAIL $arch/${line#PCTEST FAIL }"; fails=$((fails + 1)) ;;
	"# "*) echo "$line" ;;
	esac
done < "$work/clean.log"

if grep -q '^PCTEST SUMMARY ' "$work/clean.log" &&
   grep -qx 'PCTEST DONE' "$work/clean.log"; then
	echo "PASS $arch/guest-completed"
else
	echo "FAIL $arch/guest-completed: pctest or /init did not finish (QEMU status $qrc); serial log:"
	tail -60 "$work/clean.log" | sed 's/^/| /'
	fails=$((fails + 1))
fi
if [ "$qrc" -ne 0 ]; then
	echo "FAIL $arch/qemu-exit: status $qrc"
	fails=$((fails + 1))
fi
if [ "$fails" -ne 0 ]; then
	cp "$serial" "$kcache/last-serial-$arch.log" 2>/dev/null &&
		log "serial log kept in $kcache/last-serial-$arch.log"
	log "$fails failure(s)"
	exit 1
fi
log "all $arch guest tests passed"
