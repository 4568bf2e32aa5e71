/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ring.h - typed records from a sampling counter's mmap ring buffer.
 *
 * The reader copies each record out of the ring (so records that straddle
 * the end of the buffer come out whole), then advances data_tail with a
 * release barrier so the kernel may reuse the space.  Pointers inside a
 * record (callchain, filename, stack...) stay valid until the next call
 * on the same ring.
 */
#ifndef SYSAPI_RING_H
#define SYSAPI_RING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pc_ring;

/* A sample; fields the counter did not ask for are zero. */
struct pc_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;		/* ns, perf clock */
	uint32_t cpu;
	uint32_t raw_size;	/* PERF_SAMPLE_RAW: bytes at raw (a
				   tracepoint's record: its format in
				   tracefs says how to read it) */
	uint64_t period;	/* events it stands for: the record's
				   (freq), else the attr's period */
	uint64_t id;
	uint64_t nr_callchain;	/* PERF_SAMPLE_CALLCHAIN */
	const uint64_t *callchain;
	uint64_t regs_abi;	/* PERF_SAMPLE_REGS_USER: 0 = none */
	uint64_t nr_regs;
	const uint64_t *regs;	/* in ascending bit order of the mask */
	uint64_t stack_size;	/* PERF_SAMPLE_STACK_USER: bytes copied */
	uint64_t stack_dyn_size;/* bytes of them that are valid */
	const uint8_t *stack;
	const uint8_t *raw;	/* NULL without PERF_SAMPLE_RAW */
	/*
	 * PERF_SAMPLE_READ, as the ring's counter's read_format says: the
	 * counts at the sample, nr_read of them (1 without
	 * PERF_FORMAT_GROUP; with it the leader's, then its members' in
	 * the order they joined), count i at read[i * read_stride] and,
	 * with PERF_FORMAT_GROUP and PERF_FORMAT_ID, its id right after.
	 * The times are zero unless read_format asked for them.
	 */
	uint64_t read_enabled, read_running;
	uint32_t nr_read, read_stride;
	const uint64_t *read;
};

/* The sample_id trailer of non-sample records (when sample_id_all). */
struct pc_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
};

struct pc_record {
	uint32_t type;		/* PERF_RECORD_* */
	uint16_t misc;		/* PERF_RECORD_MISC_* (cpumode & 7 says
				   kernel/user/hypervisor/guest) */
	uint16_t size;
	struct pc_sample_id id;
	union {
		struct pc_sample sample;	/* PERF_RECORD_SAMPLE */
		struct {			/* MMAP and MMAP2 */
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;	/* 0 for plain MMAP */
			uint8_t build_id_size;	/* >0: build_id valid
						   instead of maj..ino_gen */
			uint8_t build_id[20];
			const char *filename;
		} mmap;
		struct {			/* COMM */
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {			/* FORK and EXIT */
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task;
		struct {			/* LOST */
			uint64_t id, lost;
		} lost;
		struct {			/* THROTTLE and UNTHROTTLE */
			uint64_t time, id, stream_id;
		} throttle;
		struct {			/* SWITCH and SWITCH_CPU_WIDE:
						   the task switching is id's
						   pid/tid (sample_id_all);
						   misc's SWITCH_OUT says out
						   (else in), SWITCH_OUT_PREEMPT
						   that it was preempted */
			uint32_t next_prev_pid;	/* CPU-wide only: the task */
			uint32_t next_prev_tid;	/* switched to (out) or from
						   (in); 0 for SWITCH */
		} sw;
	};
};

/*
 * Take the next record.  Returns 1 with *rec filled, 0 when the ring is
 * empty, -1 with errno EBADMSG when the ring holds garbage: a record
 * whose fields overrun its size (the reader has moved past it), or a
 * record size that is zero, unaligned or past what the kernel wrote (no
 * record boundary can be trusted after it: everything written so far is
 * dropped).  Either way the next call goes on.  Unknown record types
 * are returned with only type/misc/size set.  Samples read from a
 * legacy IRQ counter carry ip, pid/tid (the target) and time (the read's
 * CLOCK_MONOTONIC).
 */
int pc_ring_next(struct pc_ring *ring, struct pc_record *rec);

/* Samples the kernel dropped, summed over LOST records (and, on the
   legacy backend, PERF_COUNTER_IOC_LOST). */
uint64_t pc_ring_lost(const struct pc_ring *ring);

/* Records returned so far, and the number of SAMPLE records among them. */
uint64_t pc_ring_records(const struct pc_ring *ring);
uint64_t pc_ring_samples(const struct pc_ring *ring);

/* Bytes in the data area of the ring (a power of two). */
size_t pc_ring_size(const struct pc_ring *ring);

/*
 * Positions in the ring's stream of records, in bytes since it was
 * mapped, for a reader that must know when everything the kernel wrote
 * before some moment has been taken: pc_ring_written() is how far the
 * kernel has written now, pc_ring_taken() how far pc_ring_next() has
 * read (a record taken ends there).  Both only grow; both are 0 on the
 * legacy backend, whose IPs come from read().
 */
uint64_t pc_ring_written(const struct pc_ring *ring);
uint64_t pc_ring_taken(const struct pc_ring *ring);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_RING_H */
