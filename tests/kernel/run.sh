#!/bin/bash
# tests/kernel/run.sh - build Debian's Linux 6.1 with kernel-patches/, boot it
# under QEMU (TCG) with an initramfs of static test programs, and turn the
# guest's serial output into PASS/FAIL lines.  Exit status 0 only when every
# guest test passed.
#
# The built kernel is cached outside the clone, keyed by the SHA-256 of the
# series, the patches, the config fragment and the kernel source package
# version, so a rerun only rebuilds the initramfs and boots (seconds).
#
# Environment:
#   PCTOOLS_KCACHE        cache directory (default /var/cache/pctools-kernel,
#                         or ~/.cache/pctools-kernel when that is not writable)
#   PCTOOLS_KJOBS         make -j for the kernel build (default 2)
#   PCTOOLS_QEMU_TIMEOUT  seconds before QEMU is killed (default 120)
#   PCTOOLS_KEEP_TREE=1   keep the kernel build tree next to the cache entry
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
patches=$top/kernel-patches
fragment=$here/pctools.config
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=${PCTOOLS_KJOBS:-2}
qemu_timeout=${PCTOOLS_QEMU_TIMEOUT:-120}
# Bump when the way the kernel is built changes, to invalidate the cache.
recipe=1

log() { printf '%s\n' "run.sh: $*" >&2; }
die() { log "$*"; exit 2; }

# --- 1. packages ---------------------------------------------------------
pkgs="linux-source-6.1 qemu-system-x86 busybox-static flex bison bc
      libssl-dev libelf-dev cpio gcc make libc6-dev xz-utils"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root or install them)"
	log "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	apt-get install -y -q $missing >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null; } ||
		die "apt-get install failed"
fi
[ -r "$tarball" ] || die "$tarball not found"

# --- 2. cache key ----------------------------------------------------------
[ -r "$patches/series" ] || die "$patches/series not found"
series=$(grep -v '^[[:space:]]*\(#\|$\)' "$patches/series")
key=$( {
	echo "recipe $recipe"
	dpkg-query -W -f='${Version}\n' linux-source-6.1
	cat "$patches/series"
	for p in $series; do cat "$patches/$p"; done
	cat "$fragment"
} | sha256sum | cut -c1-64)

kcache=${PCTOOLS_KCACHE:-/var/cache/pctools-kernel}
if ! mkdir -p "$kcache" 2>/dev/null || [ ! -w "$kcache" ]; then
	kcache=${XDG_CACHE_HOME:-$HOME/.cache}/pctools-kernel
	mkdir -p "$kcache"
fi
case "$kcache" in "$top"/*) die "PCTOOLS_KCACHE must be outside the clone";; esac
entry=$kcache/$key

# --- 3. kernel (cached) ----------------------------------------------------
build_kernel() {
	local tree=$entry.build t0=$SECONDS
	rm -rf "$tree"
	mkdir -p "$tree"
	log "extracting $(basename "$tarball")"
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	for p in $series; do
		log "applying $p"
		patch -d "$tree" -p1 --batch --forward -s < "$patches/$p" ||
			die "$p does not apply"
	done
	(
		cd "$tree"
		make -s ARCH=x86_64 tinyconfig
		scripts/kconfig/merge_config.sh -m -O . .config "$fragment" >/dev/null
		make -s ARCH=x86_64 olddefconfig
	) > "$tree/config.log" 2>&1 || { cat "$tree/config.log" >&2; die "config failed"; }
	# Every =y in the fragment must have survived olddefconfig.
	local o
	for o in $(grep -o '^CONFIG_[A-Za-z0-9_]*=y' "$fragment"); do
		grep -qx "$o" "$tree/.config" || die "config: $o did not stick"
	done
	log "building bzImage (make -j$jobs, a few minutes)"
	if ! make -C "$tree" ARCH=x86_64 -j"$jobs" bzImage > "$tree/build.log" 2>&1; then
		tail -40 "$tree/build.log" >&2
		die "kernel build failed (log: $tree/build.log)"
	fi
	gcc -O2 -o "$tree/gen_init_cpio" "$tree/usr/gen_init_cpio.c"
	rm -rf "$entry.new"
	mkdir -p "$entry.new"
	cp "$tree/arch/x86/boot/bzImage" "$tree/.config" "$tree/build.log" \
		"$tree/gen_init_cpio" "$entry.new/"
	mv "$entry.new" "$entry"
	if [ "${PCTOOLS_KEEP_TREE:-0}" != 1 ]; then rm -rf "$tree"; fi
	log "kernel built in $((SECONDS - t0)) s, cached in $entry"
}

exec 9>"$kcache/.lock"
flock 9
if [ -r "$entry/bzImage" ]; then
	log "cached kernel $entry"
else
	build_kernel
fi
flock -u 9

# --- 4. initramfs ------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/pctools-kernel.XXXXXX")
trap 'rm -rf "$work"' EXIT

list=$work/initramfs.list
cat > "$list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
dir /bin 0755 0 0
file /bin/busybox /bin/busybox 0755 0 0
file /init $here/guest/init 0755 0 0
EOF
# The guest test program: guest/pctest*.c, linked statically.
gcc -static -O2 -g -Wall -Wextra -Werror -I"$top/include" \
	-o "$work/pctest" "$here"/guest/pctest*.c || die "cannot build guest/pctest"
echo "file /bin/pctest $work/pctest 0755 0 0" >> "$list"

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
add_file() {	# add_file GUEST-PATH HOST-FILE
	[ -n "${have_file[$1]:-}" ] && return 0
	have_file[$1]=1
	add_dir "$(dirname "$1")"
	echo "file $1 $(readlink -f "$2") 0755 0 0" >> "$list"
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
	for lib in $(ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		add_file "$lib" "$lib"
	done
}
if [ -n "$build" ] && [ -d "$build" ]; then
	build=$(cd "$build" && pwd)
	for p in tests/sysapi/test-legacy tests/sysapi/test-count pcstat monitor \
		 tests/helpers/spin tests/helpers/touch-pages; do
		add_program "$p"
	done
	for lib in "$build"/.libs/libsysapi.so*; do
		[ -e "$lib" ] && add_file "/lib/pctools/$(basename "$lib")" "$lib"
	done
	add_file /bin/tools.sh "$here/guest/tools.sh"
fi
"$entry/gen_init_cpio" "$list" > "$work/initramfs.cpio"

# --- 5. boot -------------------------------------------------------------------
serial=$work/serial.log
log "booting under QEMU (TCG, timeout ${qemu_timeout}s)"
t0=$SECONDS
set +e
timeout "$qemu_timeout" qemu-system-x86_64 -accel tcg -m 512 -smp 2 \
	-nographic -no-reboot -kernel "$entry/bzImage" \
	-initrd "$work/initramfs.cpio" \
	-append 'console=ttyS0 panic=-1 quiet' < /dev/null > "$serial" 2>&1
qrc=$?
set -e
log "QEMU exited with $qrc after $((SECONDS - t0)) s"

# --- 6. results ------------------------------------------------------------------
tr -d '\r' < "$serial" > "$work/clean.log"
fails=0
while IFS= read -r line; do
	case "$line" in
	"PCTEST PASS "*) echo "PASS ${line#PCTEST PASS }" ;;
	"PCTEST FAIL "*) echo "FAIL ${line#PCTEST FAIL }"; fails=$((fails + 1)) ;;
	"# "*) echo "$line" ;;
	esac
done < "$work/clean.log"

if grep -q '^PCTEST SUMMARY ' "$work/clean.log" &&
   grep -qx 'PCTEST DONE' "$work/clean.log"; then
	echo "PASS guest-completed"
else
	echo "FAIL guest-completed: pctest or /init did not finish (QEMU status $qrc); serial log:"
	tail -60 "$work/clean.log" | sed 's/^/| /'
	fails=$((fails + 1))
fi
if [ "$qrc" -ne 0 ]; then
	echo "FAIL qemu-exit: status $qrc"
	fails=$((fails + 1))
fi
if [ "$fails" -ne 0 ]; then
	cp "$serial" "$kcache/last-serial.log" 2>/dev/null &&
		log "serial log kept in $kcache/last-serial.log"
	log "$fails failure(s)"
	exit 1
fi
log "all guest tests passed"
