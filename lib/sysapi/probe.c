/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * probe.c - ask the running kernel once what it offers; CPU and thread
 * lists read from /sys and /proc.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>
#include <sysapi/probe.h>
#include "base/array.h"
#include "sysapi-internal.h"

static struct pc_probe probe;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static int read_int_file(const char *path, int fallback)
{
	long v;

	return pc_read_long(path, &v) == 0 ? (int)v : fallback;
}

int pc_probe_open(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = attr->type, .config = attr->config,
		.exclude_user = attr->exclude_user,
		.exclude_kernel = attr->exclude_kernel,
		.exclude_hv = attr->exclude_hv, .disabled = 1,
	};
	int fd = pc_sys_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM) && !a.exclude_kernel) {
		/* An unprivileged user may still count it in user space. */
		a.exclude_kernel = a.exclude_hv = 1;
		fd = pc_sys_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* In user space, as any user may count. */
static bool can_open(uint32_t type, uint64_t config)
{
	struct perf_event_attr a = {
		.type = type, .config = config,
		.exclude_kernel = 1, .exclude_hv = 1,
	};

	return pc_probe_open(&a) == 0;
}

/* Whether read_format may ask for PERF_FORMAT_LOST (EINVAL before 6.0). */
static bool can_read_lost(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
		.read_format = PERF_FORMAT_LOST,
	};
	int fd = pc_sys_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool has_cap_perfmon(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	/* CAP_PERFMON is 38 (second word), CAP_SYS_ADMIN 21. */
	return (data[1].effective & (1u << (38 - 32))) ||
	       (data[0].effective & (1u << 21));
}

static void probe_init(void)
{
	int *cpus = NULL, n;

	probe.perf_event = can_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	probe.hw_pmu = can_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	probe.format_lost = probe.perf_event && can_read_lost();
	probe.legacy_nr = perf_counter_syscall_nr();
	probe.legacy = probe.legacy_nr >= 0;
	probe.paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid", 2);
	probe.max_sample_rate =
		read_int_file("/proc/sys/kernel/perf_event_max_sample_rate", 0);
	probe.mlock_kb = read_int_file("/proc/sys/kernel/perf_event_mlock_kb", 0);
	probe.kptr_restrict = read_int_file("/proc/sys/kernel/kptr_restrict", 1);
	probe.cap_perfmon = has_cap_perfmon();
	n = pc_cpus_online(&cpus);
	probe.ncpus = n > 0 ? n : 1;
	free(cpus);
}

const struct pc_probe *pc_probe(void)
{
	int err = errno;

	pthread_once(&probe_once, probe_init);
	errno = err;
	return &probe;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

#define CPU_MAX 8192

int pc_cpulist_parse(const char *str, int **cpus, size_t *errpos)
{
	const char *p = str;
	int *out = NULL, n = 0;
	size_t alloc = 0;

	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= CPU_MAX) {
			p = end;
			goto bad;
		}
		for (long c = lo; c <= hi; c++) {
			if (ARRAY_GROW(out, (size_t)n + 1, alloc) != 0) {
				free(out);
				return -1;
			}
			out[n++] = (int)c;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p == '\n' && !p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (n == 0)
		goto bad;
	qsort(out, (size_t)n, sizeof(*out), cmp_int);
	{
		int w = 1;

		for (int i = 1; i < n; i++)
			if (out[i] != out[w - 1])
				out[w++] = out[i];
		n = w;
	}
	*cpus = out;
	return n;
bad:
	free(out);
	if (errpos)
		*errpos = (size_t)(p - str);
	errno = EINVAL;
	return -1;
}

int pc_cpus_online(int **cpus)
{
	char buf[4096];

	if (pc_read_small("/sys/devices/system/cpu/online", buf,
			  sizeof(buf)) < 0) {
		long c;

		if (errno == EIO)
			return -1;
		/* No sysfs: fall back to what the C library counts. */
		c = sysconf(_SC_NPROCESSORS_ONLN);
		snprintf(buf, sizeof(buf), "0-%ld", c > 0 ? c - 1 : 0);
	}
	return pc_cpulist_parse(buf, cpus, NULL);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int pc_task_threads(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *de;
	pid_t *out = NULL;
	size_t alloc = 0;
	int n = 0;
	DIR *d;

	if (pid <= 0) {
		errno = ESRCH;
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		if (errno == ENOENT)
			errno = ESRCH;
		return -1;
	}
	while ((de = readdir(d))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);

		if (*end || t <= 0)
			continue;
		if (ARRAY_GROW(out, (size_t)n + 1, alloc) != 0) {
			free(out);
			closedir(d);
			errno = ENOMEM;
			return -1;
		}
		out[n++] = (pid_t)t;
	}
	closedir(d);
	if (n == 0) {		/* a zombie: the task is gone */
		free(out);
		errno = ESRCH;
		return -1;
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_pid);
	*tids = out;
	return n;
}
