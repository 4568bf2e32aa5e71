#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# seeds.py - write the hand-made seed inputs of the text and ring fuzz
# targets into tests/fuzz/corpus/ (the ELF seeds come from elf-seeds.sh).
# Run from tests/fuzz; re-running rewrites the same files.
import struct


def w(t, name, data):
    if isinstance(data, str):
        data = data.encode()
    with open(f'corpus/{t}/{name}', 'wb') as f:
        f.write(data)


EVENTS = [
    "cycles", "cycles:u,instructions:k", "{cycles,instructions}:k,cache-misses",
    "L1-dcache-load-misses,dTLB-loads:uk", "r1c2:ppp",
    "task-clock,cs,faults:G,migrations:H",
    "cpu/event=0x3c,umask=0x0/", "cpu/event=0xc0,umask=0x1,edge,cmask=2/u",
    "cpu/split=0x5a/", "cpu/mem-loads,ldlat=30/",
    "cpu/config=0x1234,config1=7,config2=9/", "cpu/event=0x3c,name=mine/:u",
    "msr/tsc/,msr/aperf/", "software/cpu-clock/", "cpu-clock/period=1000/",
    "cpu/loop/", "cpu/bad=1/", "cpu/wide=0xffffffffffffffff/", "notype/event=1/",
    "sched:sched_switch", "sched:*", "syscalls:sys_enter_*:u",
    "sched:sched_w?keup,{sched:sched_switch,cycles}", "*:*", "noid:event",
    "bad:event", "sys:event:k", "{a,b", "a,,b", "{cycles}:q", "cycles:uuuu",
    "duration_time,user_time,system_time", "cylces",
    "{msr/tsc/,cycles}:u,sched:[a-s]*",
]

# ring records (linux/perf_event.h)
IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU = 1, 2, 4, 8, 16, 32, 64, 128
PERIOD, STREAM, RAW = 256, 512, 1024
REGS, STACK, IDENT = 1 << 12, 1 << 13, 1 << 16
BASE = IP | TID | TIME | CPU | PERIOD
CTX_K, CTX_U = (1 << 64) - 128, (1 << 64) - 512


def pad(b):
    return b + b'\0' * (-len(b) % 8)


def rec(typ, misc, body):
    body = pad(body)
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body


def sid(pid=42, tid=42):
    """sample_id trailer of BASE: tid, time, cpu"""
    return struct.pack('<IIQII', pid, tid, 1000, 0, 0)


def mmap2(pid, addr, ln, name, buildid=None, trailer=True):
    b = struct.pack('<IIQQQ', pid, pid, addr, ln, 0)
    if buildid:
        b += bytes([len(buildid), 0, 0, 0]) + buildid.ljust(20, b'\0')
    else:
        b += struct.pack('<IIQQ', 8, 1, 1234, 0)
    b = pad(b + struct.pack('<II', 5, 2) + name.encode() + b'\0')
    return rec(10, 2 | (0x4000 if buildid else 0), b + (sid(pid, pid) if trailer else b''))


def comm(pid, tid, name, trailer=True):
    b = pad(struct.pack('<II', pid, tid) + name.encode() + b'\0')
    return rec(3, 2 | 0x2000, b + (sid(pid, tid) if trailer else b''))


def task(t, pid, ppid):
    return rec(t, 0, struct.pack('<IIIIQ', pid, ppid, pid, ppid, 5) + sid(pid, pid))


def lost(n):
    return rec(2, 0, struct.pack('<QQ', 1, n) + sid())


def throttle(t):
    return rec(t, 0, struct.pack('<QQQ', 7, 1, 1) + sid())


def sample(st, ip, misc=2, chain=(), regs=None, stack=None, ident=100):
    b = b''
    if st & IDENT:
        b += struct.pack('<Q', ident)
    if st & IP:
        b += struct.pack('<Q', ip)
    if st & TID:
        b += struct.pack('<II', 42, 42)
    if st & TIME:
        b += struct.pack('<Q', 2000)
    if st & ADDR:
        b += struct.pack('<Q', 0)
    if st & ID:
        b += struct.pack('<Q', ident)
    if st & STREAM:
        b += struct.pack('<Q', 0)
    if st & CPU:
        b += struct.pack('<II', 1, 0)
    if st & PERIOD:
        b += struct.pack('<Q', 1000)
    if st & CALLCHAIN:
        b += struct.pack('<Q', len(chain)) + b''.join(struct.pack('<Q', c) for c in chain)
    if st & RAW:
        b += struct.pack('<I', 4) + b'abcd'
    if st & REGS:
        b += struct.pack('<Q', 0 if regs is None else 2)
        b += b''.join(struct.pack('<Q', r) for r in regs or ())
    if st & STACK:
        if stack is None:
            b += struct.pack('<Q', 0)
        else:
            b += struct.pack('<Q', len(stack)) + stack + struct.pack('<Q', len(stack))
    return rec(9, misc, b)


def ring(st, flags, slot, recs):
    return struct.pack('<QBB', st, flags, slot) + b''.join(recs)


SIDE = [comm(42, 42, 'target'), mmap2(42, 0x400000, 0x2000, '/nonexistent/bin/x'),
        mmap2(42, 0x7fff00000000, 0x2000, '[vdso]'),
        mmap2(42, 0x7f0000000000, 0x100000, '//anon'),
        mmap2(42, 0x500000, 0x1000, '/nonexistent/lib.so', buildid=b'\xab' * 20),
        task(7, 43, 42), task(4, 43, 42)]
SAMPLES = [sample(BASE, 0x400100), sample(BASE, 0xffffffff81001010, misc=1),
           sample(BASE, 0x7f0000001010), sample(BASE, 0x7fff00000400),
           sample(BASE, 0x123, misc=3), sample(BASE, 0x123, misc=4)]

MAPS = """00400000-00452000 r-xp 00000000 08:02 173521      /nonexistent/usr/bin/dbus-daemon
00651000-00652000 r--p 00051000 08:02 173521      /nonexistent/usr/bin/dbus-daemon
7f2d1c000000-7f2d1c021000 rw-p 00000000 00:00 0
7f2d20000000-7f2d20100000 rwxp 00000000 00:00 0                          [anon:jit]
7f2d24a6f000-7f2d24c0d000 r-xp 00000000 08:02 135522     /nonexistent/lib/libc-2.31.so (deleted)
7f2d24c0d000-7f2d24e0d000 ---p 0019e000 08:02 135522     /nonexistent/lib/libc-2.31.so
7ffd6b1f9000-7ffd6b1fb000 r-xp 00000000 00:00 0                          [vdso]
7ffd6b1fb000-7ffd6b1fc000 r-xp 00000000 00:00 0                          //anon
ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
"""

KALLSYMS = """0000000000000000 A fixed_percpu_data
ffffffff81000000 T _stext
ffffffff81000000 T startup_64
ffffffff81001000 t do_one_initcall
ffffffff81002000 W weak_fn
ffffffff81003000 d some_data
ffffffff81004000 T schedule
ffffffffc0a01000 t ext4_read\t[ext4]
ffffffffc0a02000 t ext4_write\t[ext4]
ffffffffc0b00000 t xfs_fn\t[xfs]
ffffffffc0a00000 t ext4_init\t[ext4]
"""

PERFMAP = ("7f0000001000 100 jitted_one\n7f0000001100 80 LazyCompile:*foo /x.js:1\n"
           "7f0000000800 400 overlapping\n0 10 zero\nffffffffffffff00 ff top\n")


def main():
    for i, e in enumerate(EVENTS):
        w('events', f'seed-{i:02d}', e)
    w('ring', 'seed-basic', ring(BASE, 1, 0, SIDE + SAMPLES +
                                  [lost(3), throttle(5), throttle(6), task(4, 42, 1)]))
    w('ring', 'seed-wrap', ring(BASE, 1, 200, SIDE + SAMPLES))
    cc = BASE | CALLCHAIN
    w('ring', 'seed-fp', ring(cc, 1 | 2, 0, SIDE + [sample(
        cc, 0xffffffff81001010, misc=1,
        chain=[CTX_K, 0xffffffff81001010, 0xffffffff81002020, CTX_U,
               0x400100, 0x7f0000001010, 0x400200])]))
    ds = BASE | CALLCHAIN | REGS | STACK
    # x86-64's user registers in mask order (unwind_regs_mask(): all but
    # the segment registers): ax bx cx dx si di bp sp ip flags cs ss r8-r15
    regs = [0] * 20
    regs[6] = regs[7] = 0x7ffc00001000      # bp, sp
    regs[8] = 0x7fff00000400                # ip, in the vDSO
    stack = b''.join(struct.pack('<Q', 0x7ffc00001000 + 16 * i) +
                     struct.pack('<Q', 0x7fff00000500 + i) for i in range(16))
    jit = list(regs)
    jit[8] = 0x7f0000001010                 # ip, in the JIT's code
    w('ring', 'seed-dwarf', ring(ds, 1 | 4, 0, SIDE + [
        sample(ds, 0x7fff00000400, chain=[CTX_U, 0x7fff00000400], regs=regs,
               stack=stack),
        sample(ds, 0x7f0000001010, chain=[CTX_U, 0x7f0000001010], regs=jit,
               stack=stack[:64]),
        sample(ds, 0xffffffff81001010, misc=1,
               chain=[CTX_K, 0xffffffff81001010, CTX_U, 0x400100],
               regs=regs, stack=stack)]))
    two = BASE | IDENT
    w('ring', 'seed-two', ring(two, 1 | 16, 0, SIDE + [
        sample(two, 0x400100, ident=100), sample(two, 0x400100, ident=200),
        sample(two, 0x400100, ident=999)]))
    w('ring', 'seed-noid', ring(BASE, 0, 0, [
        comm(42, 42, 'x', trailer=False),
        mmap2(42, 0x400000, 0x1000, '/nonexistent/y', trailer=False),
        sample(BASE, 0x400010)]))
    other = BASE | RAW | ADDR | ID | STREAM
    w('ring', 'seed-other', ring(other, 9, 0, SIDE + [sample(other, 0x400100),
                                                       rec(99, 0, b'12345678')]))
    w('ring', 'seed-garbage', ring(BASE, 1, 0, [sample(BASE, 1),
                                                 struct.pack('<IHH', 9, 0, 12) + b'xxxx']))

    w('maps', 'seed-proc', MAPS)
    w('maps', 'seed-short', "00400000-00401000 r-xp 00000000 00:00 0 \n1-0 r-xp 0 0:0 0 x\n")
    w('maps', 'seed-spaces',
      "7f0000000000-7f0000001000 r-xp 00001000 fd:01 42 /nonexistent/dir with spaces/lib.so\n"
      "0-ffffffffffffffff r-xp ffffffffffffffff ff:ff 18446744073709551615 \n")

    w('kallsyms', 'seed-kernel', KALLSYMS)
    w('kallsyms', 'seed-hidden', "0000000000000000 T _stext\n0000000000000000 T schedule\n")
    w('kallsyms', 'seed-nonl', "ffffffff81000000 T a\nffffffff81000010 t b\t[m]")

    # perfmap: first byte = where the file is cut for the first round
    w('perfmap', 'seed-v8', b'\x80' + PERFMAP.encode())
    w('perfmap', 'seed-cut', b'\x20' + PERFMAP.encode())
    w('perfmap', 'seed-partial', b'\xf0' + b"7f0000002000 20 half_written_no_newline")
    w('perfmap', 'seed-long', b'\x40' + b"7f0000003000 10 " + b"x" * 5000 +
      b"\n7f0000004000 10 after_long\n")


main()
