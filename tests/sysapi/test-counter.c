/*
 * test-counter: what a counter says of itself.  pc_counter_attr() is the
 * attr as the kernel got it -- the caller's, with the size and the
 * read_format the library adds, a copy the caller's later edits do not
 * reach -- and pc_counter_ring() is the ring pc_counter_mmap() mapped,
 * NULL before, through which a task-clock sampler of this thread's busy
 * loop hands over the loop's samples.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sysapi/sysapi.h>
#include "../check.h"
#include "../workload.h"

#define PERIOD_NS 1000000ULL	/* a sample every 1 ms of task-clock */
#define BUSY_MS 100.0

/* What the library adds to the caller's attr, for an event-backend
   counter: the read_format of counter.c's counter_open_event(). */
static uint64_t added_read_format(bool sampling, bool group)
{
	uint64_t f = PERF_FORMAT_TOTAL_TIME_ENABLED |
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;

	if (group)
		f |= PERF_FORMAT_GROUP;
	else if (sampling && pc_probe()->format_lost)
		f |= PERF_FORMAT_LOST;
	return f;
}

/* Open *a on this thread with opts; where the paranoid level refuses the
   kernel part, *a becomes user-only (as the tools do) and is opened
   again, so that *a stays what was asked of the kernel. */
static struct pc_counter *open_self(struct perf_event_attr *a,
				    const struct pc_open_opts *opts)
{
	struct pc_counter *c = pc_counter_open(a, opts);

	if (!c && pc_attr_user_only(a, errno))
		c = pc_counter_open(a, opts);
	return c;
}

/* pc_counter_attr(c) is want with the library's size and read_format. */
static void check_attr(const char *what, const struct pc_counter *c,
		       const struct perf_event_attr *asked, uint64_t read_format)
{
	const struct perf_event_attr *got = pc_counter_attr(c);
	struct perf_event_attr want = *asked;

	want.size = sizeof(want);
	want.read_format = read_format;
	CHECK(got != NULL && got != asked, "%s: attr %p", what, (void *)got);
	if (!got || got == asked)
		return;
	CHECK(got == pc_counter_attr(c), "%s: one attr for the counter", what);
	CHECK(got->type == asked->type && got->config == asked->config,
	      "%s: type %u config %llu, asked %u %llu", what, got->type,
	      (unsigned long long)got->config, asked->type,
	      (unsigned long long)asked->config);
	CHECK(got->sample_period == asked->sample_period &&
	      got->freq == asked->freq && got->sample_type == asked->sample_type,
	      "%s: period %llu freq %d sample_type %#llx, asked %llu %d %#llx",
	      what, (unsigned long long)got->sample_period, (int)got->freq,
	      (unsigned long long)got->sample_type,
	      (unsigned long long)asked->sample_period, (int)asked->freq,
	      (unsigned long long)asked->sample_type);
	CHECK(got->read_format == read_format, "%s: read_format %#llx, want "
	      "%#llx", what, (unsigned long long)got->read_format,
	      (unsigned long long)read_format);
	/* every other bit as asked: disabled, exclude_*, mmap2, comm, ... */
	CHECK(memcmp(got, &want, sizeof(want)) == 0, "%s: attr differs from "
	      "the one asked for beyond size and read_format", what);
}

/* A counting counter and a group: the attr as asked, read_format added;
   no ring. */
static void test_counting_attr(void)
{
	struct perf_event_attr a, m;
	struct pc_counter *lead, *member;

	pc_event_parse("task-clock", &a, NULL);
	a.disabled = 1;
	lead = open_self(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_EVENT,
					   .group = true));
	CHECK(lead != NULL, "open task-clock leader: %s", strerror(errno));
	if (!lead)
		return;
	check_attr("task-clock leader", lead, &a, added_read_format(false, true));
	pc_event_parse("page-faults", &m, NULL);
	m.exclude_kernel = a.exclude_kernel;
	m.exclude_hv = a.exclude_hv;
	member = open_self(&m, &PC_OPEN_TASK(0, .leader = lead));
	CHECK(member != NULL, "open page-faults member: %s", strerror(errno));
	if (member)
		check_attr("page-faults member", member, &m,
			   added_read_format(false, false));
	CHECK(pc_counter_ring(lead) == NULL, "a counter never mapped has a ring");
	pc_counter_close(member);
	pc_counter_close(lead);
}

/*
 * Sample this thread's busy loop (workload_spin(), not inlined) on
 * task-clock every ms, and read the samples through pc_counter_ring().
 */
static void test_sampling_ring(void)
{
	struct perf_event_attr a;
	struct pc_counter *c;
	struct pc_ring *ring;
	struct pc_record rec;
	uintptr_t fn = (uintptr_t)workload_spin;
	uint64_t n = 0, near = 0, mine = 0, period_ok = 0, back = 0, last = 0;
	double t0, cpu_ms, step_ms;
	int r;

	pc_event_parse("task-clock", &a, NULL);
	pc_attr_sampling(&a, PERIOD_NS, false, 0);
	a.disabled = 1;
	c = open_self(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_EVENT));
	CHECK(c != NULL, "open sampling task-clock: %s", strerror(errno));
	if (!c)
		return;
	CHECK(pc_counter_ring(c) == NULL, "a ring before pc_counter_mmap()");
	ring = pc_counter_mmap(c, 16);
	CHECK(ring != NULL, "mmap: %s", strerror(errno));
	if (!ring) {
		pc_counter_close(c);
		return;
	}
	CHECK(pc_counter_ring(c) == ring, "pc_counter_ring() %p, mapped %p",
	      (void *)pc_counter_ring(c), (void *)ring);
	check_attr("sampling task-clock", c, &a, added_read_format(true, false));
	/* the caller's attr is theirs again: the counter keeps its own */
	a.sample_period = 7;
	CHECK(pc_counter_attr(c)->sample_period == PERIOD_NS,
	      "the caller's edit reached the counter's attr");
	a.sample_period = PERIOD_NS;

	step_ms = workload_clock_step_ns(CLOCK_THREAD_CPUTIME_ID) / 1e6;
	t0 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	CHECK(pc_counter_enable(c) == 0, "enable: %s", strerror(errno));
	/* BUSY_MS of CPU in the loop, the clock read between its rounds */
	while (workload_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < BUSY_MS * 1e6)
		workload_spin(100);
	CHECK(pc_counter_disable(c) == 0, "disable: %s", strerror(errno));
	cpu_ms = (workload_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e6;

	while ((r = pc_ring_next(pc_counter_ring(c), &rec)) == 1) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		mine += rec.sample.pid == (uint32_t)getpid() &&
			rec.sample.tid == (uint32_t)getpid();
		period_ok += rec.sample.period == PERIOD_NS;
		back += rec.sample.time < last;
		last = rec.sample.time;
		if (rec.sample.ip - fn < 512)	/* the loop is ~50 bytes */
			near++;
	}
	CHECK(r == 0, "ring: %s", strerror(errno));
	printf("sampling: %llu samples, %llu in workload_spin, %.0f ms of CPU "
	       "(clock step %.3f ms)\n", (unsigned long long)n,
	       (unsigned long long)near, cpu_ms, step_ms);
	/*
	 * One a ms of task-clock: ~100 on an idle machine.  The bounds are
	 * wide on purpose.  Below: a late hrtimer (a loaded host that takes
	 * the vCPU away) fires once for all the periods it skipped, so a
	 * tenth is enough to say the ring carries the loop's samples.
	 * Above: task-clock also runs through the interrupts and steal
	 * that the thread's CPU clock leaves out (3% seen), and where the
	 * scheduler's clock is the jiffies both move by a step at a time.
	 */
	CHECK(n >= BUSY_MS / 10 && n <= cpu_ms * 1.1 + 5 + 2 * step_ms,
	      "%llu samples in %.0f ms of CPU", (unsigned long long)n, cpu_ms);
	CHECK(mine == n, "%llu of %llu samples of this thread",
	      (unsigned long long)mine, (unsigned long long)n);
	CHECK(period_ok == n, "%llu of %llu samples of period %llu",
	      (unsigned long long)period_ok, (unsigned long long)n, PERIOD_NS);
	CHECK(back == 0, "time went back %llu times", (unsigned long long)back);
	/* the rest: the clock reads between rounds, the kernel's entry and
	   exit around the timer (as test-legacy allows) */
	CHECK(near >= n / 3, "%llu of %llu samples in workload_spin",
	      (unsigned long long)near, (unsigned long long)n);
	CHECK(pc_ring_samples(pc_counter_ring(c)) == n, "pc_ring_samples() %llu",
	      (unsigned long long)pc_ring_samples(pc_counter_ring(c)));
	pc_counter_close(c);
}

int main(void)
{
	if (!pc_probe()->perf_event)
		SKIP("perf_event_open does not work here");
	test_counting_attr();
	test_sampling_ring();
	return check_done();
}
