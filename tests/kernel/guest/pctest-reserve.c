/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctest-reserve.c - the 2008 resource controls,
 * /sys/devices/system/cpu/perf_counters/{reserve_percpu,overcommit}: their
 * range checks and permissions (every guest), and where the guest has a
 * PMU their effect on an unprivileged task's hardware counters: with N of
 * the PMU's counters reserved, at most (counters - N) of them run at once,
 * the others taking turns (overcommit 1) or refused with ENOSPC
 * (overcommit 0), while root and CPU-wide counters are not limited.
 *
 * The number of counters is found independently of the kernel's answer:
 * the largest group of `instructions` events that perf_event_open() can
 * schedule (0 without a PMU).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>

#include "pctest.h"

#define RESERVE		"/sys/devices/system/cpu/perf_counters/reserve_percpu"
#define OVERCOMMIT	"/sys/devices/system/cpu/perf_counters/overcommit"
/* hw_loop passes of the workload: 8 instructions each */
#define LOOP_N		10000000ull

static int ncounters;		/* the PMU's event counters */
/* Shared with the unprivileged children: the loop's exact count. */
static uint64_t *loop_count;

/* Write s to a sysfs file: 0, or the errno of the open or the write. */
static int sysfs_set(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

static void set_reservation(int reserve, int overcommit)
{
	char s[16];
	int err;

	snprintf(s, sizeof(s), "%d", reserve);
	err = sysfs_set(RESERVE, s);
	if (!err)
		err = sysfs_set(OVERCOMMIT, overcommit ? "1" : "0");
	if (err)
		fail("set reserve_percpu %d, overcommit %d: %s", reserve,
		     overcommit, strerror(err));
}

/* An instructions event for perf_event_open(), counting user space. */
static int insn_event(pid_t pid, int cpu, int group, uint64_t read_format)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = read_format;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, group, 0);
}

/* The largest group of instructions events that runs: the PMU's counters. */
static int count_pmu_counters(void)
{
	int fds[33], k, n = 0;

	for (k = 1; k < 33; k++) {
		uint64_t v[3] = { 0 };
		int i, ok = 1;

		for (i = 0; i < k && ok; i++) {
			fds[i] = insn_event(0, -1, i ? fds[0] : -1,
					    PERF_FORMAT_TOTAL_TIME_RUNNING);
			ok = fds[i] >= 0;
		}
		if (ok) {
			busy(5);
			ok = read(fds[0], v, sizeof(v)) > 0 && v[1] > 0;
		} else {
			i--;
		}
		while (i-- > 0)
			close(fds[i]);
		if (!ok)
			break;
		n = k;
	}
	return n;
}

void t_reserve_files(void)
{
	struct stat st;
	long r = read_long(RESERVE), o = read_long(OVERCOMMIT);

	if (stat(RESERVE, &st) || (st.st_mode & 07777) != 0644 || st.st_uid)
		fail(RESERVE ": not a root-owned 0644 file");
	if (stat(OVERCOMMIT, &st) || (st.st_mode & 07777) != 0644 || st.st_uid)
		fail(OVERCOMMIT ": not a root-owned 0644 file");
	if (r != 0 || o != 1)
		fail("defaults: reserve_percpu %ld, overcommit %ld; expected "
		     "0 and 1", r, o);
}

/* Writes in range stick, the 2008 range checks refuse the others. */
void t_reserve_ranges(void)
{
	static const char *const bad_reserve[] = { "-1", "abc", " 1", "1x" };
	static const char *const bad_overcommit[] = { "2", "-1", "yes" };
	char s[16];
	int err;

	printf("# %d counters in the PMU (the largest instructions group)\n",
	       ncounters);
	snprintf(s, sizeof(s), "%d", ncounters + 1);
	err = sysfs_set(RESERVE, s);
	if (err != EINVAL)
		fail("reserve_percpu %s (above the %d counters): %s, expected "
		     "EINVAL", s, ncounters, err ? strerror(err) : "accepted");
	for (size_t i = 0; i < sizeof(bad_reserve) / sizeof(*bad_reserve); i++)
		if ((err = sysfs_set(RESERVE, bad_reserve[i])) != EINVAL)
			fail("reserve_percpu '%s': %s, expected EINVAL",
			     bad_reserve[i], err ? strerror(err) : "accepted");
	for (size_t i = 0; i < sizeof(bad_overcommit) / sizeof(*bad_overcommit); i++)
		if ((err = sysfs_set(OVERCOMMIT, bad_overcommit[i])) != EINVAL)
			fail("overcommit '%s': %s, expected EINVAL",
			     bad_overcommit[i], err ? strerror(err) : "accepted");
	snprintf(s, sizeof(s), "%d\n", ncounters);
	if ((err = sysfs_set(RESERVE, s)) || read_long(RESERVE) != ncounters)
		fail("reserve_percpu %d did not stick: %s", ncounters,
		     strerror(err));
	if ((err = sysfs_set(OVERCOMMIT, "0")) || read_long(OVERCOMMIT) != 0)
		fail("overcommit 0 did not stick: %s", strerror(err));
	set_reservation(0, 1);
	if (read_long(RESERVE) != 0 || read_long(OVERCOMMIT) != 1)
		fail("could not restore reserve_percpu 0, overcommit 1");
}

static int u_write_eacces(void)
{
	int e1 = sysfs_set(RESERVE, "0"), e2 = sysfs_set(OVERCOMMIT, "1");

	if (e1 != EACCES || e2 != EACCES)
		return printf("# nobody writing: %s, %s; expected EACCES\n",
			      strerror(e1), strerror(e2)), 1;
	return 0;
}

/*
 * Open `want` 2008 instructions counters on a loop_child(LOOP_N), run it
 * and read them into v, and their times into t (PERF_COUNTER_IOC_READ)
 * unless t is NULL.  Returns how many opened (the first failure's errno in
 * *err), or -1 when the child could not start.
 */
static int count_loop_n(int want, uint64_t *v, struct perf_counter_read *t,
			int *err)
{
	int fds[8], go, st, n;
	pid_t pid = loop_child(LOOP_N, &go);

	if (pid < 0)
		return -1;
	*err = 0;
	for (n = 0; n < want; n++) {
		fds[n] = pco(PERF_COUNT_INSTRUCTIONS, 0, PERF_RECORD_SIMPLE,
			     pid, -1);
		if (fds[n] < 0) {
			*err = errno;
			break;
		}
	}
	worker_go(go);
	waitpid(pid, &st, 0);
	for (int i = 0; i < n; i++) {
		v[i] = rd(fds[i]);
		if (t && ioctl(fds[i], PERF_COUNTER_IOC_READ, &t[i]))
			fail("PERF_COUNTER_IOC_READ: %s", strerror(errno));
		else if (t && t[i].value != v[i])
			fail("PERF_COUNTER_IOC_READ: count %llu, read() %llu",
			     (unsigned long long)t[i].value,
			     (unsigned long long)v[i]);
		close(fds[i]);
	}
	return n;
}

/* The user-space instructions of loop_child(LOOP_N): 8n + a small c. */
static int exact(uint64_t v)
{
	return v >= 8 * LOOP_N && v <= 8 * LOOP_N + 1000;
}

/*
 * reserve (counters - 2), overcommit 1: three counters of an unprivileged
 * task take turns on two counters.  None counts everything, and as two
 * run at every moment of the task's user space, together they count it
 * twice (to within 0.1%, although icount makes it exact).
 */
static int u_takes_turns(void)
{
	uint64_t v[3], sum, want = 2 * *loop_count;
	struct perf_counter_read t[3];
	int err, n = count_loop_n(3, v, t, &err);

	if (n != 3)
		return printf("# open counter %d: %s\n", n + 1,
			      strerror(err)), 1;
	sum = v[0] + v[1] + v[2];
	printf("# 3 counters on 2: %llu %llu %llu of %llu, sum %llu\n",
	       (unsigned long long)v[0], (unsigned long long)v[1],
	       (unsigned long long)v[2], (unsigned long long)*loop_count,
	       (unsigned long long)sum);
	for (int i = 0; i < 3; i++)
		if (v[i] > *loop_count * 9 / 10 || v[i] < *loop_count / 3)
			return printf("# counter %d did not take turns\n",
				      i + 1), 1;
	if (!*loop_count || sum < want - want / 1000 || sum > want + want / 1000)
		return printf("# the sum is not twice the loop's %llu\n",
			      (unsigned long long)*loop_count), 1;
	/* each ran part of the time, and scales to the loop within 1% */
	for (int i = 0; i < 3; i++) {
		double est = t[i].time_running ? (double)t[i].value *
			     t[i].time_enabled / t[i].time_running : 0;

		printf("# counter %d: ran %llu of %llu ns, scaled %.0f\n",
		       i + 1, (unsigned long long)t[i].time_running,
		       (unsigned long long)t[i].time_enabled, est);
		if (t[i].time_running >= t[i].time_enabled ||
		    est < *loop_count * 0.99 || est > *loop_count * 1.01)
			return printf("# counter %d: times do not scale it\n",
				      i + 1), 1;
	}
	return why[0] != 0;
}

/* With nothing reserved, the same three count everything. */
static int u_unlimited(void)
{
	uint64_t v[3];
	struct perf_counter_read t[3];
	int err, n = count_loop_n(3, v, t, &err);

	if (n != 3)
		return printf("# open counter %d: %s\n", n + 1,
			      strerror(err)), 1;
	printf("# reserve 0: %llu %llu %llu\n", (unsigned long long)v[0],
	       (unsigned long long)v[1], (unsigned long long)v[2]);
	if (!exact(v[0]) || v[1] != v[0] || v[2] != v[0] || why[0])
		return 1;
	for (int i = 0; i < 3; i++)
		if (!t[i].time_enabled || t[i].time_running != t[i].time_enabled)
			return printf("# counter %d ran %llu of %llu ns\n", i + 1,
				      (unsigned long long)t[i].time_running,
				      (unsigned long long)t[i].time_enabled), 1;
	*loop_count = v[0];
	return 0;
}

/* overcommit 0: the third is refused with ENOSPC; the two count it all. */
static int u_enospc(void)
{
	uint64_t v[3] = { 0 };
	int err, n = count_loop_n(3, v, NULL, &err);

	printf("# overcommit 0: %d opened, then %s; %llu %llu\n", n,
	       strerror(err), (unsigned long long)v[0],
	       (unsigned long long)v[1]);
	if (n != 2 || err != ENOSPC)
		return printf("# expected 2 and ENOSPC\n"), 1;
	return v[0] != *loop_count || v[1] != v[0] || why[0];
}

/* Every counter reserved, overcommit 0: not one is left. */
static int u_all_reserved(void)
{
	uint64_t v[1];
	int err, n = count_loop_n(1, v, NULL, &err);

	if (n != 0 || err != ENOSPC)
		return printf("# all reserved: %d opened (%s), expected ENOSPC\n",
			      n, strerror(err)), 1;
	return 0;
}

/* Root's counters are not limited by the reservation. */
static void t_reserve_root(void)
{
	uint64_t v[3];
	int err, n;

	set_reservation(ncounters - 2, 0);
	n = count_loop_n(3, v, NULL, &err);
	set_reservation(0, 1);
	if (n != 3)
		return fail("root, reserve %d, overcommit 0: counter %d: %s",
			    ncounters - 2, n + 1, strerror(err));
	/* the three run all the time: they count the same instructions */
	if (v[1] != v[0] || v[2] != v[0] || v[0] < 8 * LOOP_N)
		fail("root's counters: %llu %llu %llu",
		     (unsigned long long)v[0], (unsigned long long)v[1],
		     (unsigned long long)v[2]);
}

/*
 * The reservation's purpose: root's CPU-wide counters on the reserved
 * counters run all the time beside the unprivileged task's.
 */
static void t_reserve_cpu_wide(void)
{
	uint64_t fmt = PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING;
	int reserved = ncounters - 2, fds[32], n, err = 0;

	for (n = 0; n < reserved; n++) {
		fds[n] = insn_event(-1, 0, -1, fmt);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
	}
	set_reservation(reserved, 1);
	unpriv("reserve-overcommit-takes-turns", u_takes_turns, "2");
	set_reservation(0, 1);

	cur = "reserve-cpu-wide-keeps-its-counters";
	why[0] = '\0';
	if (err)
		fail("CPU-wide counter %d: %s", n + 1, strerror(err));
	for (int i = 0; i < n; i++) {
		uint64_t v[3] = { 0 };

		if (read(fds[i], v, sizeof(v)) != sizeof(v))
			fail("read CPU-wide counter %d: %s", i + 1,
			     strerror(errno));
		else if (v[1] == 0 || v[2] != v[1])
			fail("CPU-wide counter %d ran %llu of %llu ns", i + 1,
			     (unsigned long long)v[2],
			     (unsigned long long)v[1]);
		close(fds[i]);
	}
	report();
}

static void run_test(const char *name, void (*fn)(void))
{
	cur = name;
	why[0] = '\0';
	fn();
	report();
}

void reserve_tests(void)
{
	loop_count = mmap(NULL, sizeof(*loop_count), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (loop_count == MAP_FAILED) {
		printf("# mmap: %s\n", strerror(errno));
		return;
	}
	*loop_count = 0;
	ncounters = count_pmu_counters();
	run_test("reserve-files-0644-defaults", t_reserve_files);
	run_test("reserve-range-checks", t_reserve_ranges);
	unpriv("reserve-unpriv-write-eacces", u_write_eacces, "2");
	if (ncounters < 3) {
		printf("# %d hardware counters: the reservation's effect is "
		       "shown where the guest has a PMU (arm64)\n", ncounters);
		return;
	}
	unpriv("reserve-none-all-count", u_unlimited, "2");
	t_reserve_cpu_wide();
	set_reservation(ncounters - 2, 0);
	unpriv("reserve-no-overcommit-enospc", u_enospc, "2");
	set_reservation(ncounters, 0);
	unpriv("reserve-all-enospc", u_all_reserved, "2");
	set_reservation(0, 1);
	run_test("reserve-root-not-limited", t_reserve_root);
}
