/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* error.c - the errno of a failed open, turned into a fix. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sysapi/error.h>
#include <sysapi/perf_counter.h>
#include <sysapi/event.h>
#include <sysapi/probe.h>

static bool is_hardware(const struct perf_event_attr *attr)
{
	return attr && (attr->type == PERF_TYPE_HARDWARE ||
			attr->type == PERF_TYPE_HW_CACHE ||
			attr->type == PERF_TYPE_RAW);
}

/* The highest perf_event_paranoid level at which an unprivileged user
   may open it: a CPU 0, a task's kernel space 1, its user space 2. */
static int allowed_at(const struct perf_event_attr *attr, enum pc_scope scope)
{
	bool kernel = !attr || !attr->exclude_kernel;

	return scope == PC_SCOPE_CPU ? 0 : kernel ? 1 : 2;
}

static void access_advice(const struct perf_event_attr *attr, char *buf,
			  size_t sz, const char *name, enum pc_scope scope)
{
	static const char *const scopes[] = {
		"CPU-wide counting of kernel space needs privilege",
		"unprivileged users may not count CPU-wide",
		"unprivileged users may count only user space of their own tasks",
		"perf events are closed to unprivileged users",
	};
	int paranoid = pc_probe()->paranoid, need;
	bool kernel = !attr || !attr->exclude_kernel;

	/* unknown: the narrowest scope the level refuses */
	if (scope == PC_SCOPE_GUESS)
		scope = paranoid == 1 || (paranoid == 2 && !kernel) ?
			PC_SCOPE_CPU : PC_SCOPE_TASK;
	need = allowed_at(attr, scope);
	if (paranoid <= need) {
		snprintf(buf, sz, "permission denied for %s though "
			 "perf_event_paranoid %d allows it: the task is another "
			 "user's, or a security module refuses; run as root or "
			 "grant CAP_PERFMON", name, paranoid);
		return;
	}
	snprintf(buf, sz,
		 "permission denied for %s: perf_event_paranoid is %d (%s); "
		 "run as root, grant CAP_PERFMON, or lower it with "
		 "'sysctl kernel.perf_event_paranoid=%d'%s",
		 name, paranoid, scopes[paranoid >= 3 ? 3 : paranoid < 0 ? 0 :
					paranoid], need,
		 scope == PC_SCOPE_TASK && kernel ?
		 (paranoid == 2 ? ", or count user space only with a ':u' "
				  "modifier" :
		  " (or to 2 and count user space only with a ':u' "
		  "modifier)") : "");
}

bool pc_errno_unsupported(int errnum)
{
	return errnum == ENOENT || errnum == EOPNOTSUPP || errnum == ENODEV ||
	       errnum == EINVAL || errnum == ENOSYS || errnum == E2BIG;
}

const char *pc_strerror(int errnum, const struct perf_event_attr *attr,
			char *buf, size_t sz)
{
	return pc_strerror_scope(errnum, attr, PC_SCOPE_GUESS, buf, sz);
}

const char *pc_strerror_scope(int errnum, const struct perf_event_attr *attr,
			      enum pc_scope scope, char *buf, size_t sz)
{
	char name[80] = "the event";

	if (sz == 0)
		return buf;
	if (attr) {
		char n[72];

		snprintf(name, sizeof(name), "'%s'", pc_event_name(attr, n, sizeof(n)));
	}
	switch (errnum) {
	case EACCES:
	case EPERM:
		access_advice(attr, buf, sz, name, scope);
		break;
	case ENOENT:
	case EOPNOTSUPP:
		if (errnum == EOPNOTSUPP && !is_hardware(attr) && attr &&
		    (attr->sample_period || attr->inherit))
			snprintf(buf, sz, "%s: this combination of options is not "
				 "supported by the kernel's backend (the 2008 "
				 "perf_counter_open counts one event, no groups, "
				 "no inherit, IP samples only)", name);
		else if (is_hardware(attr) || !attr)
			snprintf(buf, sz, "%s is not supported on this machine "
				 "(no hardware PMU for it, e.g. a VM); use a "
				 "software event such as cpu-clock or task-clock",
				 name);
		else
			snprintf(buf, sz, "%s is not supported by this kernel",
				 name);
		break;
	case ENODEV:
		snprintf(buf, sz, "%s: no such CPU or PMU on this machine", name);
		break;
	case ESRCH:
		snprintf(buf, sz, "no such process (the pid or tid does not "
			 "exist, or has exited)");
		break;
	case EMFILE:
		snprintf(buf, sz, "too many open files: one counter is one file "
			 "descriptor; raise the limit with 'ulimit -n' (now "
			 "too low for this many counters x CPUs x threads)");
		break;
	case ENFILE:
		snprintf(buf, sz, "the system's file table is full "
			 "(fs.file-max); close other programs or raise it");
		break;
	case EINVAL:
		snprintf(buf, sz, "the kernel rejected %s as invalid (a bad "
			 "CPU number, sample period above "
			 "perf_event_max_sample_rate (%d Hz), or an option this "
			 "kernel does not know)", name,
			 pc_probe()->max_sample_rate);
		break;
	case E2BIG:
		snprintf(buf, sz, "%s: the kernel is older than this program's "
			 "perf_event_attr; update the kernel", name);
		break;
	case ENOSYS:
		snprintf(buf, sz, "this kernel has no perf events system call "
			 "(CONFIG_PERF_EVENTS off, or a seccomp filter)");
		break;
	case EBUSY:
		snprintf(buf, sz, "%s: the PMU is in exclusive use by another "
			 "program", name);
		break;
	case ENOSPC:
		if (is_hardware(attr) || !attr)
			snprintf(buf, sz, "no hardware counter is left for this "
				 "task: the administrator keeps them for CPU-wide "
				 "counting (" PERF_COUNTER_RESOURCES
				 "/reserve_percpu, with overcommit 0); count "
				 "fewer hardware events, run with CAP_PERFMON, "
				 "or ask for a lower reservation");
		else
			snprintf(buf, sz, "no free slot for %s (all the "
				 "hardware breakpoints are in use)", name);
		break;
	case EMSGSIZE:
		snprintf(buf, sz, "too many events in one group for the PMU; "
			 "split the {group}");
		break;
	default:
		snprintf(buf, sz, "%s: %s", name, strerror(errnum));
		break;
	}
	return buf;
}
