/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sysapi-internal.h - what the files of lib/sysapi share; not installed. */
#ifndef SYSAPI_INTERNAL_H
#define SYSAPI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <sysapi/counter.h>
#include <sysapi/event.h>
#include <sysapi/ring.h>

/* syscall.c: the thin layer, one wrapper per call. fd or -1/errno.
   nr: the 2008 call's number on this kernel (perf_counter_syscall_nr). */
int pc_sys_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		      int group_fd, unsigned long flags);
int pc_sys_counter_open(long nr, int32_t type, uint32_t period,
			uint32_t record, pid_t pid, int cpu);

struct pc_counter {
	int fd;
	enum pc_backend backend;
	struct perf_event_attr attr;
	struct pc_counter *leader;	/* NULL when it leads */
	int nr_members;			/* members that joined (leader) */
	pid_t pid;
	struct timespec opened;		/* legacy: start of enabled time */
	bool legacy_no_times;		/* legacy: no PERF_COUNTER_IOC_READ */
	struct pc_ring *ring;
};

struct pc_ring {
	struct pc_counter *counter;
	void *base;			/* the mapping: header page + data */
	size_t map_len;			/* 0: base is not ours to unmap */
	uint8_t *data;
	size_t size;			/* data bytes, power of two */
	uint64_t sample_type;
	bool sample_id_all;
	uint64_t lost, records, samples;
	uint8_t *scratch;		/* one record, copied out whole */
	size_t scratch_len;
	uint64_t *ips;			/* legacy: IPs read but not handed out */
	size_t nips, ipos;
};

/* ring.c: the ring of c, mapped from its fd (EINVAL: data_pages not a
   power of two, or c does not sample); on the legacy backend, IPs read(). */
struct pc_ring *pc_ring_new(struct pc_counter *c, size_t data_pages);
/* A ring over memory the caller owns -- base holds a header page, then
   data_size bytes (a power of two) -- for tests that play the kernel.
   pc_ring_free() leaves base alone.  NULL with errno EINVAL or ENOMEM. */
struct pc_ring *pc_ring_new_memory(struct pc_counter *c, void *base,
				   size_t data_size);
void pc_ring_free(struct pc_ring *ring);

/* marker.c: a small file holding one decimal number (sysctl, marker):
   0 and *out, or -1 when absent or not just a number.  (The marker's
   number itself is the public perf_counter_syscall_nr().) */
int pc_read_long(const char *path, long *out);
/* marker.c: a small file (sysfs, tracefs) into buf, NUL-terminated, at
   most sz - 1 bytes: 0, or -1 with errno (EIO when empty). */
int pc_read_small(const char *path, char *buf, size_t sz);

/* event.c, for event-list.c: one event "NAME[:MODS]" of len bytes (see
   pc_event_parse()), and modifiers applied to attr (0, or the 1-based
   offset of the first bad one). */
int pc_event_parse_n(const char *str, size_t len,
		     struct perf_event_attr *attr, size_t *errpos);
size_t pc_event_modifiers(const char *mods, size_t len,
			  struct perf_event_attr *attr);

/*
 * event-error.c: fill e (when not NULL) with what is wrong at str[idx].
 * ev_error_set() is the general form (help may be NULL); the others
 * are the parser's cases: unbalanced braces; bad modifiers in token tok
 * (len bytes), whose name is its first name_len bytes and whose
 * modifiers start at tok[mods]; a name neither the tables nor the
 * resolver (asked about its first resolved_len bytes) know; a resolver
 * that failed with err.
 */
void ev_error_set(struct pc_event_error *e, size_t idx, int err,
		  const char *help, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void ev_error_braces(struct pc_event_error *e, const char *str, size_t idx);
void ev_error_modifier(struct pc_event_error *e, const char *tok,
		       size_t len, size_t name_len, size_t mods, size_t idx);
void ev_error_unknown(struct pc_event_error *e, const char *tok, size_t len,
		      size_t resolved_len, size_t idx);
void ev_error_resolver(struct pc_event_error *e, const char *str,
		       const char *tok, size_t len, int err, size_t idx);

/* probe.c: can attr's event (type, config, exclude bits) be opened here?
   Opens a disabled copy on the calling thread and closes it; where the
   kernel refuses, user space alone is tried as an unprivileged user
   would count.  0 when it opens, else the errno. */
int pc_probe_open(const struct perf_event_attr *attr);

/* legacy.c: attr to the 2008 call's type, or -1/EOPNOTSUPP. */
int pc_legacy_type(const struct perf_event_attr *attr, int32_t *type);
bool pc_legacy_wanted(void);

#endif
