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
 * Under TCG the guest's clocks run on host time: on a loaded host a stall
 * of the vCPU thread counts as CPU time of the guest task that was
 * running, and a late timer interrupt fires once for all the periods it
 * skipped.  So the number of cpu-clock records of a workload is not
 * known in advance, only bounded by its CPU time; what is known is that
 * perf_event_open's own sampling of the same task, on the same clock at
 * the same time, sees the same timer interrupts.  The workloads are a
 * fixed amount of work, so that the records are many on an idle host.
 */
static volatile uint64_t work_sink;

/* The rounds of work() that take about 400 ms of CPU time in the guest
   on an idle host (measured: TCG on x86_64, -icount shift=0 on arm64). */
#if defined(__aarch64__)
#define WORK_ROUNDS_400MS 6600
#else
#define WORK_ROUNDS_400MS 12000
#endif

/* rounds of 20000 steps of an LCG in user space */
__attribute__((noinline)) static void work(unsigned long rounds)
{
	uint64_t x = work_sink;

	while (rounds--) {
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		work_sink = x;
	}
}

static void work_run(const void *arg)
{
	work(*(const unsigned long *)arg);
}

/* ip inside work() */
static int in_work(uint64_t ip)
{
	return ip >= (uintptr_t)work && ip < (uintptr_t)work + 512;
}

#define REF_PAGES 16

/*
 * The reference: perf_event_open's cpu-clock sampling of pid every
 * period ns, IPs only, in a ring of REF_PAGES pages.  Returns the ring
 * (and *fd), or NULL after fail().
 */
static void *ref_open(pid_t pid, uint64_t period, int *fd)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = period,
		.sample_type = PERF_SAMPLE_IP,
	};
	long pg = sysconf(_SC_PAGESIZE);
	void *ring;

	*fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
	if (*fd < 0) {
		fail("perf_event_open: %s", strerror(errno));
		return NULL;
	}
	ring = mmap(NULL, (REF_PAGES + 1) * pg, PROT_READ | PROT_WRITE,
		    MAP_SHARED, *fd, 0);
	if (ring == MAP_FAILED) {
		fail("mmap: %s", strerror(errno));
		close(*fd);
		return NULL;
	}
	return ring;
}

/* The samples in the reference's ring; fail() when it lost any. */
static uint64_t ref_samples(void *ring, int fd)
{
	struct perf_event_mmap_page *m = ring;
	long pg = sysconf(_SC_PAGESIZE);
	const char *data = (const char *)ring + pg;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	uint64_t off = 0, n = 0;

	if (head > (uint64_t)REF_PAGES * pg)
		fail("the reference's ring filled up (%llu bytes)",
		     (unsigned long long)head);
	else
		while (off < head) {
			const struct perf_event_header *h =
				(const void *)(data + off);

			if (h->type == PERF_RECORD_SAMPLE)
				n++;
			else if (h->type == PERF_RECORD_LOST)
				fail("the reference lost records");
			if (h->size == 0)
				break;
			off += h->size;
		}
	munmap(ring, (REF_PAGES + 1) * pg);
	close(fd);
	return n;
}

/*
 * The 2008 monitor: fork a worker, sample it with an IRQ counter and read
 * one u64 IP at a time with blocking read() until the worker exits (EOF);
 * perf_event_open samples it at the same time.
 */
void t_irq_read_2008(void)
{
	static const unsigned long rounds = WORK_ROUNDS_400MS;
	int go, fd, rfd = -1;
	pid_t pid;
	uint64_t ip, n = 0, text = 0, inwork = 0, kern = 0, cpu_ms, rn = 0;
	struct rusage ru;
	void *ring = NULL;
	ssize_t r = 0;
	int st;

	pid = child_hold(work_run, &rounds, &go);
	if (pid < 0)
		return fail("fork: %s", strerror(errno));
	fd = pco(PERF_COUNT_CPU_CLOCK, 1000000, PERF_RECORD_IRQ, pid, -1);
	if (fd < 0)
		fail("open: %s", strerror(errno));
	else
		ring = ref_open(pid, 1000000, &rfd);
	if (!ring)
		kill(pid, SIGKILL);
	worker_go(go);
	while (ring && (r = read(fd, &ip, sizeof(ip))) == sizeof(ip)) {
		n++;
		if (in_text(ip))
			text++;
		if (ip >= 0xffff800000000000ull)
			kern++;
		if (in_work(ip))
			inwork++;
	}
	if (ring && r != 0)
		fail("read: %zd (%s), expected EOF after the exit", r,
		     strerror(errno));
	memset(&ru, 0, sizeof(ru));
	wait4(pid, &st, 0, &ru);
	if (fd >= 0)
		close(fd);
	if (!ring)
		return;
	rn = ref_samples(ring, rfd);
	cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000ull +
		 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	printf("# irq: %llu IPs (perf_event_open: %llu samples), %llu in text, "
	       "%llu in work(), %llu kernel, %llu ms of CPU\n",
	       (unsigned long long)n, (unsigned long long)rn,
	       (unsigned long long)text, (unsigned long long)inwork,
	       (unsigned long long)kern, (unsigned long long)cpu_ms);
	/*
	 * As many records as the reference's samples, give or take a timer
	 * interrupt at the start and the end, and at most one a ms of the
	 * worker's CPU time.  Root counts the kernel too, so kernel IPs are
	 * fine; the user-space ones must be the worker's text (the rest is
	 * the vDSO), mostly work().
	 */
	if (n == 0 || n + 3 + rn / 10 < rn || n > rn + 3 + rn / 10)
		fail("%llu IPs, perf_event_open %llu samples",
		     (unsigned long long)n, (unsigned long long)rn);
	else if (n > cpu_ms + 5)
		fail("%llu IPs for %llu ms of CPU time at 1 kHz",
		     (unsigned long long)n, (unsigned long long)cpu_ms);
	else if (text < (n - kern) * 9 / 10)
		fail("%llu of %llu user IPs in text", (unsigned long long)text,
		     (unsigned long long)(n - kern));
	else if (inwork < (n - kern) / 2)
		fail("only %llu of %llu user IPs in work()",
		     (unsigned long long)inwork, (unsigned long long)(n - kern));
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

/* The state letter of /proc/PID/stat ('R', 'S', ...), 0 when unreadable. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return 0;
	buf[r] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * A reader blocked on an empty buffer is woken by the first record.  The
 * worker is released only once the reader is seen asleep, by a watcher
 * that the counter does not count, which raises *released first: so the
 * read() blocked, and the record that ends it came after, whatever the
 * host's load does to the guest's clocks.  The watcher exits 0 when it
 * saw the reader asleep, 1 when it gave up after 60 s (a hang guard: it
 * releases the worker all the same), 2 when it could not release it.
 */
void t_irq_block_wakeup(void)
{
	static const unsigned long rounds = WORK_ROUNDS_400MS / 4;
	int go, fd, st, wst = 0;
	uint64_t ip = 0;
	pid_t pid, watcher, reader = getpid();
	volatile int *released;
	ssize_t r;

	released = mmap(NULL, sizeof(*released), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (released == MAP_FAILED)
		return fail("mmap: %s", strerror(errno));
	*released = 0;
	pid = child_hold(work_run, &rounds, &go);
	if (pid < 0) {
		munmap((void *)released, sizeof(*released));
		return fail("fork: %s", strerror(errno));
	}
	/* 20 ms: under TCG a host stall counts as guest CPU time. */
	fd = pco(PERF_COUNT_CPU_CLOCK, 20000000, PERF_RECORD_IRQ, pid, -1);
	if (fd < 0) {
		fail("open: %s", strerror(errno));
		worker_go(go);
		waitpid(pid, &st, 0);
		munmap((void *)released, sizeof(*released));
		return;
	}
	watcher = fork();
	if (watcher == 0) {
		int i;

		for (i = 0; i < 60000 && proc_state(reader) != 'S'; i++)
			usleep(1000);
		*released = 1;
		_exit(write(go, "x", 1) == 1 ? i == 60000 : 2);
	}
	close(go);
	if (watcher < 0) {
		fail("fork: %s", strerror(errno));
		kill(pid, SIGKILL);
	} else if ((r = read(fd, &ip, sizeof(ip))) != sizeof(ip)) {
		fail("blocking read: %zd (%s)", r, strerror(errno));
	} else if (!*released) {
		fail("read returned a record before the worker ran");
	} else if (!in_text(ip) && ip < 0xffff800000000000ull) {
		fail("IP %#llx, neither the worker's text nor the kernel",
		     (unsigned long long)ip);
	}
	if (watcher > 0 && (waitpid(watcher, &wst, 0) != watcher ||
			    !WIFEXITED(wst) || WEXITSTATUS(wst) != 0))
		fail("the reader was not seen blocked in read() (watcher "
		     "status %#x)", wst);
	waitpid(pid, &st, 0);
	close(fd);
	munmap((void *)released, sizeof(*released));
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
