/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctest-hw.c - the 2008 call's hardware types where the guest has a PMU
 * (arm64: QEMU's emulated PMUv3 under -icount shift=0, where user-space
 * counts are exact).  The workload is hw_loop(n): n passes through a loop
 * of exactly 8 instructions, run by a child of an unprivileged user, whose
 * counters (the 2008 call has no exclusion bits) count user space only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>

#include "pctest.h"

#if defined(__aarch64__)
__asm__(".text\n"
	".globl hw_loop\n"
	".type hw_loop, %function\n"
	"hw_loop:\n"
	"	add x4, x4, #1\n"
	"	add x5, x5, #2\n"
	"	eor x6, x6, x4\n"
	"	add x7, x7, x5\n"
	"	orr x9, x9, x6\n"
	"	sub x10, x10, #1\n"
	"	subs x0, x0, #1\n"
	"	b.ne hw_loop\n"
	"	ret\n"
	".globl hw_loop_end\n"
	"hw_loop_end:\n"
	".size hw_loop, . - hw_loop\n");
#elif defined(__x86_64__)
__asm__(".text\n"
	".globl hw_loop\n"
	".type hw_loop, @function\n"
	"hw_loop:\n"
	"	add $1, %rcx\n"
	"	add $2, %r8\n"
	"	xor %rcx, %r9\n"
	"	add %r8, %r10\n"
	"	or %r9, %r11\n"
	"	sub $1, %rdx\n"
	"	sub $1, %rdi\n"
	"	jnz hw_loop\n"
	"	ret\n"
	".globl hw_loop_end\n"
	"hw_loop_end:\n"
	".size hw_loop, . - hw_loop\n");
#endif

static void loop_run(const void *arg)
{
	hw_loop(*(const uint64_t *)arg);
}

pid_t loop_child(uint64_t n, int *go)
{
	char path[64], buf[256];
	pid_t pid = child_hold(loop_run, &n, go);

	if (pid < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 10000; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		char *s;

		if (fd >= 0)
			close(fd);
		buf[r > 0 ? r : 0] = '\0';
		s = strrchr(buf, ')');
		if (s && s[1] == ' ' && s[2] == 'S')
			break;
		usleep(1000);
	}
	return pid;
}

/* Count instructions (type 1) and cycles (type 0) of loop_child(n). */
static int count_loop(uint64_t n, uint64_t *insn, uint64_t *cyc)
{
	int go, fi, fc, st;
	pid_t pid = loop_child(n, &go);

	if (pid < 0)
		return printf("# fork: %s\n", strerror(errno)), -1;
	fi = pco(PERF_COUNT_INSTRUCTIONS, 0, PERF_RECORD_SIMPLE, pid, -1);
	fc = pco(PERF_COUNT_CYCLES, 0, PERF_RECORD_SIMPLE, pid, -1);
	if (fi < 0 || fc < 0) {
		printf("# open types 1 and 0 on pid %d: %s\n", (int)pid,
		       strerror(errno));
		kill(pid, SIGKILL);
	}
	worker_go(go);
	waitpid(pid, &st, 0);
	if (fi < 0 || fc < 0)
		return -1;
	*insn = rd(fi);
	*cyc = rd(fc);
	close(fi);
	close(fc);
	return why[0] ? -1 : 0;
}

/* Types 1 and 0 count a task's user-space instructions exactly, and its
   cycles (one an instruction under -icount shift=0). */
static int u_hw_count(void)
{
	const uint64_t n1 = 1000000, n2 = 3000000;
	uint64_t i1, c1, i2, c2;
	int64_t k1, k2;

	if (count_loop(n1, &i1, &c1) || count_loop(n2, &i2, &c2))
		return 1;
	k1 = (int64_t)(i1 - 8 * n1);
	k2 = (int64_t)(i2 - 8 * n2);
	printf("# 2008 types 1, 0: loop %llu: %llu instructions (8n%+lld), "
	       "%llu cycles; loop %llu: %llu (8n%+lld), %llu cycles\n",
	       (unsigned long long)n1, (unsigned long long)i1, (long long)k1,
	       (unsigned long long)c1, (unsigned long long)n2,
	       (unsigned long long)i2, (long long)k2, (unsigned long long)c2);
	if (k1 != k2 || k1 < 0 || k1 > 1000)
		return printf("# instructions not 8n + the same small c\n"), 1;
	/* cycles of the extra 2M passes: 16M, within 1% */
	if ((c2 - c1) * 100 < (i2 - i1) * 99 || (c2 - c1) * 100 > (i2 - i1) * 101)
		return printf("# cycles %llu for %llu instructions\n",
			      (unsigned long long)(c2 - c1),
			      (unsigned long long)(i2 - i1)), 1;
	return 0;
}

/*
 * IRQ records on type 0 every P cycles, read the 2008 way (one u64 IP per
 * read() until EOF): cycles / P of them, every IP in hw_loop.
 */
static int u_hw_irq_cycles(void)
{
	const uint64_t n = 3000000, period = 100000;
	uint64_t ip, recs = 0, out = 0, cyc, first_out = 0;
	int go, fs, fc, st;
	ssize_t r;
	pid_t pid = loop_child(n, &go);

	if (pid < 0)
		return printf("# fork: %s\n", strerror(errno)), 1;
	/* the sampling counter first: it gets the PMU's cycle counter */
	fs = pco(PERF_COUNT_CYCLES, period, PERF_RECORD_IRQ, pid, -1);
	fc = pco(PERF_COUNT_CYCLES, 0, PERF_RECORD_SIMPLE, pid, -1);
	if (fs < 0 || fc < 0) {
		printf("# open: %s\n", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return 1;
	}
	worker_go(go);
	while ((r = read(fs, &ip, sizeof(ip))) == sizeof(ip)) {
		recs++;
		if (ip < (uintptr_t)hw_loop || ip >= (uintptr_t)hw_loop_end) {
			if (!out++)
				first_out = ip;
		}
	}
	waitpid(pid, &st, 0);
	cyc = rd(fc);
	close(fs);
	close(fc);
	printf("# 2008 IRQ on cycles every %llu: %llu records for %llu cycles "
	       "(%llu expected), %llu outside hw_loop [%p, %p) (first %#llx)\n",
	       (unsigned long long)period, (unsigned long long)recs,
	       (unsigned long long)cyc, (unsigned long long)(cyc / period),
	       (unsigned long long)out, (void *)hw_loop, (void *)hw_loop_end,
	       (unsigned long long)first_out);
	if (r != 0)
		return printf("# read: %zd (%s), expected EOF\n", r,
			      strerror(errno)), 1;
	if (recs * 100 < cyc / period * 99 || recs * 100 > cyc / period * 101 + 100)
		return 1;
	return out != 0 || why[0];
}

void hw_tests(void)
{
	int p = peo(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, -1);

	if (p < 0) {
#ifdef __aarch64__
		cur = "hw-pmu-present";
		why[0] = '\0';
		fail("instructions: %s; QEMU's virt machine with -cpu max and "
		     "-icount has a PMU", strerror(errno));
		report();
#else
		printf("# no PMU (%s): the hardware tests do not run here\n",
		       strerror(errno));
#endif
		return;
	}
	close(p);
	unpriv("hw-2008-types-0-1-count-a-task", u_hw_count, "2");
	unpriv("hw-2008-irq-cycles-ips-in-loop", u_hw_irq_cycles, "2");
}
