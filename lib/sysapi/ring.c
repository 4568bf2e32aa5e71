/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ring.c - read typed records out of a counter's mmap ring buffer.
 *
 * The kernel writes records at data_head and we consume at data_tail.
 * data_head is loaded with acquire semantics (the record bytes written
 * before it are then visible); data_tail is stored with release semantics
 * after the copy, so the kernel cannot overwrite bytes still being read.
 * Every record is copied out whole, which also joins records that wrap
 * around the end of the buffer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sysapi/perf_counter.h>
#include "sysapi-internal.h"

/* A ring of c with nothing mapped yet: what every ring knows of c. */
static struct pc_ring *ring_alloc(struct pc_counter *c)
{
	struct pc_ring *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->counter = c;
	r->sample_type = c->attr.sample_type;
	r->sample_id_all = c->attr.sample_id_all;
	return r;
}

/* base: the header page, then size bytes of data; and the scratch
   record.  0, or -1 with errno ENOMEM. */
static int ring_attach(struct pc_ring *r, void *base, size_t size)
{
	r->base = base;
	r->data = (uint8_t *)base + sysconf(_SC_PAGESIZE);
	r->size = size;
	r->scratch_len = 65536;		/* a record's size is a u16 */
	r->scratch = malloc(r->scratch_len);
	return r->scratch ? 0 : -1;
}

struct pc_ring *pc_ring_new_memory(struct pc_counter *c, void *base,
				   size_t data_size)
{
	struct pc_ring *r;

	if (data_size == 0 || (data_size & (data_size - 1))) {
		errno = EINVAL;
		return NULL;
	}
	r = ring_alloc(c);
	if (r && ring_attach(r, base, data_size) != 0) {
		pc_ring_free(r);	/* map_len 0: base is not ours */
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

struct pc_ring *pc_ring_new(struct pc_counter *c, size_t data_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct pc_ring *r;
	void *base;
	int err;

	if (data_pages == 0 || (data_pages & (data_pages - 1)) ||
	    data_pages > (1u << 20) || !c->attr.sample_period) {
		errno = EINVAL;
		return NULL;
	}
	r = ring_alloc(c);
	if (!r)
		return NULL;
	if (c->backend == PC_BACKEND_LEGACY) {
		/* The 2008 call has no ring: IPs come from read(). */
		r->ips = calloc(PERF_COUNTER_IRQ_SLOTS, sizeof(*r->ips));
		r->scratch_len = 0;
		if (!r->ips || fcntl(c->fd, F_SETFL,
				     fcntl(c->fd, F_GETFL) | O_NONBLOCK) < 0)
			goto fail;
		return r;
	}
	base = mmap(NULL, (data_pages + 1) * (size_t)page,
		    PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (base == MAP_FAILED)
		goto fail;
	r->map_len = (data_pages + 1) * (size_t)page;
	if (ring_attach(r, base, data_pages * (size_t)page) != 0)
		goto fail;
	return r;
fail:
	err = errno;
	pc_ring_free(r);
	errno = err;
	return NULL;
}

void pc_ring_free(struct pc_ring *r)
{
	if (!r)
		return;
	if (r->map_len)		/* mapped by pc_ring_new() */
		munmap(r->base, r->map_len);
	free(r->scratch);
	free(r->ips);
	free(r);
}

/* A cursor over one copied record, so that no field is read past its end. */
struct cursor {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t take_u64(struct cursor *cur)
{
	uint64_t v = 0;

	if (cur->end - cur->p < 8) {
		cur->bad = true;
		return 0;
	}
	memcpy(&v, cur->p, 8);
	cur->p += 8;
	return v;
}

static void take_u32x2(struct cursor *cur, uint32_t *a, uint32_t *b)
{
	uint64_t v = take_u64(cur);

	*a = (uint32_t)v;
	*b = (uint32_t)(v >> 32);
}

static const void *take_bytes(struct cursor *cur, uint64_t len)
{
	const void *p = cur->p;

	if ((uint64_t)(cur->end - cur->p) < len) {
		cur->bad = true;
		return NULL;
	}
	cur->p += len;
	return p;
}

/* The sample_id trailer that sample_id_all adds to non-sample records. */
static size_t sample_id_size(uint64_t st)
{
	static const uint64_t bits[] = {
		PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		n += (st & bits[i]) ? 8 : 0;
	return n;
}

static void parse_sample_id(struct pc_ring *r, struct cursor *cur,
			    struct pc_sample_id *id)
{
	uint64_t st = r->sample_type;
	uint32_t res;

	if (st & PERF_SAMPLE_TID)
		take_u32x2(cur, &id->pid, &id->tid);
	if (st & PERF_SAMPLE_TIME)
		id->time = take_u64(cur);
	if (st & PERF_SAMPLE_ID)
		take_u64(cur);
	if (st & PERF_SAMPLE_STREAM_ID)
		take_u64(cur);
	if (st & PERF_SAMPLE_CPU)
		take_u32x2(cur, &id->cpu, &res);
	if (st & PERF_SAMPLE_IDENTIFIER)
		take_u64(cur);
}

/*
 * PERF_SAMPLE_READ: struct read_format, whose layout the counter's
 * read_format decides (the kernel's perf_output_read()): alone, the
 * value then the times, id and lost asked; a group, nr and the times,
 * then nr entries of value, id and lost asked.
 */
static void parse_read(struct pc_ring *r, struct cursor *cur,
		       struct pc_sample *s)
{
	uint64_t rf = r->counter->attr.read_format, nr = 1;
	uint32_t stride = 1 + !!(rf & PERF_FORMAT_ID) +
			  !!(rf & PERF_FORMAT_LOST);

	if (!(rf & PERF_FORMAT_GROUP)) {
		s->read = take_bytes(cur, 8);
		stride = 1;
	} else {
		nr = take_u64(cur);
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		s->read_enabled = take_u64(cur);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		s->read_running = take_u64(cur);
	if (!(rf & PERF_FORMAT_GROUP)) {
		/* the id and lost are the sample's own, after the times */
		take_bytes(cur, (uint64_t)(!!(rf & PERF_FORMAT_ID) +
				 !!(rf & PERF_FORMAT_LOST)) * 8);
	} else if (nr == 0 || nr > 0xffff) {	/* a group leads itself */
		cur->bad = true;
		return;
	} else {
		s->read = take_bytes(cur, nr * stride * 8);
	}
	if (!s->read) {
		cur->bad = true;
		s->read_enabled = s->read_running = 0;
		return;
	}
	s->nr_read = (uint32_t)nr;
	s->read_stride = stride;
}

static int parse_sample(struct pc_ring *r, struct cursor *cur,
			struct pc_record *rec)
{
	struct pc_sample *s = &rec->sample;
	uint64_t st = r->sample_type;
	uint32_t res;

	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take_u64(cur);
	if (st & PERF_SAMPLE_IP)
		s->ip = take_u64(cur);
	if (st & PERF_SAMPLE_TID)
		take_u32x2(cur, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		s->time = take_u64(cur);
	if (st & PERF_SAMPLE_ADDR)
		take_u64(cur);
	if (st & PERF_SAMPLE_ID)
		s->id = take_u64(cur);
	if (st & PERF_SAMPLE_STREAM_ID)
		take_u64(cur);
	if (st & PERF_SAMPLE_CPU)
		take_u32x2(cur, &s->cpu, &res);
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take_u64(cur);
	else if (!r->counter->attr.freq)	/* not asked: it is fixed */
		s->period = r->counter->attr.sample_period;
	if (st & PERF_SAMPLE_READ)
		parse_read(r, cur, s);
	if (st & PERF_SAMPLE_BRANCH_STACK)
		goto done;	/* not decoded: the fields after stay zero */
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = take_u64(cur);
		if (s->nr_callchain > 0xffff)
			cur->bad = true;
		else
			s->callchain = take_bytes(cur, s->nr_callchain * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		const uint8_t *p;
		uint32_t size;

		if (cur->end - cur->p < 4) {
			cur->bad = true;
			goto done;
		}
		memcpy(&size, cur->p, 4);
		/* u32 size + data, the two padded to u64 alignment */
		p = take_bytes(cur, (4 + (uint64_t)size + 7) & ~7ull);
		if (p) {
			s->raw = p + 4;
			s->raw_size = size;
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s->regs_abi = take_u64(cur);
		if (s->regs_abi) {
			s->nr_regs = (uint64_t)__builtin_popcountll(
				r->counter->attr.sample_regs_user);
			s->regs = take_bytes(cur, s->nr_regs * 8);
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		s->stack_size = take_u64(cur);
		if (s->stack_size) {
			s->stack = take_bytes(cur, s->stack_size);
			s->stack_dyn_size = take_u64(cur);
			if (s->stack_dyn_size > s->stack_size)
				cur->bad = true;
		}
	}
done:
	rec->id.pid = s->pid;
	rec->id.tid = s->tid;
	rec->id.time = s->time;
	rec->id.cpu = s->cpu;
	return cur->bad ? -1 : 0;
}

/* A NUL-terminated string inside the record body, or NULL. */
static const char *take_string(struct cursor *cur, const uint8_t *limit)
{
	const char *s = (const char *)cur->p;

	if (cur->p >= limit || !memchr(cur->p, '\0', (size_t)(limit - cur->p))) {
		cur->bad = true;
		return NULL;
	}
	return s;
}

static int parse_other(struct pc_ring *r, struct cursor *cur,
		       struct pc_record *rec)
{
	const uint8_t *body_end = cur->end;

	if (r->sample_id_all) {
		size_t tsz = sample_id_size(r->sample_type);
		struct cursor t;

		if ((size_t)(cur->end - cur->p) < tsz)
			return -1;
		body_end = cur->end - tsz;
		t.p = body_end;
		t.end = cur->end;
		t.bad = false;
		parse_sample_id(r, &t, &rec->id);
	}
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		take_u32x2(cur, &rec->mmap.pid, &rec->mmap.tid);
		rec->mmap.addr = take_u64(cur);
		rec->mmap.len = take_u64(cur);
		rec->mmap.pgoff = take_u64(cur);
		if (rec->type == PERF_RECORD_MMAP2) {
			if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				const uint8_t *b = take_bytes(cur, 24);

				if (b) {
					rec->mmap.build_id_size = b[0] > 20 ? 20 : b[0];
					memcpy(rec->mmap.build_id, b + 4, 20);
				}
			} else {
				take_u32x2(cur, &rec->mmap.maj, &rec->mmap.min);
				rec->mmap.ino = take_u64(cur);
				rec->mmap.ino_generation = take_u64(cur);
			}
			take_u32x2(cur, &rec->mmap.prot, &rec->mmap.flags);
		}
		rec->mmap.filename = take_string(cur, body_end);
		break;
	case PERF_RECORD_COMM:
		take_u32x2(cur, &rec->comm.pid, &rec->comm.tid);
		rec->comm.comm = take_string(cur, body_end);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		take_u32x2(cur, &rec->task.pid, &rec->task.ppid);
		take_u32x2(cur, &rec->task.tid, &rec->task.ptid);
		rec->task.time = take_u64(cur);
		break;
	case PERF_RECORD_LOST:
		rec->lost.id = take_u64(cur);
		rec->lost.lost = take_u64(cur);
		if (!cur->bad)
			r->lost += rec->lost.lost;
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		rec->throttle.time = take_u64(cur);
		rec->throttle.id = take_u64(cur);
		rec->throttle.stream_id = take_u64(cur);
		break;
	case PERF_RECORD_SWITCH:
		break;		/* no body: the sample_id says who */
	case PERF_RECORD_SWITCH_CPU_WIDE:
		take_u32x2(cur, &rec->sw.next_prev_pid,
			   &rec->sw.next_prev_tid);
		break;
	default:
		break;		/* returned with its header only */
	}
	return cur->bad || cur->p > body_end ? -1 : 0;
}

/* The 2008 backend: IPs from read(), dressed as SAMPLE records. */
static int ring_next_legacy(struct pc_ring *r, struct pc_record *rec)
{
	struct timespec now;
	uint64_t ip, lost;

	if (r->ipos == r->nips) {
		ssize_t n = read(r->counter->fd, r->ips,
				 PERF_COUNTER_IRQ_SLOTS * sizeof(*r->ips));

		if (ioctl(r->counter->fd, PERF_COUNTER_IOC_LOST, &lost) == 0)
			r->lost = lost;
		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		r->nips = (size_t)n / sizeof(*r->ips);
		r->ipos = 0;
		if (r->nips == 0)
			return 0;
	}
	ip = r->ips[r->ipos++];
	clock_gettime(CLOCK_MONOTONIC, &now);
	memset(rec, 0, sizeof(*rec));
	rec->type = PERF_RECORD_SAMPLE;
	rec->size = sizeof(struct perf_event_header) + 8;
	/* The 2008 record says nothing of the mode: kernel addresses are
	   the upper half of the address space on every 64-bit arch we run. */
	rec->misc = (int64_t)ip < 0 ? PERF_RECORD_MISC_KERNEL
				    : PERF_RECORD_MISC_USER;
	rec->sample.ip = ip;
	rec->sample.pid = rec->sample.tid =
		(uint32_t)(r->counter->pid > 0 ? r->counter->pid : getpid());
	rec->sample.time = (uint64_t)now.tv_sec * 1000000000u +
			   (uint64_t)now.tv_nsec;
	rec->sample.period = r->counter->attr.sample_period;
	rec->id.pid = rec->sample.pid;
	rec->id.tid = rec->sample.tid;
	rec->id.time = rec->sample.time;
	r->records++;
	r->samples++;
	return 1;
}

int pc_ring_next(struct pc_ring *r, struct pc_record *rec)
{
	struct perf_event_mmap_page *pg = r->base;
	struct perf_event_header hdr;
	struct cursor cur;
	uint64_t head, tail;
	size_t off, first;
	int ret;

	if (r->ips)
		return ring_next_legacy(r, rec);

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;		/* only we write it */
	if (head == tail)
		return 0;
	off = (size_t)(tail & (r->size - 1));
	/* Records are 8-byte aligned and so is the buffer end: the header
	   itself never straddles. */
	memcpy(&hdr, r->data + off, sizeof(hdr));
	if (hdr.size < sizeof(hdr) || hdr.size > r->size ||
	    hdr.size > head - tail || (hdr.size & 7)) {
		/* No way to find the next record boundary: drop what the
		   kernel has written so far, or every later call would
		   stop at the same garbage. */
		__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
		errno = EBADMSG;
		return -1;
	}
	first = r->size - off < hdr.size ? r->size - off : hdr.size;
	memcpy(r->scratch, r->data + off, first);
	memcpy(r->scratch + first, r->data, hdr.size - first);
	__atomic_store_n(&pg->data_tail, tail + hdr.size, __ATOMIC_RELEASE);

	memset(rec, 0, sizeof(*rec));
	rec->type = hdr.type;
	rec->misc = hdr.misc;
	rec->size = hdr.size;
	cur.p = r->scratch + sizeof(hdr);
	cur.end = r->scratch + hdr.size;
	cur.bad = false;
	if (hdr.type == PERF_RECORD_SAMPLE)
		ret = parse_sample(r, &cur, rec);
	else
		ret = parse_other(r, &cur, rec);
	r->records++;
	if (hdr.type == PERF_RECORD_SAMPLE)
		r->samples++;
	if (ret) {
		errno = EBADMSG;
		return -1;
	}
	return 1;
}

uint64_t pc_ring_lost(const struct pc_ring *r)
{
	return r->lost;
}

uint64_t pc_ring_records(const struct pc_ring *r)
{
	return r->records;
}

uint64_t pc_ring_samples(const struct pc_ring *r)
{
	return r->samples;
}

size_t pc_ring_size(const struct pc_ring *r)
{
	return r->size;
}

uint64_t pc_ring_written(const struct pc_ring *r)
{
	const struct perf_event_mmap_page *pg = r->base;

	return r->ips ? 0 : __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

uint64_t pc_ring_taken(const struct pc_ring *r)
{
	const struct perf_event_mmap_page *pg = r->base;

	return r->ips ? 0 : pg->data_tail;
}
