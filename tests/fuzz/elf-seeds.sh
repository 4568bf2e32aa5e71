#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# elf-seeds.sh - build the fuzz-elf target's seed files from seed-elf.c:
# small real ELF files, with and without DWARF, .symtab, .dynsym,
# .eh_frame_hdr or .debug_frame, and a build-id.  Run from tests/fuzz;
# the results are committed in corpus/elf (CC=gcc unless set).
set -eu
cc=${CC:-gcc}
out=corpus/elf
base="-Os -nostdlib -fno-stack-protector -Wl,--build-id -Wl,-e,seed_entry
	-Wl,-z,noseparate-code -Wl,-z,max-page-size=0x1000 -Wl,-z,norelro"
mkdir -p "$out"
build() {
	name=$1
	shift
	# shellcheck disable=SC2086
	$cc $base "$@" -o "$out/$name" seed-elf.c
}
build exec-dwarf5 -static -g -gdwarf-5
build exec-dwarf4 -static -g -gdwarf-4
build exec-nodebug -static
build exec-debug-frame -static -g -fno-asynchronous-unwind-tables
build shared-dwarf -shared -fPIC -g
build shared-nodebug -shared -fPIC
cp "$out/exec-nodebug" "$out/exec-stripped"
strip "$out/exec-stripped"
cp "$out/shared-nodebug" "$out/shared-stripped"
strip "$out/shared-stripped"
# the debug info apart, as distributions ship it
objcopy --only-keep-debug "$out/exec-dwarf5" "$out/debug-only"
chmod 644 "$out"/*
