/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctest-irq.c - IRQ counters of the 2008 call: IPs read 8 bytes at a
 * time, blocking and non-blocking reads, poll, overruns.
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

/*
 * The 2008 monitor: fork a worker, sample it with an IRQ counter and read
 * one u64 IP at a time with blocking read() until the worker exits (EOF).
 */
void t_irq_read_2008(void)
{
	int go, fd;
	pid_t pid;
	uint64_t ip, n = 0, text = 0, inbusy = 0, kern = 0;
	ssize_t r;
	int st;

	pid = worker_hold(0, 400, &go);
	if (pid < 0)
		return fail("fork: %s", strerror(errno));
	fd = pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, pid, -1);
	if (fd < 0) {
		fail("open: %s", strerror(errno));
		kill(pid, SIGKILL);
	}
	worker_go(go);
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

void t_irq_bulk_read(void)
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

void t_irq_nonblock(void)
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

void t_irq_poll(void)
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
void t_irq_block_wakeup(void)
{
	int go, fd;
	uint64_t ip = 0, t0, t1;
	pid_t pid;
	int st;

	pid = worker_hold(200, 100, &go);
	if (pid < 0)
		return fail("fork: %s", strerror(errno));
	/* 20 ms: under TCG a host stall counts as guest CPU time. */
	fd = pco(PERF_COUNT_CPU_CLOCK, 20000000, PERF_RECORD_IRQ, pid, -1);
	worker_go(go);
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

void t_irq_lost(void)
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

void t_root_kernel_samples(void)
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
