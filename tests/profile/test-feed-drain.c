/*
 * test-feed-drain: the feed's drain within a budget, on rings of plain
 * memory that the test writes as the kernel would (as test-ring and
 * fuzz-ring do), on any machine.
 *
 *  - A producer faster than the reader (each sample handed over makes
 *    the "kernel" write another): feed_drain() would never return;
 *    feed_drain_some() stops at its bound of records, and of time, and
 *    says that records are left.
 *  - A task's EXIT read in a drain that is cut short: its mappings stay
 *    until every record written before the EXIT was read (here a sample
 *    of another of its threads, in another CPU's ring, after the EXIT in
 *    time), then go.
 *  - A sample of a process that ran before the feed is held until
 *    feed_background() has read its maps (ours, from /proc), then
 *    handed over resolved.
 *  - A group read: each sample's members' deltas and the leader's own
 *    count since the stream's previous sample, which is more than the
 *    period where a timer fired late and was forwarded past the periods
 *    it missed; the interval is in one function or it is not.
 */
#include "config.h"

#include <limits.h>

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sysapi/sysapi-internal.h"
#include "profile/feed-internal.h"
#include "../check.h"

#define RING_SIZE 8192u
#define NRINGS 2

struct fake_ring {
	struct pc_counter counter;
	struct perf_event_mmap_page *pg;
	uint8_t *data;
	struct pc_ring *ring;
};

static struct fake_ring rings[NRINGS];
static long page;

/* Append a record (u64 words, header first) at ring r's head. */
static void put(unsigned r, const uint64_t *w, size_t n)
{
	struct fake_ring *fr = &rings[r];
	uint64_t head = fr->pg->data_head;

	for (size_t i = 0; i < n * 8; i++)
		fr->data[(head + i) % RING_SIZE] = ((const uint8_t *)w)[i];
	__atomic_store_n(&fr->pg->data_head, head + n * 8, __ATOMIC_RELEASE);
}

static uint64_t hdr(uint32_t type, uint16_t misc, size_t words)
{
	return type | (uint64_t)misc << 32 | (uint64_t)(words * 8) << 48;
}

/* IP|TID|TIME|CPU: a fixed period's sample (pc_attr_sampling()). */
static void sample(unsigned r, uint32_t pid, uint32_t tid, uint64_t ip,
		   uint64_t time)
{
	uint64_t w[5] = { hdr(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 5),
			  ip, pid | (uint64_t)tid << 32, time, r };

	put(r, w, 5);
}

/* The sample_id trailer: TID, TIME, CPU. */
static size_t trailer(uint64_t *w, size_t n, uint32_t pid, uint32_t tid,
		      uint64_t time, unsigned r)
{
	w[n++] = pid | (uint64_t)tid << 32;
	w[n++] = time;
	w[n++] = r;
	return n;
}

static void mmap2(unsigned r, uint32_t pid, uint64_t addr, uint64_t len,
		  const char *path, uint64_t time)
{
	uint64_t w[32] = { 0 };
	size_t n = 1;

	w[n++] = pid | (uint64_t)pid << 32;
	w[n++] = addr;
	w[n++] = len;
	w[n++] = 0;				/* pgoff */
	w[n++] = 0;				/* maj, min */
	w[n++] = 0;				/* ino */
	w[n++] = 0;				/* ino generation */
	w[n++] = 5 | (uint64_t)2 << 32;		/* PROT_READ|EXEC, flags */
	strcpy((char *)&w[n], path);
	n += (strlen(path) + 8) / 8;
	n = trailer(w, n, pid, pid, time, r);
	w[0] = hdr(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, n);
	put(r, w, n);
}

static void task_exit(unsigned r, uint32_t pid, uint32_t tid, uint64_t time)
{
	uint64_t w[16];
	size_t n = 1;

	w[n++] = pid | (uint64_t)1 << 32;	/* pid, ppid */
	w[n++] = tid | (uint64_t)1 << 32;	/* tid, ptid */
	w[n++] = time;
	n = trailer(w, n, pid, tid, time, r);
	w[0] = hdr(PERF_RECORD_EXIT, 0, n);
	put(r, w, n);
}

/* The feed as feed_open() leaves it, over the fake rings. */
static struct feed *feed_fake(struct symbols *sym)
{
	struct feed *f = calloc(1, sizeof(*f));
	unsigned i;

	if (!f)
		return NULL;
	f->comms = (struct comm_table)COMM_TABLE_INIT;
	f->comms.proc = "/nonexistent";
	f->sym = sym;
	f->nattrs = 1;
	f->attrs = calloc(1, sizeof(*f->attrs));
	f->ctr = calloc(NRINGS, sizeof(*f->ctr));
	f->rings = calloc(NRINGS, sizeof(*f->rings));
	f->heads = calloc(NRINGS, sizeof(*f->heads));
	if (!f->attrs || !f->ctr || !f->rings || !f->heads)
		return NULL;
	f->attrs[0] = rings[0].counter.attr;
	for (i = 0; i < NRINGS; i++) {
		memset(rings[i].pg, 0, (size_t)page + RING_SIZE);
		rings[i].ring = pc_ring_new_memory(&rings[i].counter,
						   rings[i].pg, RING_SIZE);
		if (!rings[i].ring)
			return NULL;
		f->ctr[i] = (struct feed_counter){ &rings[i].counter, 0, 0,
						   false };
		f->rings[i] = rings[i].ring;
	}
	f->nctr = f->nrings = NRINGS;
	f->backend = PC_BACKEND_EVENT;
	return f;
}

static void feed_fake_free(struct feed *f)
{
	unsigned i;

	for (i = 0; i < NRINGS; i++)
		pc_ring_free(rings[i].ring);
	f->nctr = 0;		/* the counters are the test's */
	feed_close(f);
}

/* --- a producer faster than the reader ---------------------------------- */

struct flood {
	uint64_t seen, time;
};

/* Every sample read makes the "kernel" write two more. */
static int on_flood(void *arg, const struct feed_sample *s)
{
	struct flood *fl = arg;

	(void)s;
	fl->seen++;
	sample(0, 7, 7, 0x1000, ++fl->time);
	sample(0, 7, 7, 0x1000, ++fl->time);
	/* the reader frees room as it goes: keep the ring from filling */
	if (rings[0].pg->data_head - rings[0].pg->data_tail > RING_SIZE / 2)
		rings[0].pg->data_head = rings[0].pg->data_tail + 40;
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void test_flood(struct symbols *sym)
{
	struct feed *f = feed_fake(sym);
	struct flood fl = { 0, 1 };
	struct feed_info info;
	bool more = false;
	double t;
	int rc;

	CHECK(f != NULL, "feed");
	if (!f)
		return;
	sample(0, 7, 7, 0x1000, 1);
	rc = feed_drain_some(f, on_flood, &fl,
			     &FEED_BUDGET(.max_records = 1000), &more);
	CHECK(rc == 0 && more && fl.seen == 1000,
	      "record bound: rc %d, more %d, %llu samples", rc, more,
	      (unsigned long long)fl.seen);
	fl.seen = 0;
	t = now_ms();
	rc = feed_drain_some(f, on_flood, &fl, &FEED_BUDGET(.max_ms = 20),
			     &more);
	t = now_ms() - t;
	/* the clock is looked at every few dozen records: a little over */
	CHECK(rc == 0 && more && fl.seen > 0 && t >= 20 && t < 1000,
	      "time bound: rc %d, more %d, %llu samples in %.1f ms", rc, more,
	      (unsigned long long)fl.seen, t);
	feed_info(f, &info);
	CHECK(info.cut_short == 2, "cut_short %llu",
	      (unsigned long long)info.cut_short);
	/* a ring that empties: no more left, no cut */
	rings[0].pg->data_head = rings[0].pg->data_tail;
	f->heads[0].full = false;
	rc = feed_drain_some(f, on_flood, &fl, &FEED_BUDGET(.max_ms = 20),
			     &more);
	feed_info(f, &info);
	CHECK(rc == 0 && !more && info.cut_short == 2,
	      "empty ring: more %d, cut_short %llu", more,
	      (unsigned long long)info.cut_short);
	feed_fake_free(f);
}

/* --- the exit rule ------------------------------------------------------ */

struct seen {
	char dso[4][PATH_MAX];	/* a build's path is of any length */
	unsigned n;
};

static int on_seen(void *arg, const struct feed_sample *s)
{
	struct seen *seen = arg;

	if (seen->n < 4)
		snprintf(seen->dso[seen->n++], sizeof(seen->dso[0]), "%s",
			 s->sym->dso);
	return 0;
}

static void test_exit_rule(struct symbols *sym)
{
	struct feed *f = feed_fake(sym);
	struct seen seen = { .n = 0 };
	bool more = false;

	CHECK(f != NULL, "feed");
	if (!f)
		return;
	/* CPU 0: process 42 maps a library, is sampled, exits */
	mmap2(0, 42, 0x400000, 0x1000, "/no/such/lib.so", 1);
	sample(0, 42, 42, 0x400100, 2);
	task_exit(0, 42, 42, 3);
	/* CPU 1: its other thread's last sample, later than the EXIT */
	sample(1, 42, 43, 0x400200, 4);

	/* cut right after the EXIT: the thread's sample is still unread */
	CHECK(feed_drain_some(f, on_seen, &seen,
			      &FEED_BUDGET(.max_records = 3), &more) == 0 &&
	      more && seen.n == 1, "first drain: more %d, %u samples", more,
	      seen.n);
	CHECK(feed_drain_some(f, on_seen, &seen, NULL, &more) == 0 && !more &&
	      seen.n == 2, "second drain: more %d, %u samples", more, seen.n);
	CHECK(seen.n == 2 && !strcmp(seen.dso[1], "/no/such/lib.so"),
	      "the sample read after the EXIT lost its mapping: dso '%s'",
	      seen.dso[1]);
	/* every ring read: 42 is forgotten now */
	sample(1, 42, 43, 0x400300, 5);
	feed_drain(f, on_seen, &seen);
	CHECK(seen.n == 3 && !strcmp(seen.dso[2], "[unknown]"),
	      "42 not forgotten once every ring was read: dso '%s'",
	      seen.dso[2]);
	feed_fake_free(f);
}

/* --- a process from before the feed: its samples wait for its maps ------- */

static void test_held(struct symbols *sym)
{
	struct feed *f = feed_fake(sym);
	struct seen seen = { .n = 0 };
	struct feed_info info;
	pid_t me = getpid();

	CHECK(f != NULL, "feed");
	if (!f)
		return;
	/* we ran before it: no MMAP record tells our maps */
	CHECK(feed_maps_add(f, me) == 0, "feed_maps_add");
	sample(0, (uint32_t)me, (uint32_t)me, (uint64_t)(uintptr_t)test_held,
	       1);
	feed_drain(f, on_seen, &seen);
	feed_info(f, &info);
	CHECK(seen.n == 0 && info.held == 1,
	      "a sample of an unread process handed over (%u) or not held "
	      "(%llu)", seen.n, (unsigned long long)info.held);
	/* read within a generous budget: a few hundred lines */
	CHECK(feed_background(f, 1000) == 0, "our maps not read");
	feed_drain(f, on_seen, &seen);
	feed_info(f, &info);
	CHECK(seen.n == 1 && info.held == 0 && strstr(seen.dso[0],
						       "test-feed-drain"),
	      "held sample: %u handed over, %llu held, dso '%s'", seen.n,
	      (unsigned long long)info.held, seen.n ? seen.dso[0] : "");
	feed_fake_free(f);
}

/* --- a group read: deltas, and the leader's count over the interval ---- */

/* IP|TID|TIME|CPU|READ of a group of two (GROUP|ID): leader, member. */
static void group_sample(uint32_t tid, uint64_t ip, uint64_t time,
			 uint64_t lead, uint64_t member)
{
	uint64_t w[10] = { hdr(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 10),
			   ip, 7 | (uint64_t)tid << 32, time, 0,
			   2, lead, 100, member, 101 };

	put(0, w, 10);
}

struct group_seen {
	uint64_t lead[4], delta[4];
	bool same[4];
	unsigned n, ndeltas;
};

static int on_group(void *arg, const struct feed_sample *s)
{
	struct group_seen *g = arg;

	if (g->n < 4) {
		g->lead[g->n] = s->lead_delta;
		g->delta[g->n] = s->ndeltas ? s->deltas[0] : ~0ull;
		g->same[g->n++] = s->same_fn;
		g->ndeltas = s->ndeltas;
	}
	return 0;
}

static void test_group_read(struct symbols *sym)
{
	struct perf_event_attr saved = rings[0].counter.attr;
	struct group_seen g = { .n = 0 };
	struct perf_event_attr *attrs;
	struct feed *f;

	rings[0].counter.attr.sample_type |= PERF_SAMPLE_READ;
	rings[0].counter.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	f = feed_fake(sym);
	CHECK(f != NULL, "feed");
	if (!f)
		goto out;
	attrs = realloc(f->attrs, 2 * sizeof(*f->attrs));
	if (attrs)
		f->attrs = attrs;
	f->deltas = calloc(2, sizeof(*f->deltas));	/* as feed_open(): nattrs */
	if (!attrs || !f->deltas)
		goto free;
	f->nattrs = 2;
	f->group_read = true;
	f->attrs[1] = f->attrs[0];
	f->no_resolve = true;	/* the same IP is the same function */
	/* period 1000: the first, then on time, then three periods late
	   (the timer forwarded past two it missed), then elsewhere */
	group_sample(7, 0x1000, 1, 1000, 5);
	group_sample(7, 0x1000, 2, 2000, 8);
	group_sample(7, 0x1000, 3, 5000, 20);
	group_sample(7, 0x2000, 4, 6000, 21);
	feed_drain(f, on_group, &g);
	CHECK(g.n == 4 && g.ndeltas == 1, "%u samples, %u deltas", g.n,
	      g.ndeltas);
	CHECK(g.lead[0] == 1000 && g.lead[1] == 1000 && g.lead[2] == 3000 &&
	      g.lead[3] == 1000,
	      "the leader's counts over the intervals: %llu %llu %llu %llu, "
	      "not 1000 1000 3000 1000", (unsigned long long)g.lead[0],
	      (unsigned long long)g.lead[1], (unsigned long long)g.lead[2],
	      (unsigned long long)g.lead[3]);
	CHECK(g.delta[0] == 5 && g.delta[1] == 3 && g.delta[2] == 12 &&
	      g.delta[3] == 1, "the member's deltas: %llu %llu %llu %llu",
	      (unsigned long long)g.delta[0], (unsigned long long)g.delta[1],
	      (unsigned long long)g.delta[2], (unsigned long long)g.delta[3]);
	CHECK(!g.same[0] && g.same[1] && g.same[2] && !g.same[3],
	      "in one function: %d %d %d %d", g.same[0], g.same[1],
	      g.same[2], g.same[3]);
free:
	feed_fake_free(f);
out:
	rings[0].counter.attr = saved;
}

int main(void)
{
	struct symbols *sym;
	unsigned i;

	page = sysconf(_SC_PAGESIZE);
	for (i = 0; i < NRINGS; i++) {
		rings[i].pg = aligned_alloc((size_t)page, (size_t)page +
						  RING_SIZE);
		if (!rings[i].pg)
			SKIP("out of memory");
		rings[i].data = (uint8_t *)rings[i].pg + page;
		rings[i].counter.fd = -1;
		pc_attr_sampling(&rings[i].counter.attr, 1000, false, 0);
	}
	sym = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_PROC |
						 SYMBOLS_NO_LINES,
					.proc = "/nonexistent",
					.jit_dir = "/nonexistent"));
	if (!sym)
		SKIP("out of memory");
	test_flood(sym);
	test_exit_rule(sym);
	test_held(sym);
	test_group_read(sym);
	symbols_free(sym);
	for (i = 0; i < NRINGS; i++)
		free(rings[i].pg);
	return check_done();
}
