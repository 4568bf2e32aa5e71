/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctest.c - guest side of tests/kernel/run.sh: exercises perf_counter_open(2)
 * on a kernel carrying kernel-patches/, inside QEMU, as root and as an
 * unprivileged user.
 *
 * Uses only include/sysapi/perf_counter.h and raw syscall(2): the number
 * comes from the marker, like lib/sysapi does.  Prints one line per test:
 *
 *	PCTEST PASS <name>
 *	PCTEST FAIL <name>: <why>
 *
 * and "PCTEST SUMMARY <n> passed <m> failed" at the end.  This file holds
 * the harness and main(); the tests are in pctest-simple.c (SIMPLE
 * counting, arguments, errors), pctest-irq.c (IRQ records) and
 * pctest-unpriv.c (as an unprivileged user), pctest-period.c (blocking
 * reads on a SIMPLE counter's period), pctest-reserve.c (reserve_percpu and
 * overcommit) and pctest-hw.c (the hardware types, where the guest has a
 * PMU).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>

#include "pctest.h"

long nr_counter_open = -1;
int npass, nfail;
const char *cur;
char why[512];

extern char __executable_start[], etext[];

void fail(const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return;		/* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
}

void report(void)
{
	if (why[0]) {
		printf("PCTEST FAIL %s: %s\n", cur, why);
		nfail++;
	} else {
		printf("PCTEST PASS %s\n", cur);
		npass++;
	}
	fflush(stdout);
}

long read_long(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

int pco(int32_t type, uint32_t period, uint32_t record, pid_t pid,
	       int cpu)
{
	if (nr_counter_open < 0) {
		errno = ENOSYS;
		return -1;
	}
	return (int)syscall(nr_counter_open, type, period, record, pid, cpu);
}

int peo(uint32_t type, uint64_t config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
}

uint64_t rd(int fd)
{
	uint64_t v = 0;
	ssize_t n = read(fd, &v, sizeof(v));

	if (n != (ssize_t)sizeof(v))
		fail("read count: %zd (%s)", n, strerror(errno));
	return v;
}

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

/* Spin in user space for ms of this thread's CPU time. */
__attribute__((noinline)) void busy(unsigned int ms)
{
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000ull;
	uint64_t x = sink;

	do {
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		sink = x;
	} while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end);
}

/* Spend ms of CPU time mostly in the kernel (clearing user buffers). */
void kernel_busy(unsigned int ms)
{
	static char buf[65536];
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000ull;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0) {
		fail("open /dev/zero: %s", strerror(errno));
		return;
	}
	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	close(fd);
}

/* Touch n fresh anonymous pages, one write each. */
void touch_pages(size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fail("mmap: %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, n * pg);
}

uint64_t rusage_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

int expect_err(int ret, int err, const char *what)
{
	if (ret >= 0) {
		fail("%s: succeeded, expected %s", what, strerrorname_np(err));
		close(ret);
		return -1;
	}
	if (errno != err) {
		fail("%s: %s, expected %s", what, strerrorname_np(errno),
		     strerrorname_np(err));
		return -1;
	}
	return 0;
}

pid_t child_hold(void (*run)(const void *arg), const void *arg, int *go)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char c;

		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		run(arg);
		_exit(0);
	}
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		return -1;
	}
	*go = p[1];
	return pid;
}

struct worker { unsigned int sleep_ms, busy_ms; };

static void worker_run(const void *arg)
{
	const struct worker *w = arg;

	if (w->sleep_ms)
		usleep(w->sleep_ms * 1000);
	busy(w->busy_ms);
}

pid_t worker_hold(unsigned int sleep_ms, unsigned int busy_ms, int *go)
{
	struct worker w = { sleep_ms, busy_ms };

	return child_hold(worker_run, &w, go);
}

void worker_go(int go)
{
	if (write(go, "x", 1) != 1)
		fail("release the worker: %s", strerror(errno));
	close(go);
}

int in_text(uint64_t ip)
{
	return ip >= (uintptr_t)__executable_start && ip < (uintptr_t)etext;
}

/* ------------------------------------------------------------------ */

static void run(const char *name, void (*fn)(void))
{
	cur = name;
	why[0] = '\0';
	if (nr_counter_open < 0 && fn != t_marker)
		fail("no syscall number (marker missing)");
	else
		fn();
	report();
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* a worker killed on a failed open must not take us with it */
	signal(SIGPIPE, SIG_IGN);
	if (write_str("/proc/sys/kernel/perf_event_paranoid", "2"))
		printf("# cannot set perf_event_paranoid: %s\n",
		       strerror(errno));

	run("marker", t_marker);
	run("simple-task-clock-vs-getrusage", t_simple_task_clock);
	run("simple-page-faults", t_simple_page_faults);
	run("agrees-with-perf_event_open", t_agree);
	run("irq-read-one-u64-2008-style", t_irq_read_2008);
	run("irq-bulk-read", t_irq_bulk_read);
	run("irq-nonblock-eagain", t_irq_nonblock);
	run("irq-poll-pollin", t_irq_poll);
	run("irq-blocking-read-wakes", t_irq_block_wakeup);
	run("irq-overrun-ioc-lost", t_irq_lost);
	run("simple-period-blocking-read", t_simple_period);
	run("simple-read-size-einval", t_simple_read_sizes);
	run("simple-ioc-read-times", t_ioc_read);
	run("bad-args-einval", t_bad_args);
	run("dead-pid-esrch", t_dead_pid);
	run("hw-types-match-perf_event_open", t_hw_types);
	run("cpu-wide-root", t_cpu_wide_root);
	run("other-task-pid", t_other_task);
	run("prctl-disable-enable", t_prctl_disable);
	run("close-frees", t_close_frees);
	run("root-counts-kernel", t_root_kernel_samples);

	unpriv_tests();
	reserve_tests();
	hw_tests();

	printf("PCTEST SUMMARY %d passed %d failed\n", npass, nfail);
	return nfail != 0;
}

