/*
 * test-legacy: the object layer on the 2008 perf_counter_open backend,
 * with the same ground truth as on mainline, and legacy counts against
 * perf_event_open counts of the same workload.  Runs where the kernel
 * carries pctools' patch (the QEMU guest of tests/kernel); elsewhere it
 * skips, since the call does not exist there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sysapi/sysapi.h>
#include "../check.h"
#include "../workload.h"

static struct pc_counter *open_on(const char *event, enum pc_backend b,
				  pid_t pid)
{
	struct perf_event_attr a;
	struct pc_counter *c;
	char buf[512];

	pc_event_parse(event, &a, NULL);
	c = pc_counter_open(&a, &PC_OPEN_TASK(pid, .backend = b));
	if (!c)
		fprintf(stderr, "open %s: %s\n", event,
			pc_strerror(errno, &a, buf, sizeof(buf)));
	return c;
}

static void test_counts(void)
{
	struct pc_counter *lc, *ec;
	struct pc_count l, e;
	double t0, t1, t2, t3, l0, l1;
	double tick = 1e9 / (double)sysconf(_SC_CLK_TCK);
	double step = workload_clock_step_ns(CLOCK_THREAD_CPUTIME_ID);

	/* task-clock against the thread's CPU clock, and against perf_event */
	l0 = workload_lost_cpu_ns();
	t0 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	lc = open_on("task-clock", PC_BACKEND_LEGACY, 0);
	ec = open_on("task-clock", PC_BACKEND_EVENT, 0);
	t1 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	CHECK(lc && ec, "open task-clock on both backends");
	if (!lc || !ec)
		goto out;
	CHECK(pc_counter_backend(lc) == PC_BACKEND_LEGACY, "legacy backend");
	workload_burn_cpu_ms(200);
	t2 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	CHECK(pc_counter_read(lc, &l) == 0, "legacy read: %s", strerror(errno));
	pc_counter_read(ec, &e);
	t3 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	l1 = workload_lost_cpu_ns();
	/* task-clock also holds the irq and steal time the thread's CPU
	   clock leaves out; /proc/stat counts it in ticks, so two more;
	   where the clocks move in jiffies, two steps either way */
	CHECK(l.value + 2 * step > 0.97 * 200e6 &&
	      (l0 < 0 || l1 < 0 ||
	       l.value < 1.03 * (t3 - t0) + (l1 - l0) + 2 * tick + 2 * step),
	      "legacy task-clock %llu ns for %.0f ns of CPU, %.0f ns of irq and steal",
	      (unsigned long long)l.value, t3 - t0, l1 - l0);
	/*
	 * What one counts and the other does not lies between the two opens
	 * (legacy more) or between the two reads (perf_event more): the
	 * thread's CPU time there, measured, since under TCG a host stall
	 * there counts as CPU time too.
	 */
	CHECK(l.value + (t3 - t2) + 0.01 * e.value + step >= e.value &&
	      l.value <= e.value + (t1 - t0) + 0.01 * e.value + step,
	      "legacy %llu vs perf_event %llu (%.0f ns between the opens, "
	      "%.0f between the reads)", (unsigned long long)l.value,
	      (unsigned long long)e.value, t1 - t0, t3 - t2);
	CHECK(l.enabled == l.running && l.enabled > 0, "legacy times");
	printf("task-clock: legacy %llu ns, perf_event %llu ns, the CPU clock's "
	       "step %.0f ns\n", (unsigned long long)l.value,
	       (unsigned long long)e.value, step);
	pc_counter_close(lc);
	pc_counter_close(ec);

	/* page faults of N fresh pages */
	lc = open_on("page-faults", PC_BACKEND_LEGACY, 0);
	ec = open_on("page-faults", PC_BACKEND_EVENT, 0);
	CHECK(lc && ec, "open page-faults");
	if (!lc || !ec)
		goto out;
	workload_touch_pages(2000);
	pc_counter_read(lc, &l);
	pc_counter_read(ec, &e);
	CHECK(l.value >= 2000 && l.value <= 2020, "legacy faults %llu",
	      (unsigned long long)l.value);
	CHECK(l.value == e.value, "legacy %llu vs perf_event %llu faults",
	      (unsigned long long)l.value, (unsigned long long)e.value);
out:
	pc_counter_close(lc);
	pc_counter_close(ec);
}

/* What the 2008 call cannot do is refused, not faked. */

/*
 * The kernel answers an event the CPU cannot count with the 2008 EINVAL;
 * the backend gives it back as perf_event_open()'s ENOENT and its "not
 * supported here" advice.  Ground truth: perf_event_open()'s own answer
 * for each generic hardware event, on this machine.
 */
static void test_uncountable(void)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses",
	};
	struct perf_event_attr a;
	char buf[256];

	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
		struct pc_counter *ev, *lg;
		int everr, lgerr;

		pc_event_parse(hw[i], &a, NULL);
		ev = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_EVENT));
		everr = errno;
		lg = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY));
		lgerr = errno;
		CHECK(!ev == !lg, "%s: perf_event_open %s, legacy %s", hw[i],
		      ev ? "opens" : strerror(everr), lg ? "opens" : strerror(lgerr));
		if (!ev && !lg) {
			CHECK(lgerr == ENOENT, "%s uncountable on legacy: %s",
			      hw[i], strerror(lgerr));
			pc_strerror(lgerr, &a, buf, sizeof(buf));
			CHECK(strstr(buf, "is not supported on this machine") != NULL,
			      "%s advice: %s", hw[i], buf);
		}
		pc_counter_close(ev);
		pc_counter_close(lg);
	}
}
static void test_refusals(void)
{
	struct perf_event_attr a;
	struct pc_counter *lead, *c;
	char buf[512];
	pid_t pid;

	pc_event_parse("task-clock", &a, NULL);
	c = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY,
					      .group = true));
	CHECK(!c && errno == EOPNOTSUPP, "group leader on legacy");
	a.inherit = 1;
	c = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY));
	CHECK(!c && errno == EOPNOTSUPP, "inherit on legacy");
	pc_strerror(EOPNOTSUPP, &a, buf, sizeof(buf));
	CHECK(strstr(buf, "2008") != NULL, "advice names the backend: %s", buf);
	pc_event_parse("task-clock:u", &a, NULL);
	c = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY));
	CHECK(!c && errno == EOPNOTSUPP, ":u on legacy");
	pc_event_parse("task-clock", &a, NULL);
	lead = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY));
	CHECK(lead && pc_counter_enable(lead) == -1 && errno == EOPNOTSUPP,
	      "enable on legacy");
	pc_counter_close(lead);

	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	c = pc_counter_open(&a, &PC_OPEN_TASK(pid, .backend = PC_BACKEND_LEGACY));
	CHECK(!c && errno == ESRCH, "dead pid on legacy: %s", strerror(errno));
	pc_event_parse("instructions", &a, NULL);
	c = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY));
	if (!pc_probe()->hw_pmu)
		CHECK(!c && errno == ENOENT, "instructions without PMU: %s",
		      strerror(errno));
	pc_counter_close(c);
	test_uncountable();
}

/* The rounds of workload_spin() that take about 200 ms of CPU time in
   the tests/kernel guests on an idle host. */
#if defined(__aarch64__)
#define SPIN_ROUNDS_200MS 3300
#else
#define SPIN_ROUNDS_200MS 8000
#endif

/*
 * IRQ records through the ring API: IPs in our own loop, and as many
 * records as perf_event_open's sampling of the same loop gives at the
 * same time.  How many that is, is not known in advance: under TCG on a
 * loaded host a stall of the vCPU counts as CPU time and a late timer
 * interrupt fires once for all the periods it skipped, on both backends
 * alike.  The loop is a fixed amount of work, so that the records are
 * many on an idle host.
 */
static void test_sampling(void)
{
	struct perf_event_attr a;
	struct pc_counter *c, *ec;
	struct pc_ring *ring, *ering;
	struct pc_record rec;
	uint64_t n = 0, near = 0, en = 0;
	uintptr_t fn = (uintptr_t)workload_spin;
	double t0, cpu_ms;

	pc_event_parse("cpu-clock", &a, NULL);
	a.sample_period = 1000000;
	a.sample_type = PERF_SAMPLE_IP;
	c = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_LEGACY));
	ring = c ? pc_counter_mmap(c, 1) : NULL;
	CHECK(ring != NULL, "legacy IRQ counter: %s", strerror(errno));
	ec = pc_counter_open(&a, &PC_OPEN_TASK(0, .backend = PC_BACKEND_EVENT));
	ering = ec ? pc_counter_mmap(ec, 16) : NULL;
	CHECK(ering != NULL, "perf_event sampling counter: %s", strerror(errno));
	if (!ring || !ering) {
		pc_counter_close(c);
		pc_counter_close(ec);
		return;
	}
	t0 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	workload_spin(SPIN_ROUNDS_200MS);
	cpu_ms = (workload_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / 1e6;
	while (pc_ring_next(ring, &rec) == 1) {
		CHECK(rec.type == PERF_RECORD_SAMPLE && rec.sample.tid == (uint32_t)getpid(),
		      "sample record");
		n++;
		if (rec.sample.ip - fn < 512)
			near++;
	}
	while (pc_ring_next(ering, &rec) == 1)
		en += rec.type == PERF_RECORD_SAMPLE;
	printf("sampling: %llu legacy records, %llu perf_event samples, "
	       "%.0f ms of CPU\n", (unsigned long long)n,
	       (unsigned long long)en, cpu_ms);
	/* at most one a ms of CPU time; ~200 on an idle host */
	CHECK(n >= 1 && n <= cpu_ms + 5, "%llu samples in %.0f ms of CPU",
	      (unsigned long long)n, cpu_ms);
	/* give or take a timer interrupt at the start and the end */
	CHECK(n + 3 + en / 10 >= en && n <= en + 3 + en / 10,
	      "%llu legacy records, %llu perf_event samples", (unsigned long long)n,
	      (unsigned long long)en);
	CHECK(near >= n / 3, "%llu of %llu samples in workload_spin", (unsigned long long)near,
	      (unsigned long long)n);
	CHECK(pc_ring_lost(ring) == 0, "lost %llu", (unsigned long long)pc_ring_lost(ring));
	CHECK(pc_ring_lost(ering) == 0, "perf_event lost %llu",
	      (unsigned long long)pc_ring_lost(ering));
	pc_counter_close(c);
	pc_counter_close(ec);
}

int main(void)
{
	if (!pc_probe()->legacy)
		SKIP("this kernel has no perf_counter_open (no %s); tests/kernel "
		     "boots one that has", PERF_COUNTER_MARKER);
	printf("perf_counter_open is syscall %ld\n", pc_probe()->legacy_nr);
	test_counts();
	test_refusals();
	test_sampling();
	return check_done();
}
