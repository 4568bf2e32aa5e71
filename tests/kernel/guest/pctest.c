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
 * and "PCTEST SUMMARY <n> passed <m> failed" at the end.
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

#define UNPRIV_UID 65534

static long nr_counter_open = -1;
static int npass, nfail;
static const char *cur;
static char why[512];

extern char __executable_start[], etext[];

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (why[0])
		return;		/* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
}

static void report(void)
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

static long read_long(const char *path)
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

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int pco(int32_t type, uint32_t period, uint32_t record, pid_t pid,
	       int cpu)
{
	if (nr_counter_open < 0) {
		errno = ENOSYS;
		return -1;
	}
	return (int)syscall(nr_counter_open, type, period, record, pid, cpu);
}

static int peo(uint32_t type, uint64_t config, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
}

static uint64_t rd(int fd)
{
	uint64_t v = 0;
	ssize_t n = read(fd, &v, sizeof(v));

	if (n != (ssize_t)sizeof(v))
		fail("read count: %zd (%s)", n, strerror(errno));
	return v;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

/* Spin in user space for ms of this thread's CPU time. */
static __attribute__((noinline)) void busy(unsigned int ms)
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
static void kernel_busy(unsigned int ms)
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
static void touch_pages(size_t n)
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

static uint64_t rusage_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

static int expect_err(int ret, int err, const char *what)
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

static int in_text(uint64_t ip)
{
	return ip >= (uintptr_t)__executable_start && ip < (uintptr_t)etext;
}

/* ------------------------------------------------------------------ */

static void t_marker(void)
{
	long nr = read_long(PERF_COUNTER_MARKER_NR);
	long ver = read_long(PERF_COUNTER_MARKER_VERSION);

	if (nr < 0)
		return fail("no %s", PERF_COUNTER_MARKER_NR);
	if (ver != PERF_COUNTER_ABI_VERSION)
		return fail("version %ld", ver);
#ifdef __x86_64__
	if (nr != 451)
		return fail("syscall_nr %ld, expected 451 on x86_64", nr);
#endif
	nr_counter_open = nr;
}

static void t_simple_task_clock(void)
{
	int fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, 0, -1);
	uint64_t c0, c1, r0, r1;
	double cnt, ru;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	r0 = rusage_ns();
	c0 = rd(fd);
	busy(300);
	c1 = rd(fd);
	r1 = rusage_ns();
	close(fd);
	cnt = (double)(c1 - c0);
	ru = (double)(r1 - r0);
	printf("# task-clock %.0f ns, getrusage %.0f ns\n", cnt, ru);
	if (cnt < ru * 0.95 - 2e6 || cnt > ru * 1.05 + 2e6)
		fail("task-clock %.0f ns vs getrusage %.0f ns", cnt, ru);
}

static void t_simple_page_faults(void)
{
	const size_t n = 1000;
	int fd = pco(PERF_COUNT_PAGE_FAULTS, 0, PERF_RECORD_SIMPLE, 0, -1);
	int fmin = pco(PERF_COUNT_PAGE_FAULTS_MIN, 0, PERF_RECORD_SIMPLE, 0,
		       -1);
	int fmaj = pco(PERF_COUNT_PAGE_FAULTS_MAJ, 0, PERF_RECORD_SIMPLE, 0,
		       -1);
	uint64_t a0, a1, m0, m1, j0, j1;

	if (fd < 0 || fmin < 0 || fmaj < 0)
		return fail("open: %s", strerror(errno));
	a0 = rd(fd);
	m0 = rd(fmin);
	j0 = rd(fmaj);
	touch_pages(n);
	a1 = rd(fd);
	m1 = rd(fmin);
	j1 = rd(fmaj);
	close(fd);
	close(fmin);
	close(fmaj);
	printf("# page-faults %llu minor %llu major %llu for %zu pages\n",
	       (unsigned long long)(a1 - a0), (unsigned long long)(m1 - m0),
	       (unsigned long long)(j1 - j0), n);
	if (a1 - a0 < n || a1 - a0 > n + 8)
		fail("page-faults %llu for %zu pages",
		     (unsigned long long)(a1 - a0), n);
	if (m1 - m0 < n || m1 - m0 > n + 8)
		fail("minor-faults %llu for %zu pages",
		     (unsigned long long)(m1 - m0), n);
	if (j1 != j0)
		fail("major-faults %llu", (unsigned long long)(j1 - j0));
}

static void t_agree(void)
{
	static const struct {
		int32_t legacy;
		uint64_t config;
		const char *name;
	} ev[] = {
		{ PERF_COUNT_TASK_CLOCK, PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
		{ PERF_COUNT_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
		{ PERF_COUNT_CONTEXT_SWITCHES, PERF_COUNT_SW_CONTEXT_SWITCHES,
		  "context-switches" },
	};
	int lfd[3], pfd[3];
	uint64_t l[3], p[3];

	for (int i = 0; i < 3; i++) {
		lfd[i] = pco(ev[i].legacy, 0, PERF_RECORD_SIMPLE, 0, -1);
		pfd[i] = peo(PERF_TYPE_SOFTWARE, ev[i].config, 0, -1);
		if (lfd[i] < 0 || pfd[i] < 0)
			return fail("open %s: %s", ev[i].name, strerror(errno));
	}
	for (int i = 0; i < 3; i++) {
		l[i] = rd(lfd[i]);
		p[i] = rd(pfd[i]);
	}
	touch_pages(500);
	busy(100);
	for (int i = 0; i < 5; i++)
		usleep(1000);
	for (int i = 0; i < 3; i++) {
		l[i] = rd(lfd[i]) - l[i];
		p[i] = rd(pfd[i]) - p[i];
		close(lfd[i]);
		close(pfd[i]);
		printf("# %s: perf_counter_open %llu perf_event_open %llu\n",
		       ev[i].name, (unsigned long long)l[i],
		       (unsigned long long)p[i]);
	}
	if ((double)l[0] < p[0] * 0.98 || (double)l[0] > p[0] * 1.02)
		fail("task-clock %llu vs %llu", (unsigned long long)l[0],
		     (unsigned long long)p[0]);
	if (l[1] > p[1] + 2 || p[1] > l[1] + 2 || l[1] < 500)
		fail("page-faults %llu vs %llu", (unsigned long long)l[1],
		     (unsigned long long)p[1]);
	if (l[2] != p[2] || l[2] < 5)
		fail("context-switches %llu vs %llu", (unsigned long long)l[2],
		     (unsigned long long)p[2]);
}

/*
 * The 2008 monitor: fork a worker, sample it with an IRQ counter and read
 * one u64 IP at a time with blocking read() until the worker exits (EOF).
 */
static void t_irq_read_2008(void)
{
	int go[2], fd;
	pid_t pid;
	uint64_t ip, n = 0, text = 0, inbusy = 0, kern = 0;
	ssize_t r;
	int st;

	if (pipe(go))
		return fail("pipe");
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		busy(400);
		_exit(0);
	}
	close(go[0]);
	fd = pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, pid, -1);
	if (fd < 0) {
		fail("open: %s", strerror(errno));
		kill(pid, SIGKILL);
	}
	if (write(go[1], "x", 1) != 1)
		fail("write");
	close(go[1]);
	while (fd >= 0 && (r = read(fd, &ip, sizeof(ip))) == sizeof(ip)) {
		n++;
		if (in_text(ip))
			text++;
		if (ip >= 0xffff800000000000ull)
			kern++;
		if (ip >= (uintptr_t)busy && ip < (uintptr_t)busy + 512)
			inbusy++;
	}
	if (fd >= 0 && r != 0)
		fail("read: %zd (%s), expected EOF after the exit", r,
		     strerror(errno));
	waitpid(pid, &st, 0);
	if (fd >= 0)
		close(fd);
	printf("# irq: %llu IPs, %llu in text, %llu near busy(), %llu kernel\n",
	       (unsigned long long)n, (unsigned long long)text,
	       (unsigned long long)inbusy, (unsigned long long)kern);
	/*
	 * Root counts the kernel too, so kernel IPs are fine; the user-space
	 * ones must be the worker's text (the rest is the vDSO), mostly
	 * busy().  The number of records is only loosely bounded: under TCG
	 * the guest's clocks run on host time, and host stalls skip timer
	 * periods.
	 */
	if (n < 50)
		fail("only %llu IPs for 400 ms at 1 kHz", (unsigned long long)n);
	else if (text < (n - kern) * 9 / 10)
		fail("%llu of %llu user IPs in text", (unsigned long long)text,
		     (unsigned long long)(n - kern));
	else if (inbusy < (n - kern) / 2)
		fail("only %llu of %llu user IPs in busy()",
		     (unsigned long long)inbusy, (unsigned long long)(n - kern));
}

static void t_irq_bulk_read(void)
{
	int fd = pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, 0, -1);
	uint64_t ips[64], lost = 1;
	char small[4];
	ssize_t r;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	busy(100);
	if (expect_err(read(fd, small, sizeof(small)), EINVAL, "read(4)"))
		goto out;
	/* Data is there: a blocking read returns at once, whole records. */
	r = read(fd, ips, sizeof(ips) - 3);
	if (r <= 0 || r % 8 || r > (ssize_t)sizeof(ips) - 8) {
		fail("read(509): %zd", r);
		goto out;
	}
	if (ioctl(fd, PERF_COUNTER_IOC_LOST, &lost) || lost != 0)
		fail("IOC_LOST: %llu", (unsigned long long)lost);
out:
	close(fd);
}

static void t_irq_nonblock(void)
{
	/* 1 s of CPU between records: nothing arrives during the test. */
	int fd = pco(PERF_COUNT_CPU_CLOCK, 1000000000, PERF_RECORD_IRQ, 0, -1);
	uint64_t ip;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	expect_err(read(fd, &ip, sizeof(ip)), EAGAIN, "read");
	close(fd);
}

static void t_irq_poll(void)
{
	int idle = pco(PERF_COUNT_CPU_CLOCK, 1000000000, PERF_RECORD_IRQ, 0, -1);
	int fd = pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, 0, -1);
	struct pollfd p[2];
	int r;

	if (fd < 0 || idle < 0)
		return fail("open: %s", strerror(errno));
	p[0].fd = idle;
	p[0].events = POLLIN;
	r = poll(p, 1, 0);
	if (r != 0)
		fail("poll on an empty counter: %d revents %#x", r,
		     p[0].revents);
	busy(50);
	p[0].fd = fd;
	p[0].events = POLLIN;
	p[1].fd = idle;
	p[1].events = POLLIN;
	r = poll(p, 2, 2000);
	if (r != 1 || !(p[0].revents & POLLIN) || p[1].revents)
		fail("poll: %d revents %#x/%#x", r, p[0].revents,
		     p[1].revents);
	close(fd);
	close(idle);
}

/*
 * A reader blocked on an empty buffer is woken by the first record: the
 * worker sleeps 200 ms (no CPU time, so no cpu-clock record) and then
 * spins.
 */
static void t_irq_block_wakeup(void)
{
	int go[2], fd;
	uint64_t ip = 0, t0, t1;
	pid_t pid;
	int st;

	if (pipe(go))
		return fail("pipe");
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		usleep(200000);
		busy(100);
		_exit(0);
	}
	close(go[0]);
	/* 20 ms: under TCG a host stall counts as guest CPU time. */
	fd = pco(PERF_COUNT_CPU_CLOCK, 20000000, PERF_RECORD_IRQ, pid, -1);
	if (write(go[1], "x", 1) != 1)
		fail("write");
	close(go[1]);
	if (fd < 0) {
		waitpid(pid, &st, 0);
		return fail("open: %s", strerror(errno));
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	if (read(fd, &ip, sizeof(ip)) != sizeof(ip))
		fail("blocking read: %s", strerror(errno));
	else if (!ip)
		fail("IP 0");
	t1 = now_ns(CLOCK_MONOTONIC);
	if (t1 - t0 < 150000000)
		fail("read returned after %llu ns, before the worker ran",
		     (unsigned long long)(t1 - t0));
	waitpid(pid, &st, 0);
	close(fd);
}

static void t_irq_lost(void)
{
	const size_t n = 3 * PERF_COUNTER_IRQ_SLOTS;
	int fd = pco(PERF_COUNT_PAGE_FAULTS, 1, PERF_RECORD_IRQ, 0, -1);
	uint64_t *ips, lost = 0, got = 0;
	ssize_t r;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	ips = calloc(PERF_COUNTER_IRQ_SLOTS * 2, sizeof(*ips));
	if (!ips)
		return fail("calloc");
	touch_pages(n);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while ((r = read(fd, ips, PERF_COUNTER_IRQ_SLOTS * 2 * 8)) > 0)
		got += r / 8;
	if (r < 0 && errno != EAGAIN)
		fail("read: %s", strerror(errno));
	if (ioctl(fd, PERF_COUNTER_IOC_LOST, &lost))
		fail("ioctl: %s", strerror(errno));
	printf("# overrun: %llu records read, %llu lost, %zu faults\n",
	       (unsigned long long)got, (unsigned long long)lost, n);
	if (got != PERF_COUNTER_IRQ_SLOTS)
		fail("read %llu records, expected a full buffer of %d",
		     (unsigned long long)got, PERF_COUNTER_IRQ_SLOTS);
	if (lost < n - PERF_COUNTER_IRQ_SLOTS - n / 10 ||
	    lost > n - PERF_COUNTER_IRQ_SLOTS + 64)
		fail("lost %llu, expected about %zu", (unsigned long long)lost,
		     n - PERF_COUNTER_IRQ_SLOTS);
	free(ips);
	close(fd);
}

static void t_simple_read_sizes(void)
{
	int fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, 0, -1);
	char buf[16];
	uint64_t lost;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	expect_err(read(fd, buf, 4), EINVAL, "read(4)");
	expect_err(read(fd, buf, 16), EINVAL, "read(16)");
	expect_err(read(fd, buf, 7), EINVAL, "read(7)");
	expect_err(read(fd, buf, 0), EINVAL, "read(0)");
	if (read(fd, buf, 8) != 8)
		fail("read(8): %s", strerror(errno));
	expect_err(ioctl(fd, PERF_COUNTER_IOC_LOST, &lost), EINVAL,
		   "IOC_LOST on SIMPLE");
	expect_err(ioctl(fd, _IO('$', 0x7f)), ENOTTY, "unknown ioctl");
	close(fd);
}

static void t_bad_args(void)
{
	static const int32_t bad[] = { 6, 7, 0xfff, 0x1007, 0x2000,
				       0x7fffffff };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char what[32];

		snprintf(what, sizeof(what), "type %#x", bad[i]);
		expect_err(pco(bad[i], 0, PERF_RECORD_SIMPLE, 0, -1), EINVAL,
			   what);
	}
	expect_err(pco(PERF_COUNT_TASK_CLOCK, 0, 2, 0, -1), EINVAL,
		   "record_type 2");
	expect_err(pco(PERF_COUNT_CPU_CLOCK, 0, PERF_RECORD_IRQ, 0, -1),
		   EINVAL, "IRQ with period 0");
	expect_err(pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, -1, -1),
		   EINVAL, "pid -1 cpu -1");
	expect_err(pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, 0, 4096),
		   EINVAL, "cpu 4096");
}

static void t_dead_pid(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(0);
	waitpid(pid, &st, 0);
	expect_err(pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, pid, -1),
		   ESRCH, "reaped pid");
}

static void t_hw_types(void)
{
	/* Whatever perf_event_open says about the hardware, so do we: in
	   QEMU TCG there is no PMU and both fail with ENOENT. */
	for (int t = 0; t < PERF_HW_EVENTS_MAX; t++) {
		int p = peo(PERF_TYPE_HARDWARE, t, 0, -1);
		int perr = errno;
		int l = pco(t, 0, PERF_RECORD_SIMPLE, 0, -1);
		int lerr = errno;

		if ((p < 0) != (l < 0) || (p < 0 && perr != lerr))
			fail("type %d: perf_event_open %s, perf_counter_open %s",
			     t, p < 0 ? strerrorname_np(perr) : "ok",
			     l < 0 ? strerrorname_np(lerr) : "ok");
		if (p >= 0)
			close(p);
		if (l >= 0)
			close(l);
		if (t == 0 && p < 0)
			printf("# hardware events: %s (no PMU)\n",
			       strerrorname_np(perr));
	}
	{
		struct perf_event_attr a = { .size = sizeof(a),
					     .type = PERF_TYPE_RAW,
					     .config = 0x3c };
		int p = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		int perr = errno;
		int l = pco(-0x3c, 0, PERF_RECORD_SIMPLE, 0, -1);
		int lerr = errno;

		if ((p < 0) != (l < 0) || (p < 0 && perr != lerr))
			fail("raw 0x3c: perf_event_open %s, perf_counter_open %s",
			     p < 0 ? strerrorname_np(perr) : "ok",
			     l < 0 ? strerrorname_np(lerr) : "ok");
		if (p >= 0)
			close(p);
		if (l >= 0)
			close(l);
	}
}

static void t_cpu_wide_root(void)
{
	int fd = pco(PERF_COUNT_CPU_CLOCK, 0, PERF_RECORD_SIMPLE, -1, 0);
	uint64_t a, b;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	a = rd(fd);
	usleep(100000);
	b = rd(fd);
	close(fd);
	/* The CPU clock of CPU 0 runs whether it is idle or not. */
	if (b - a < 50000000)
		fail("cpu-clock on cpu 0 advanced %llu ns over 100 ms",
		     (unsigned long long)(b - a));
}

static void t_other_task(void)
{
	int go[2], fd;
	pid_t pid;
	uint64_t v;
	int st;

	if (pipe(go))
		return fail("pipe");
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		busy(150);
		_exit(0);
	}
	close(go[0]);
	fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, pid, -1);
	if (write(go[1], "x", 1) != 1)
		fail("write");
	close(go[1]);
	waitpid(pid, &st, 0);
	if (fd < 0)
		return fail("open: %s", strerror(errno));
	/* Readable after the target is gone: its final count. */
	v = rd(fd);
	close(fd);
	if (v < 150000000 || v > 300000000)
		fail("child task-clock %llu ns for 150 ms of work",
		     (unsigned long long)v);
}

static void t_prctl_disable(void)
{
	int fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, 0, -1);
	uint64_t a, b, c;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	a = rd(fd);
	busy(30);
	b = rd(fd);
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	busy(30);
	c = rd(fd);
	close(fd);
	if (a != b)
		fail("counted %llu ns while disabled",
		     (unsigned long long)(b - a));
	if (c - b < 20000000)
		fail("counted %llu ns after re-enable",
		     (unsigned long long)(c - b));
}

static long meminfo(const char *key)
{
	char line[128];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

static void t_close_frees(void)
{
	long before, after;

	/* Warm up, then 3000 open/close pairs; a leak of the 32 KiB IRQ
	   buffer alone would be ~94 MiB. */
	for (int i = 0; i < 10; i++)
		close(pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, 0,
			  -1));
	usleep(200000);
	before = meminfo("MemFree:");
	for (int i = 0; i < 3000; i++) {
		int a = pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, 0,
			    -1);
		int b = pco(PERF_COUNT_PAGE_FAULTS, 0, PERF_RECORD_SIMPLE, 0,
			    -1);

		if (a < 0 || b < 0)
			return fail("open #%d: %s", i, strerror(errno));
		close(a);
		close(b);
	}
	for (int i = 0; i < 20 && meminfo("MemFree:") < before - 8192; i++)
		usleep(100000);	/* RCU-deferred frees */
	after = meminfo("MemFree:");
	printf("# MemFree %ld kB before, %ld kB after 3000 open/close\n",
	       before, after);
	if (after < before - 8192)
		fail("MemFree dropped by %ld kB", before - after);
}

static void t_root_kernel_samples(void)
{
	int fd = pco(PERF_COUNT_CPU_CLOCK, 500000, PERF_RECORD_IRQ, 0, -1);
	uint64_t ips[512];
	ssize_t r;
	long k = 0, n = 0;

	if (fd < 0)
		return fail("open: %s", strerror(errno));
	kernel_busy(200);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while ((r = read(fd, ips, sizeof(ips))) > 0)
		for (long i = 0; i < r / 8; i++, n++)
			k += ips[i] >= 0xffff800000000000ull;
	close(fd);
	printf("# root, paranoid 2: %ld of %ld IPs in the kernel\n", k, n);
	if (k == 0)
		fail("no kernel IPs for a privileged counter (%ld samples)", n);
}

/* ------------------------------------------------------------------ */
/* Unprivileged cases: each runs in a child that drops to nobody.       */

static void drop_privs(void)
{
	if (setresgid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) ||
	    setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID)) {
		printf("setresuid: %s\n", strerror(errno));
		_exit(99);
	}
	/* As after a login: changing uid made us non-dumpable, which would
	   deny ptrace access even to our own children. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static pid_t root_sleeper;

static int u_self_user_only(void)
{
	int fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, 0, -1);
	int sfd = pco(PERF_COUNT_CPU_CLOCK, 500000, PERF_RECORD_IRQ, 0, -1);
	uint64_t a, b, ips[512];
	long k = 0, n = 0;
	ssize_t r;

	if (fd < 0 || sfd < 0)
		return printf("# open: %s\n", strerror(errno)), 1;
	a = rd(fd);
	busy(100);
	kernel_busy(100);
	b = rd(fd);
	fcntl(sfd, F_SETFL, O_NONBLOCK);
	while ((r = read(sfd, ips, sizeof(ips))) > 0)
		for (long i = 0; i < r / 8; i++, n++)
			k += ips[i] >= 0xffff800000000000ull;
	printf("# nobody: task-clock %llu ns, %ld IPs, %ld in the kernel\n",
	       (unsigned long long)(b - a), n, k);
	return b - a < 100000000 || n < 20 || k != 0 || why[0];
}

static int u_cpu_wide(void)
{
	int fd = pco(PERF_COUNT_CPU_CLOCK, 0, PERF_RECORD_SIMPLE, -1, 0);

	return expect_err(fd, EACCES, "cpu-wide") ? (printf("# %s\n", why), 1)
						   : 0;
}

static int u_other_user(void)
{
	int fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE,
		     root_sleeper, -1);

	return expect_err(fd, EACCES, "root's pid") ? (printf("# %s\n", why), 1)
						     : 0;
}

static int u_same_user_child(void)
{
	pid_t pid = fork();
	int fd, st;

	if (pid == 0) {
		busy(100);
		_exit(0);
	}
	fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, pid, -1);
	waitpid(pid, &st, 0);
	if (fd < 0)
		return printf("# open own child: %s\n", strerror(errno)), 1;
	close(fd);
	return 0;
}

static int u_paranoid3(void)
{
	int fd = pco(PERF_COUNT_TASK_CLOCK, 0, PERF_RECORD_SIMPLE, 0, -1);

	return expect_err(fd, EACCES, "paranoid 3") ? (printf("# %s\n", why), 1)
						     : 0;
}

static void unpriv(const char *name, int (*fn)(void), const char *paranoid)
{
	pid_t pid;
	int st;

	cur = name;
	why[0] = '\0';
	write_str("/proc/sys/kernel/perf_event_paranoid", paranoid);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		drop_privs();
		_exit(fn());
	}
	waitpid(pid, &st, 0);
	write_str("/proc/sys/kernel/perf_event_paranoid", "2");
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail("child status %#x", st);
	report();
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
	run("simple-read-size-einval", t_simple_read_sizes);
	run("bad-args-einval", t_bad_args);
	run("dead-pid-esrch", t_dead_pid);
	run("hw-types-match-perf_event_open", t_hw_types);
	run("cpu-wide-root", t_cpu_wide_root);
	run("other-task-pid", t_other_task);
	run("prctl-disable-enable", t_prctl_disable);
	run("close-frees", t_close_frees);
	run("root-counts-kernel", t_root_kernel_samples);

	root_sleeper = fork();
	if (root_sleeper == 0) {
		pause();
		_exit(0);
	}
	unpriv("unpriv-self-user-only", u_self_user_only, "2");
	unpriv("unpriv-cpu-wide-eacces", u_cpu_wide, "2");
	unpriv("unpriv-other-user-eacces", u_other_user, "2");
	unpriv("unpriv-own-child", u_same_user_child, "2");
	unpriv("unpriv-paranoid3-eacces", u_paranoid3, "3");
	kill(root_sleeper, SIGKILL);
	waitpid(root_sleeper, NULL, 0);

	printf("PCTEST SUMMARY %d passed %d failed\n", npass, nfail);
	return nfail != 0;
}
