/*
 * test-countset: the counting set through the real kernel, against
 * ground truth: a group read in one go (faults of pages we touch, CPU
 * time of a loop), a gone thread dropped and an ended one still read,
 * a counter that ran part of the time scaled to the whole, perf stat's
 * all-or-none groups, units removed.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sysapi/sysapi.h>
#include "../check.h"
#include "../workload.h"

static struct pc_countset *set_of(const char *events,
				  const struct pc_countset_opts *o)
{
	struct pc_event_list list = { 0 };
	struct pc_countset *set;

	if (pc_event_list_parse(&list, events, NULL) != 0)
		return NULL;
	set = pc_countset_new(&list, o);
	pc_event_list_release(&list);	/* the set has its own copy */
	return set;
}

/* {task-clock,page-faults} in one read, a lone context-switches beside. */
static void test_group_read(void)
{
	struct pc_countset *set = set_of("{task-clock,page-faults},"
					 "context-switches",
					 &PC_COUNTSET_OPTS());
	double t0, t1, w0, w1, step = workload_clock_step_ns(
					  CLOCK_THREAD_CPUTIME_ID);
	struct pc_count n[3];

	CHECK(set != NULL, "new: %s", strerror(errno));
	if (!set)
		return;
	CHECK(pc_countset_add(set, 0, -1) == 0, "add");
	CHECK(pc_countset_open(set) == 0, "open: %s", strerror(errno));
	CHECK(pc_countset_events(set) == 3 && pc_countset_units(set) == 1,
	      "3 events on 1 unit");
	w0 = workload_now_ns(CLOCK_MONOTONIC);
	t0 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	CHECK(pc_countset_enable(set) == 0, "enable: %s", strerror(errno));
	workload_touch_pages(2000);
	workload_burn_cpu_ms(100);
	CHECK(pc_countset_disable(set) == 0, "disable: %s", strerror(errno));
	t1 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	w1 = workload_now_ns(CLOCK_MONOTONIC);
	CHECK(pc_countset_read(set, 0, n) == 0, "read: %s", strerror(errno));
	/* the loop's own faults, and the few of the calls around it */
	CHECK(n[1].value >= 2000 && n[1].value < 2300,
	      "page-faults %llu for 2000 pages",
	      (unsigned long long)n[1].value);
	CHECK(n[0].value + 2 * step > (t1 - t0) * 0.9,
	      "task-clock %llu ns < 90%% of the thread's CPU %.0f ns",
	      (unsigned long long)n[0].value, t1 - t0);
	CHECK(n[0].value < (w1 - w0) * 1.01 + 2e6,
	      "task-clock %llu ns > the wall clock %.0f ns",
	      (unsigned long long)n[0].value, w1 - w0);
	/* one read: one pair of times for the group, each its own id */
	CHECK(n[0].enabled == n[1].enabled && n[0].running == n[1].running,
	      "the group's times differ: %llu/%llu vs %llu/%llu",
	      (unsigned long long)n[0].enabled,
	      (unsigned long long)n[0].running,
	      (unsigned long long)n[1].enabled,
	      (unsigned long long)n[1].running);
	CHECK(n[0].id && n[1].id && n[0].id != n[1].id, "ids %llu %llu",
	      (unsigned long long)n[0].id, (unsigned long long)n[1].id);
	CHECK(n[2].enabled > 0, "the lone event counted too");
	for (size_t e = 0; e < 3; e++)
		CHECK(pc_countset_supported(set, e) &&
		      pc_countset_counter(set, e, 0), "event %zu open", e);
	CHECK(pc_countset_counter(set, 3, 0) == NULL &&
	      pc_countset_counter(set, 0, 1) == NULL, "out of range: NULL");
	CHECK(pc_countset_read(set, 1, n) == -1 && errno == EINVAL,
	      "read of no unit: EINVAL");
	CHECK(pc_countset_failed(set, NULL, NULL) == 0, "nothing failed");
	pc_countset_free(set);
}

static pid_t reaped_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

struct ender {
	int ready[2], go[2];
	pid_t tid;
};

/* Say its tid, wait for the word, touch 100 pages and end. */
static void *ender_main(void *arg)
{
	struct ender *t = arg;
	char c;

	t->tid = (pid_t)syscall(SYS_gettid);
	if (write(t->ready[1], "r", 1) != 1 || read(t->go[0], &c, 1) != 1)
		return NULL;
	workload_touch_pages(100);
	return NULL;
}

/* A task gone before the open is dropped, its unit kept; one that ends
   while counted keeps its last counts. */
static void test_dead_thread(void)
{
	struct pc_countset *set = set_of("{task-clock,page-faults}",
					 &PC_COUNTSET_OPTS(.enabled = true));
	pid_t dead = reaped_pid();
	struct pc_count n[2];
	struct ender t;
	pthread_t th;
	char msg[PC_STRERROR_SIZE], want[64];
	size_t ev = 9, unit = 9;
	char c;

	CHECK(set && dead > 0, "new, fork");
	if (!set || dead <= 0)
		return;
	pc_countset_add(set, 0, -1);
	pc_countset_add(set, dead, -1);
	CHECK(pc_countset_open(set) == 0, "one of two gone: open %s",
	      strerror(errno));
	CHECK(pc_countset_counter(set, 0, 0) && pc_countset_counter(set, 1, 0),
	      "the live unit counts");
	CHECK(!pc_countset_counter(set, 0, 1) && !pc_countset_counter(set, 1, 1),
	      "the gone unit has no counter");
	CHECK(pc_countset_units(set) == 2, "the gone unit keeps its place");
	CHECK(pc_countset_failed(set, &ev, &unit) == ESRCH && unit == 1 &&
	      ev == 0, "failed: ESRCH on unit 1 event 0 (%zu %zu)", unit, ev);
	snprintf(want, sizeof(want), "on thread %d", (int)dead);
	pc_countset_strerror(set, msg, sizeof(msg));
	CHECK(strstr(msg, want) != NULL, "strerror names the thread: %s", msg);
	CHECK(pc_countset_read(set, 1, n) == 0 && n[0].running == 0 &&
	      n[1].value == 0, "the gone unit reads 0, not counted");
	pc_countset_free(set);

	set = set_of("task-clock", &PC_COUNTSET_OPTS(.enabled = true));
	pc_countset_add(set, dead, -1);
	CHECK(pc_countset_open(set) == -1 && errno == ESRCH,
	      "every unit gone: ESRCH (%s)", strerror(errno));
	pc_countset_free(set);

	if (pipe(t.ready) != 0 || pipe(t.go) != 0 || pthread_create(&th, NULL, ender_main, &t)) {
		CHECK(0, "pipe, thread: %s", strerror(errno));
		return;
	}
	if (read(t.ready[0], &c, 1) != 1)
		CHECK(0, "the thread said nothing");
	set = set_of("{task-clock,page-faults}",
		     &PC_COUNTSET_OPTS(.enabled = true));
	pc_countset_add(set, t.tid, -1);
	CHECK(pc_countset_open(set) == 0, "open the thread: %s",
	      strerror(errno));
	CHECK(write(t.go[1], "g", 1) == 1, "go");
	pthread_join(th, NULL);
	CHECK(pc_countset_read(set, 0, n) == 0, "an ended thread reads: %s",
	      strerror(errno));
	CHECK(n[1].value >= 100 && n[1].value < 400,
	      "its last counts: %llu faults for 100 pages",
	      (unsigned long long)n[1].value);
	pc_countset_free(set);
	close(t.ready[0]);
	close(t.ready[1]);
	close(t.go[0]);
	close(t.go[1]);
}

/*
 * A task counter kept to one CPU is enabled while the task runs anywhere
 * and runs only while it runs there: task-clock then counts the time on
 * that CPU, and scaled by enabled/running it is the task's whole CPU
 * time, whatever the share the scheduler gave each CPU.
 */
static void test_scaling(void)
{
	struct pc_countset *set;
	cpu_set_t old, one;
	int cpus[2], ncpus = 0;
	double t0, t1, scaled, step = workload_clock_step_ns(
					   CLOCK_THREAD_CPUTIME_ID);
	struct pc_count n;
	bool ran;

	if (sched_getaffinity(0, sizeof(old), &old) != 0)
		return;
	for (int c = 0; c < CPU_SETSIZE && ncpus < 2; c++)
		if (CPU_ISSET(c, &old))
			cpus[ncpus++] = c;
	if (ncpus < 2) {
		printf("skip: scaling needs two CPUs to run on\n");
		return;
	}
	set = set_of("task-clock", &PC_COUNTSET_OPTS());
	pc_countset_add(set, 0, cpus[0]);
	CHECK(pc_countset_open(set) == 0, "open on CPU %d: %s", cpus[0],
	      strerror(errno));
	t0 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	pc_countset_enable(set);
	for (int i = 0; i < 8; i++) {
		CPU_ZERO(&one);
		CPU_SET(cpus[i % 2], &one);
		if (sched_setaffinity(0, sizeof(one), &one) != 0)
			break;
		workload_burn_cpu_ms(25);
	}
	pc_countset_disable(set);
	t1 = workload_now_ns(CLOCK_THREAD_CPUTIME_ID);
	sched_setaffinity(0, sizeof(old), &old);
	CHECK(pc_countset_read(set, 0, &n) == 0, "read: %s", strerror(errno));
	scaled = pc_count_scaled(&n, &ran);
	CHECK(ran && n.running < n.enabled * 0.9,
	      "ran part of the time: running %llu of enabled %llu ns",
	      (unsigned long long)n.running, (unsigned long long)n.enabled);
	/* the loop's 200 ms and the calls around it, give or take a
	   clock step on each side and 10% */
	CHECK(scaled + 2 * step > (t1 - t0) * 0.9 &&
	      scaled < (t1 - t0) * 1.1 + 2 * step + 2e6,
	      "scaled %.0f ns (value %llu, %llu/%llu) vs the thread's CPU "
	      "%.0f ns", scaled, (unsigned long long)n.value,
	      (unsigned long long)n.enabled, (unsigned long long)n.running,
	      t1 - t0);
	pc_countset_free(set);
}

/* Where the machine cannot count cycles (a VM): a group without it, or
   none with strict_groups, perf stat's rule. */
static void test_groups(void)
{
	struct perf_event_attr cycles;
	struct pc_countset *set;
	char msg[PC_STRERROR_SIZE];
	size_t ev = 9;

	pc_event_parse("cycles", &cycles, NULL);
	if (pc_event_available(&cycles, NULL)) {
		printf("skip: this machine counts cycles\n");
		return;
	}
	set = set_of("{task-clock,cycles}", &PC_COUNTSET_OPTS());
	pc_countset_add(set, 0, -1);
	CHECK(pc_countset_open(set) == 0, "open: %s", strerror(errno));
	CHECK(pc_countset_counter(set, 0, 0) && !pc_countset_counter(set, 1, 0),
	      "the group counts without the member it cannot");
	CHECK(pc_countset_supported(set, 0) && !pc_countset_supported(set, 1),
	      "supported: task-clock, not cycles");
	pc_countset_free(set);

	set = set_of("{task-clock,cycles}",
		     &PC_COUNTSET_OPTS(.strict_groups = true));
	pc_countset_add(set, 0, -1);
	CHECK(pc_countset_open(set) == 0, "strict: open: %s", strerror(errno));
	CHECK(!pc_countset_counter(set, 0, 0) && !pc_countset_counter(set, 1, 0),
	      "strict: the group is closed");
	CHECK(pc_countset_supported(set, 0), "strict: task-clock not counted, "
	      "yet supported");
	pc_countset_free(set);

	set = set_of("{cycles,task-clock}",
		     &PC_COUNTSET_OPTS(.strict_groups = true));
	pc_countset_add(set, 0, -1);
	CHECK(pc_countset_open(set) == -1 && pc_errno_unsupported(errno),
	      "strict: a leader it cannot count fails: %s", strerror(errno));
	CHECK(pc_countset_failed(set, &ev, NULL) && ev == 0, "at event 0");
	pc_countset_strerror(set, msg, sizeof(msg));
	CHECK(strstr(msg, "the group led by 'cycles'") != NULL, "%s", msg);
	pc_countset_free(set);

	set = set_of("{cycles,task-clock}", &PC_COUNTSET_OPTS());
	pc_countset_add(set, 0, -1);
	CHECK(pc_countset_open(set) == 0 && !pc_countset_counter(set, 1, 0),
	      "not strict: a group it cannot lead is left out");
	pc_countset_free(set);
}

/* Units added after an open, and removed: the later ones move down. */
static void test_units(void)
{
	struct pc_countset *set = set_of("task-clock",
					 &PC_COUNTSET_OPTS(.user_only = true));
	struct pc_counter *c2;

	pc_countset_add(set, 0, -1);
	CHECK(pc_countset_open(set) == 0, "open 1");
	CHECK(pc_countset_add(set, 0, -1) == 1 && pc_countset_add(set, 0, -1) == 2,
	      "units 1 and 2");
	CHECK(!pc_countset_counter(set, 0, 1), "not open before the open");
	CHECK(pc_countset_open(set) == 0, "open 2");
	c2 = pc_countset_counter(set, 0, 2);
	CHECK(c2 && pc_countset_counter(set, 0, 1), "both opened");
	pc_countset_remove(set, 1);
	CHECK(pc_countset_units(set) == 2 && pc_countset_counter(set, 0, 1) == c2,
	      "unit 2 is now unit 1");
	pc_countset_remove(set, 5);
	CHECK(pc_countset_units(set) == 2, "removing no unit is a no-op");
	CHECK(pc_countset_user_only(set) && c2 &&
	      pc_counter_attr(c2)->exclude_kernel &&
	      !pc_counter_attr(c2)->exclude_user, "user_only: :u");
	pc_countset_free(set);
	pc_countset_free(NULL);
}

int main(void)
{
	if (!pc_probe()->perf_event)
		SKIP("perf_event_open does not work here (paranoid %d)",
		     pc_probe()->paranoid);
	test_group_read();
	test_dead_thread();
	test_scaling();
	test_groups();
	test_units();
	return check_done();
}
