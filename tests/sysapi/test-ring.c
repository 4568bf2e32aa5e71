/*
 * test-ring: the ring reader on records we write ourselves, on any machine.
 * The test plays the kernel (data pages of a real ring are read-only to
 * user space): a ring of one data page in plain memory, records written at
 * data_head (straddling the end, with build-ids and sample_id trailers,
 * with garbage sizes), then read back through pc_ring_next().
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sysapi/sysapi.h>
#include "sysapi/sysapi-internal.h"
#include "../check.h"

static struct perf_event_mmap_page *pg;
static uint8_t *data;
static size_t size;

/* Append len bytes at the kernel's head, wrapping as the kernel does. */
static void put(const void *rec, size_t len)
{
	uint64_t head = pg->data_head;

	for (size_t i = 0; i < len; i++)
		data[(head + i) & (size - 1)] = ((const uint8_t *)rec)[i];
	__atomic_store_n(&pg->data_head, head + len, __ATOMIC_RELEASE);
}

/* Move head and tail together so the next record starts at off. */
static void place_at(size_t off)
{
	uint64_t t = pg->data_tail;
	uint64_t next = (t & ~(uint64_t)(size - 1)) + size + off;

	pg->data_head = next;
	pg->data_tail = next;
}

/* IP|TID|TIME|CPU|PERIOD|CALLCHAIN, as pc_attr_sampling() asks with a
   frequency (no PERIOD with a fixed period: with_period false). */
static size_t sample_with(uint64_t *w, uint64_t ip, uint64_t nr,
			  bool with_period)
{
	size_t n = 1;

	w[n++] = ip;
	w[n++] = 42 | (uint64_t)43 << 32;	/* pid, tid */
	w[n++] = 1000;				/* time */
	w[n++] = 1;				/* cpu */
	if (with_period)
		w[n++] = 250000;		/* period */
	w[n++] = nr;
	for (uint64_t i = 0; i < nr && n < 64; i++)
		w[n++] = 0xffffffff81000000ull + i;
	w[0] = PERF_RECORD_SAMPLE | (uint64_t)PERF_RECORD_MISC_USER << 32 |
	       (uint64_t)(n * 8) << 48;
	return n * 8;
}

static size_t sample(uint64_t *w, uint64_t ip, uint64_t nr)
{
	return sample_with(w, ip, nr, true);
}

/*
 * A fixed period is not asked of the kernel (a software event would be
 * sampled at every event): the reader fills it in from the attr.
 */
static void fixed_period(long page)
{
	struct pc_counter counter = { .fd = -1 };
	struct pc_ring *ring;
	struct pc_record rec;
	uint64_t w[16];
	void *base;

	pc_attr_sampling(&counter.attr, 100, false, PERF_SAMPLE_CALLCHAIN);
	CHECK(!(counter.attr.sample_type & PERF_SAMPLE_PERIOD) &&
	      counter.attr.sample_period == 100 && !counter.attr.freq,
	      "a fixed period asks for PERF_SAMPLE_PERIOD");
	base = calloc(2, (size_t)page);
	ring = base ? pc_ring_new_memory(&counter, base, (size_t)page) : NULL;
	if (!ring)
		SKIP("out of memory");
	pg = base;
	data = (uint8_t *)base + page;
	size = (size_t)page;
	put(w, sample_with(w, 0x406000, 2, false));
	CHECK(pc_ring_next(ring, &rec) == 1 && rec.sample.ip == 0x406000 &&
	      rec.sample.period == 100 && rec.sample.nr_callchain == 2,
	      "fixed period: period %llu, %llu frames",
	      (unsigned long long)rec.sample.period,
	      (unsigned long long)rec.sample.nr_callchain);
	pc_ring_free(ring);
	free(base);
}

/*
 * PERF_SAMPLE_RAW: a tracepoint's record comes out as raw/raw_size (u32
 * size, the bytes, padding to 8), straddling the end of the buffer too;
 * a size past the record's end is refused, never read past.
 */
static void raw_record(long page)
{
	static const uint8_t rec_raw[12] = "\x48\x01\x00\x00kt-nap\0\0";
	struct pc_counter counter = { .fd = -1 };
	struct pc_ring *ring;
	struct pc_record rec;
	uint64_t w[16];
	uint32_t sz = sizeof(rec_raw);
	void *base;
	size_t n = 1;

	pc_attr_sampling(&counter.attr, 1, false, PERF_SAMPLE_RAW);
	base = calloc(2, (size_t)page);
	ring = base ? pc_ring_new_memory(&counter, base, (size_t)page) : NULL;
	if (!ring)
		SKIP("out of memory");
	pg = base;
	data = (uint8_t *)base + page;
	size = (size_t)page;
	CHECK(counter.attr.sample_type & PERF_SAMPLE_RAW,
	      "PERF_SAMPLE_RAW not asked");
	place_at(size - 40);
	w[n++] = 0x401000;			/* ip */
	w[n++] = 42 | (uint64_t)43 << 32;	/* pid, tid */
	w[n++] = 1000;				/* time */
	w[n++] = 1;				/* cpu */
	memcpy(&w[n], &sz, 4);			/* raw: 4 + 12 bytes */
	memcpy((uint8_t *)&w[n] + 4, rec_raw, sizeof(rec_raw));
	n += 2;
	w[0] = PERF_RECORD_SAMPLE | (uint64_t)(n * 8) << 48;
	put(w, n * 8);
	CHECK(pc_ring_next(ring, &rec) == 1 && rec.sample.raw &&
	      rec.sample.raw_size == sizeof(rec_raw) &&
	      !memcmp(rec.sample.raw, rec_raw, sizeof(rec_raw)) &&
	      rec.sample.tid == 43,
	      "raw record: size %u", (unsigned)rec.sample.raw_size);

	/* a raw size of 64 in a record of 48 bytes */
	sz = 64;
	memcpy(&w[5], &sz, 4);
	put(w, n * 8);
	CHECK(pc_ring_next(ring, &rec) == -1 && errno == EBADMSG,
	      "a raw size past the record read");
	CHECK(pc_ring_next(ring, &rec) == 0, "ring not empty after it");
	pc_ring_free(ring);
	free(base);
}

/*
 * PERF_SAMPLE_READ of a group leader (PERF_FORMAT_GROUP | ID | times):
 * nr, the times, then value and id per counter, before the call chain;
 * a count past the record's end is refused.  Alone (no GROUP), the
 * value then its times.
 */
static void read_record(long page)
{
	struct pc_counter counter = { .fd = -1 };
	struct pc_ring *ring;
	struct pc_record rec;
	uint64_t w[32];
	void *base;
	size_t n = 1;

	pc_attr_sampling(&counter.attr, 100, false,
			 PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN);
	counter.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	base = calloc(2, (size_t)page);
	ring = base ? pc_ring_new_memory(&counter, base, (size_t)page) : NULL;
	if (!ring)
		SKIP("out of memory");
	pg = base;
	data = (uint8_t *)base + page;
	size = (size_t)page;
	place_at(size - 48);			/* the counts straddle */
	w[n++] = 0x401000;			/* ip */
	w[n++] = 42 | (uint64_t)43 << 32;	/* pid, tid */
	w[n++] = 1000;				/* time */
	w[n++] = 1;				/* cpu */
	w[n++] = 2;				/* read: nr */
	w[n++] = 5000;				/* enabled */
	w[n++] = 4000;				/* running */
	w[n++] = 1000000;			/* leader value, id */
	w[n++] = 7;
	w[n++] = 33;				/* member value, id */
	w[n++] = 8;
	w[n++] = 1;				/* callchain */
	w[n++] = 0x401000;
	w[0] = PERF_RECORD_SAMPLE | (uint64_t)(n * 8) << 48;
	put(w, n * 8);
	CHECK(pc_ring_next(ring, &rec) == 1 && rec.sample.nr_read == 2 &&
	      rec.sample.read_stride == 2 && rec.sample.read[0] == 1000000 &&
	      rec.sample.read[1] == 7 && rec.sample.read[2] == 33 &&
	      rec.sample.read[3] == 8 && rec.sample.read_enabled == 5000 &&
	      rec.sample.read_running == 4000 &&
	      rec.sample.nr_callchain == 1 &&
	      rec.sample.callchain[0] == 0x401000,
	      "group read: %u counts", (unsigned)rec.sample.nr_read);

	w[5] = 9;				/* nr past the record */
	put(w, n * 8);
	CHECK(pc_ring_next(ring, &rec) == -1 && errno == EBADMSG,
	      "a group read past the record read");
	w[5] = 0;				/* no leader */
	put(w, n * 8);
	CHECK(pc_ring_next(ring, &rec) == -1 && errno == EBADMSG,
	      "a group read of no counts taken");

	counter.attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_ID;
	pc_ring_free(ring);
	ring = pc_ring_new_memory(&counter, base, (size_t)page);
	if (!ring)
		SKIP("out of memory");
	n = 5;
	w[n++] = 777;				/* value, enabled, id */
	w[n++] = 5000;
	w[n++] = 9;
	w[n++] = 0;				/* callchain */
	w[0] = PERF_RECORD_SAMPLE | (uint64_t)(n * 8) << 48;
	put(w, n * 8);
	CHECK(pc_ring_next(ring, &rec) == 1 && rec.sample.nr_read == 1 &&
	      rec.sample.read[0] == 777 && rec.sample.read_enabled == 5000 &&
	      rec.sample.nr_callchain == 0,
	      "single read: %u counts", (unsigned)rec.sample.nr_read);
	pc_ring_free(ring);
	free(base);
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct pc_counter counter = { .fd = -1 };
	struct pc_ring *ring;
	struct pc_record rec;
	void *base;
	uint64_t w[64];
	size_t len;

	/* A sampling counter's ring, over a header page and one data page
	   of plain memory. */
	pc_attr_sampling(&counter.attr, 4000, true, PERF_SAMPLE_CALLCHAIN);
	CHECK(counter.attr.sample_type & PERF_SAMPLE_PERIOD,
	      "a frequency does not ask for PERF_SAMPLE_PERIOD");
	base = calloc(2, (size_t)page);
	ring = base ? pc_ring_new_memory(&counter, base, (size_t)page) : NULL;
	if (!ring)
		SKIP("out of memory");
	pg = base;
	data = (uint8_t *)base + page;
	size = (size_t)page;

	/* A sample that straddles the end of the buffer comes out whole. */
	place_at(size - 24);
	len = sample(w, 0x401000, 5);
	put(w, len);
	CHECK(pc_ring_next(ring, &rec) == 1, "straddling sample not read");
	CHECK(rec.type == PERF_RECORD_SAMPLE && rec.size == len &&
	      rec.sample.ip == 0x401000 && rec.sample.pid == 42 &&
	      rec.sample.tid == 43 && rec.sample.period == 250000 &&
	      rec.sample.nr_callchain == 5 && rec.sample.callchain &&
	      rec.sample.callchain[4] == 0xffffffff81000004ull,
	      "straddling sample: ip %llx nr %llu",
	      (unsigned long long)rec.sample.ip,
	      (unsigned long long)rec.sample.nr_callchain);
	CHECK(pc_ring_next(ring, &rec) == 0, "ring not empty after it");
	CHECK(pg->data_tail == pg->data_head, "data_tail not advanced");

	/* MMAP2 with a build-id, then its sample_id trailer. */
	{
		uint64_t m[32] = { 0 };
		size_t n = 1;
		char *name;

		m[n++] = 7 | (uint64_t)8 << 32;		/* pid, tid */
		m[n++] = 0x400000;			/* addr */
		m[n++] = 0x2000;			/* len */
		m[n++] = 0;				/* pgoff */
		memset(&m[n], 0, 24);
		((uint8_t *)&m[n])[0] = 20;		/* build_id_size */
		memset((uint8_t *)&m[n] + 4, 0xab, 20);
		n += 3;
		m[n++] = 5 | (uint64_t)2 << 32;		/* prot, flags */
		name = (char *)&m[n];
		strcpy(name, "/usr/bin/x");		/* 11 bytes, pad 16 */
		n += 2;
		m[n++] = 7 | (uint64_t)8 << 32;		/* trailer: pid, tid */
		m[n++] = 5555;				/* time */
		m[n++] = 1;				/* cpu */
		m[0] = PERF_RECORD_MMAP2 | (uint64_t)(PERF_RECORD_MISC_USER |
		       PERF_RECORD_MISC_MMAP_BUILD_ID) << 32 | (uint64_t)(n * 8) << 48;
		put(m, n * 8);
		CHECK(pc_ring_next(ring, &rec) == 1, "MMAP2 not read: %s",
		      strerror(errno));
		CHECK(rec.type == PERF_RECORD_MMAP2 && rec.mmap.pid == 7 &&
		      rec.mmap.addr == 0x400000 && rec.mmap.len == 0x2000 &&
		      rec.mmap.build_id_size == 20 &&
		      rec.mmap.build_id[19] == 0xab && rec.mmap.prot == 5 &&
		      rec.mmap.flags == 2 && rec.mmap.filename &&
		      !strcmp(rec.mmap.filename, "/usr/bin/x"),
		      "MMAP2 fields");
		CHECK(rec.id.pid == 7 && rec.id.tid == 8 && rec.id.time == 5555 &&
		      rec.id.cpu == 1, "sample_id trailer: time %llu",
		      (unsigned long long)rec.id.time);
	}

	/* SWITCH_CPU_WIDE: the task switched to, then the sample_id of
	   the task switching out (preempted); SWITCH: the trailer alone. */
	{
		uint64_t sw[6] = {
			PERF_RECORD_SWITCH_CPU_WIDE |
			(uint64_t)(PERF_RECORD_MISC_SWITCH_OUT |
				   PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) << 32 |
			(uint64_t)40 << 48,
			300 | (uint64_t)301 << 32,	/* next_prev pid, tid */
			7 | (uint64_t)9 << 32,		/* trailer: pid, tid */
			6666,				/* time */
			1,				/* cpu */
		};

		put(sw, 40);
		CHECK(pc_ring_next(ring, &rec) == 1 &&
		      rec.type == PERF_RECORD_SWITCH_CPU_WIDE &&
		      rec.sw.next_prev_pid == 300 &&
		      rec.sw.next_prev_tid == 301 && rec.id.tid == 9 &&
		      rec.id.time == 6666 &&
		      (rec.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT),
		      "SWITCH_CPU_WIDE: next %u/%u, tid %u",
		      rec.sw.next_prev_pid, rec.sw.next_prev_tid, rec.id.tid);
		sw[0] = PERF_RECORD_SWITCH | (uint64_t)32 << 48;
		sw[1] = sw[2];
		sw[2] = 7777;
		sw[3] = 0;
		put(sw, 32);
		CHECK(pc_ring_next(ring, &rec) == 1 &&
		      rec.type == PERF_RECORD_SWITCH && rec.id.tid == 9 &&
		      rec.id.time == 7777 && !(rec.misc &
					      PERF_RECORD_MISC_SWITCH_OUT),
		      "SWITCH (in): tid %u time %llu", rec.id.tid,
		      (unsigned long long)rec.id.time);
		/* a CPU-wide switch cut short: garbage, skipped */
		sw[0] = PERF_RECORD_SWITCH_CPU_WIDE | (uint64_t)32 << 48;
		put(sw, 32);
		errno = 0;
		CHECK(pc_ring_next(ring, &rec) == -1 && errno == EBADMSG,
		      "a SWITCH_CPU_WIDE without its body accepted");
	}

	/* A callchain longer than its record: an error, then the next one. */
	len = sample(w, 0x402000, 3);
	w[6] = 1000;
	put(w, len);
	len = sample(w, 0x403000, 1);
	put(w, len);
	errno = 0;
	CHECK(pc_ring_next(ring, &rec) == -1 && errno == EBADMSG,
	      "overlong callchain accepted");
	CHECK(pc_ring_next(ring, &rec) == 1 && rec.sample.ip == 0x403000,
	      "record after a bad callchain lost");

	/* LOST records add up. */
	{
		uint64_t lr[6] = { 0, 9, 17, 0, 0, 0 };

		lr[0] = PERF_RECORD_LOST | (uint64_t)48 << 48;
		put(lr, 48);
		put(lr, 48);
		CHECK(pc_ring_next(ring, &rec) == 1 && rec.lost.lost == 17 &&
		      pc_ring_next(ring, &rec) == 1 && pc_ring_lost(ring) == 34,
		      "lost %llu", (unsigned long long)pc_ring_lost(ring));
	}

	/* A garbage size: an error once, not forever; then reading goes on. */
	{
		uint64_t junk[2] = { PERF_RECORD_SAMPLE | (uint64_t)13 << 48, 0 };

		put(junk, 16);
		len = sample(w, 0x404000, 0);
		put(w, len);
		errno = 0;
		CHECK(pc_ring_next(ring, &rec) == -1 && errno == EBADMSG,
		      "size 13 accepted");
		CHECK(pc_ring_next(ring, &rec) == 0, "garbage read again");
		len = sample(w, 0x405000, 0);
		put(w, len);
		CHECK(pc_ring_next(ring, &rec) == 1 && rec.sample.ip == 0x405000,
		      "the ring is stuck after garbage");
		junk[0] = PERF_RECORD_SAMPLE;		/* size 0 */
		put(junk, 16);
		CHECK(pc_ring_next(ring, &rec) == -1 &&
		      pc_ring_next(ring, &rec) == 0, "size 0");
	}
	pc_ring_free(ring);
	free(base);
	fixed_period(page);
	raw_record(page);
	read_record(page);
	return check_done();
}
