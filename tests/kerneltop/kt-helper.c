/*
 * kt-helper.c - workloads with known answers for kerneltop's tests.
 *
 *   kt-helper hot MS       one thread: ~90% of its time in kt_hot(), ~10%
 *                          in kt_warm() (the same loop, 9:1 iterations)
 *   kt-helper threads MS   threads named "kt-alpha" (in kt_alpha()) and
 *                          "kt-beta" (in kt_beta()) taking turns, 2:1 in
 *                          iterations of the same loop: 2:1 in time
 *                          whatever else the machine runs
 *   kt-helper mix MS       five functions with different loop bodies, by
 *                          iteration counts; what their shares are is for
 *                          perf to say (accuracy.sh), not tuned here
 *   kt-helper faults MS    touches fresh pages in kt_touch() (one minor
 *                          fault each) and burns in kt_hot() in between:
 *                          cpu-clock sees both, page-faults only kt_touch
 *   kt-helper burn MS      a plain busy loop in kt_burn() (bench burner)
 *   kt-helper flip MS      "hot" until SIGUSR1, then the other way round
 *                          (~90% kt_warm, ~10% kt_hot): the rows swap;
 *                          prints "flipped" on stderr when they do
 *   kt-helper unicode MS   "hot", but the hot function's symbol is
 *                          "hot_ünïcödé_漢字" (valid UTF-8, 16 columns:
 *                          two CJK characters are 2 columns each), in
 *                          a thread named "kt-漢字" (9 bytes, 7 columns)
 *   kt-helper evil MS      "hot" under a command name that is a terminal
 *                          control sequence (OSC 2, set the window title
 *                          to "pwn"): it must reach no terminal as such
 *   kt-helper forever      the same as "hot 0"
 *   kt-helper rates MS     the task table's known rates.  At SIGUSR1,
 *                          thread "kt-fault" touches RATES_BURSTS x
 *                          RATES_PAGES fresh pages (50 ms apart) and
 *                          exits at once, and thread "kt-spin" spins 3
 *                          ms of its own CPU time and sleeps 2 ms,
 *                          RATES_SPINS times, then sleeps; then the main
 *                          thread prints "faulted N thread M spun MS":
 *                          N the process's minor faults from before the
 *                          signal to kt-fault's end (its exit's
 *                          included; the others are quiet), M the
 *                          thread's own over the bursts, MS kt-spin's
 *                          CPU time over its spins.  "ready PID
 *                          TID-SPIN TID-FAULT" once both run.
 *   kt-helper short MS     tasks started after a tool attached: at
 *                          SIGUSR1, SHORT_N threads one after another,
 *                          then SHORT_N child processes, each touching
 *                          SHORT_PAGES fresh pages and spinning 4 ms of
 *                          its CPU time before it ends; then "done" on
 *                          stderr.  "ready PID" once it waits.
 *   kt-helper naps MS      sleeps 1 ms at a time under the name
 *                          "kt-napper": every sched:sched_switch of it
 *                          leaves it asleep (prev_state=S), but for a
 *                          rare preemption
 *
 * MS is wall-clock milliseconds; 0 means until killed (the helper then
 * also dies with its parent).  Prints "ready PID" on stderr when it starts
 * its work ("ready PID TID-ALPHA TID-BETA" for threads), so that a test
 * can attach to it.  Each function sits between BEGIN/END comments that
 * the annotate tests grep for.  Built -O1 -g -fno-inline, no sanitizers:
 * it is the measured program, not code under test.
 */
#define _GNU_SOURCE	/* RUSAGE_THREAD */
#include <dirent.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../workload.h"

#define NOINLINE __attribute__((noinline))

volatile unsigned long sink;

unsigned long kt_hot(unsigned long iters);
unsigned long kt_warm(unsigned long iters);
unsigned long kt_alpha(unsigned long iters);
unsigned long kt_beta(unsigned long iters);
unsigned long kt_burn(unsigned long iters);
/* the symbol's name is not ASCII: an assembler label, for any compiler */
unsigned long kt_uni(unsigned long iters)
	__asm__("hot_\xc3\xbc" "n\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9"
		"_\xe6\xbc\xa2\xe5\xad\x97");
unsigned long kt_touch(long pages);
unsigned long kt_mix_scan(unsigned long iters);
unsigned long kt_mix_hash(unsigned long iters);
unsigned long kt_mix_divide(unsigned long iters);
unsigned long kt_mix_shuffle(unsigned long iters);
unsigned long kt_mix_poly(unsigned long iters);

/* kt_hot and kt_warm: the same loop, so time follows iteration counts */
NOINLINE unsigned long kt_hot(unsigned long iters)	/* BEGIN kt_hot */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}							/* END kt_hot */

NOINLINE unsigned long kt_warm(unsigned long iters)	/* BEGIN kt_warm */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}							/* END kt_warm */

NOINLINE unsigned long kt_alpha(unsigned long iters)	/* BEGIN kt_alpha */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}							/* END kt_alpha */

NOINLINE unsigned long kt_beta(unsigned long iters)	/* BEGIN kt_beta */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}							/* END kt_beta */

NOINLINE unsigned long kt_uni(unsigned long iters)	/* BEGIN kt_uni */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 7 + (x >> 3);
	sink = x;
	return x;
}							/* END kt_uni */

NOINLINE unsigned long kt_burn(unsigned long iters)	/* BEGIN kt_burn */
{
	unsigned long i, x = sink;

	for (i = 0; i < iters; i++)
		x += i * 3 + (x >> 4);
	sink = x;
	return x;
}							/* END kt_burn */

/* Touch `pages` fresh anonymous pages once each: one minor fault each. */
NOINLINE unsigned long kt_touch(long pages)		/* BEGIN kt_touch */
{
	long page = sysconf(_SC_PAGESIZE), i;
	volatile char *m = mmap(NULL, (size_t)(pages * page),
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return 0;
	madvise((void *)m, (size_t)(pages * page), MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		m[i * page] = (char)i;
	munmap((void *)m, (size_t)(pages * page));
	return (unsigned long)pages;
}							/* END kt_touch */

/* The mix: five unlike bodies (a byte scan, a multiplicative hash, a
   dependent division, an array shuffle, a polynomial). */
static unsigned char mix_buf[4096];
static unsigned int mix_arr[1024];

NOINLINE unsigned long kt_mix_scan(unsigned long iters)	/* BEGIN kt_mix_scan */
{
	unsigned long i, n = 0;

	for (i = 0; i < iters; i++)
		n += mix_buf[(i * 67) & 4095] == (unsigned char)i;
	sink += n;
	return n;
}							/* END kt_mix_scan */

NOINLINE unsigned long kt_mix_hash(unsigned long iters)	/* BEGIN kt_mix_hash */
{
	unsigned long i, h = sink | 1;

	for (i = 0; i < iters; i++)
		h = (h ^ i) * 0x100000001b3UL;
	sink = h;
	return h;
}							/* END kt_mix_hash */

NOINLINE unsigned long kt_mix_divide(unsigned long iters)	/* BEGIN kt_mix_divide */
{
	unsigned long i, x = sink | 0x12345;

	for (i = 1; i <= iters; i++)
		x = x / (i | 3) + x * 3 + i;
	sink = x;
	return x;
}							/* END kt_mix_divide */

NOINLINE unsigned long kt_mix_shuffle(unsigned long iters)	/* BEGIN kt_mix_shuffle */
{
	unsigned long i;
	unsigned int t;

	for (i = 0; i < iters; i++) {
		unsigned int a = (unsigned int)(i * 7) & 1023;
		unsigned int b = (unsigned int)(i * 13 + sink) & 1023;

		t = mix_arr[a];
		mix_arr[a] = mix_arr[b];
		mix_arr[b] = t + 1;
	}
	return mix_arr[0];
}							/* END kt_mix_shuffle */

NOINLINE unsigned long kt_mix_poly(unsigned long iters)	/* BEGIN kt_mix_poly */
{
	unsigned long i;
	double x = 0.5, y = (double)(sink & 7);

	for (i = 0; i < iters; i++)
		y = y * x + 1.25 * x * x - 0.5;
	sink += (unsigned long)y;
	return (unsigned long)y;
}							/* END kt_mix_poly */

static double now_ms(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double end_ms;	/* CLOCK_MONOTONIC; 0: never */

static int running(void)
{
	return end_ms == 0 || now_ms(CLOCK_MONOTONIC) < end_ms;
}

/*
 * alpha and beta take turns (one runs while the other waits), alpha with
 * twice beta's iterations of the same loop: their CPU times are 2:1 how
 * ever the scheduler treats them.
 */
static sem_t alpha_turn, beta_turn;
static volatile int threads_done;

static void *alpha_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "kt-alpha", 0, 0, 0);
	while (running()) {
		kt_alpha(1200000);
		sem_post(&beta_turn);
		sem_wait(&alpha_turn);
	}
	threads_done = 1;
	sem_post(&beta_turn);
	return NULL;
}

static void *beta_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "kt-beta", 0, 0, 0);
	for (;;) {
		sem_wait(&beta_turn);
		if (threads_done)
			break;
		kt_beta(600000);
		sem_post(&alpha_turn);
	}
	return NULL;
}

static int run_threads(void)
{
	pthread_t a, b;
	volatile pid_t tids[2] = { 0, 0 };
	int i;

	if (sem_init(&alpha_turn, 0, 0) || sem_init(&beta_turn, 0, 0) ||
	    pthread_create(&a, NULL, alpha_main, NULL) ||
	    pthread_create(&b, NULL, beta_main, NULL))
		return 1;
	/* the tids, by name, from /proc: the threads name themselves (the
	   tids need not follow the pid: other processes take pids between) */
	for (i = 0; i < 2000 && (!tids[0] || !tids[1]); i++) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;

		while (d && (e = readdir(d)) != NULL) {
			char path[300], comm[32];
			FILE *f;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
				 e->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(comm, sizeof(comm), f)) {
				if (!strcmp(comm, "kt-alpha\n"))
					tids[0] = atoi(e->d_name);
				else if (!strcmp(comm, "kt-beta\n"))
					tids[1] = atoi(e->d_name);
			}
			fclose(f);
		}
		if (d)
			closedir(d);
		if (!tids[0] || !tids[1])
			usleep(1000);
	}
	fprintf(stderr, "ready %d %d %d\n", (int)getpid(), (int)tids[0],
		(int)tids[1]);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}

/* naps: switch out asleep, again and again, using no CPU to speak of */
static int run_naps(void)
{
	struct timespec nap = { 0, 1000000 };

	prctl(PR_SET_NAME, "kt-napper", 0, 0, 0);
	fprintf(stderr, "ready %d\n", (int)getpid());
	while (!end_ms || now_ms(CLOCK_MONOTONIC) < end_ms)
		nanosleep(&nap, NULL);
	return 0;
}

#define RATES_BURSTS 40
#define RATES_PAGES 100
#define RATES_SPINS 300

/* RATES_PAGES fresh pages touched: one minor fault each. */
static void rates_burst(long page)
{
	volatile char *m = mmap(NULL, (size_t)(RATES_PAGES * page),
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		abort();
	madvise((void *)m, (size_t)(RATES_PAGES * page), MADV_NOHUGEPAGE);
	for (long i = 0; i < RATES_PAGES; i++)
		m[i * page] = 1;
	munmap((void *)m, (size_t)(RATES_PAGES * page));
}

static sigset_t rates_set;
static sem_t rates_up;
static pid_t rates_tid[2];
static long rates_faulted;

static sem_t rates_go, rates_spun;
static double rates_spin_ms;

static void *rates_spin(void *arg)
{
	struct timespec nap = { 0, 2000000 };
	double t0;

	(void)arg;
	prctl(PR_SET_NAME, "kt-spin", 0, 0, 0);
	rates_tid[0] = (pid_t)syscall(SYS_gettid);
	nanosleep(&nap, NULL);
	sem_post(&rates_up);
	sem_wait(&rates_go);
	t0 = now_ms(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; i < RATES_SPINS; i++) {
		double s0 = now_ms(CLOCK_THREAD_CPUTIME_ID);

		while (now_ms(CLOCK_THREAD_CPUTIME_ID) - s0 < 3)
			sink++;
		nanosleep(&nap, NULL);
	}
	rates_spin_ms = now_ms(CLOCK_THREAD_CPUTIME_ID) - t0;
	sem_post(&rates_spun);
	for (;;)
		pause();
	return NULL;
}

static void *rates_fault(void *arg)
{
	struct timespec gap = { 0, 50000000 };
	long page = sysconf(_SC_PAGESIZE);
	struct rusage r0, r1;
	int sig;

	(void)arg;
	prctl(PR_SET_NAME, "kt-fault", 0, 0, 0);
	rates_tid[1] = (pid_t)syscall(SYS_gettid);
	/* every call below made once before: none faults in later */
	rates_burst(page);
	nanosleep(&(struct timespec){ 0, 1000 }, NULL);
	getrusage(RUSAGE_THREAD, &r0);
	sem_post(&rates_up);
	sigwait(&rates_set, &sig);
	getrusage(RUSAGE_THREAD, &r0);
	sem_post(&rates_go);
	for (int b = 0; b < RATES_BURSTS; b++) {
		rates_burst(page);
		if (b + 1 < RATES_BURSTS)
			nanosleep(&gap, NULL);
	}
	getrusage(RUSAGE_THREAD, &r1);
	rates_faulted = r1.ru_minflt - r0.ru_minflt;
	/* its exit faults in a page or two more: the main thread's count
	   (the process's, the others quiet) takes them in */
	return NULL;
}

static int run_rates(void)
{
	pthread_t spin, fault;
	struct rusage p0, p1;

	sigemptyset(&rates_set);
	sigaddset(&rates_set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &rates_set, NULL);
	sem_init(&rates_up, 0, 0);
	sem_init(&rates_go, 0, 0);
	sem_init(&rates_spun, 0, 0);
	if (pthread_create(&spin, NULL, rates_spin, NULL) ||
	    pthread_create(&fault, NULL, rates_fault, NULL))
		return 1;
	sem_wait(&rates_up);
	sem_wait(&rates_up);
	fprintf(stderr, "ready %d %d %d\n", (int)getpid(), (int)rates_tid[0],
		(int)rates_tid[1]);
	getrusage(RUSAGE_SELF, &p0);
	pthread_join(fault, NULL);
	getrusage(RUSAGE_SELF, &p1);
	sem_wait(&rates_spun);
	fprintf(stderr, "faulted %ld thread %ld spun %.3f\n",
		p1.ru_minflt - p0.ru_minflt, rates_faulted, rates_spin_ms);
	pthread_join(spin, NULL);
	return 0;
}

#define SHORT_N 20
#define SHORT_PAGES 150

/* One short task's work: fresh pages, then 4 ms of its CPU time. */
static void *short_work(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *m = mmap(NULL, (size_t)(SHORT_PAGES * page),
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t0 = now_ms(CLOCK_THREAD_CPUTIME_ID);

	(void)arg;
	if (m == MAP_FAILED)
		abort();
	madvise((void *)m, (size_t)(SHORT_PAGES * page), MADV_NOHUGEPAGE);
	for (long i = 0; i < SHORT_PAGES; i++)
		m[i * page] = 1;
	while (now_ms(CLOCK_THREAD_CPUTIME_ID) - t0 < 4)
		sink++;
	munmap((void *)m, (size_t)(SHORT_PAGES * page));
	return NULL;
}

static int run_short(void)
{
	workload_ready_then_usr1();
	for (int i = 0; i < SHORT_N; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, short_work, NULL) ||
		    pthread_join(t, NULL))
			return 1;
	}
	for (int i = 0; i < SHORT_N; i++) {
		pid_t c = fork();

		if (c < 0)
			return 1;
		if (c == 0) {
			short_work(NULL);
			_exit(0);
		}
		waitpid(c, NULL, 0);
	}
	fprintf(stderr, "done\n");
	for (;;)
		pause();
}

static volatile sig_atomic_t flip;

static void on_usr1(int sig)
{
	(void)sig;
	flip = 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "hot";
	double ms = argc > 2 ? atof(argv[2]) : 500;
	unsigned long rounds = 0;

	if (!strcmp(mode, "forever")) {
		mode = "hot";
		ms = 0;
	}
	if (ms < 0 || (argc > 2 && ms == 0 && strcmp(argv[2], "0") != 0)) {
		fprintf(stderr, "kt-helper: bad MS '%s'\n", argv[2]);
		return 2;
	}
	if (ms == 0)
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	end_ms = ms > 0 ? now_ms(CLOCK_MONOTONIC) + ms : 0;
	if (!strcmp(mode, "threads"))
		return run_threads();
	if (!strcmp(mode, "naps"))
		return run_naps();
	if (!strcmp(mode, "rates"))
		return run_rates();
	if (!strcmp(mode, "short"))
		return run_short();
	if (!strcmp(mode, "unicode"))
		prctl(PR_SET_NAME, "kt-\xe6\xbc\xa2\xe5\xad\x97", 0, 0, 0);
	if (!strcmp(mode, "evil")) {
		prctl(PR_SET_NAME, "\033]2;pwn\007", 0, 0, 0);
		mode = "hot";
	}
	if (!strcmp(mode, "flip"))
		signal(SIGUSR1, on_usr1);
	if (strcmp(mode, "hot") && strcmp(mode, "mix") &&
	    strcmp(mode, "faults") && strcmp(mode, "burn") &&
	    strcmp(mode, "unicode") && strcmp(mode, "flip")) {
		fprintf(stderr, "kt-helper: unknown mode '%s'\n", mode);
		return 2;
	}
	fprintf(stderr, "ready %d\n", (int)getpid());
	while (running()) {
		if (!strcmp(mode, "flip") && flip == 1) {
			fprintf(stderr, "flipped\n");
			flip = 2;
		}
		if (!strcmp(mode, "flip") && flip) {
			kt_warm(900000);
			kt_hot(100000);
		} else if (!strcmp(mode, "hot") || !strcmp(mode, "flip")) {
			kt_hot(900000);
			kt_warm(100000);
		} else if (!strcmp(mode, "mix")) {
			kt_mix_scan(130000);
			kt_mix_hash(250000);
			kt_mix_divide(32000);
			kt_mix_shuffle(60000);
			kt_mix_poly(48000);
		} else if (!strcmp(mode, "unicode")) {
			kt_uni(900000);
			kt_warm(100000);
		} else if (!strcmp(mode, "faults")) {
			kt_touch(64);
			kt_hot(200000);
		} else {
			kt_burn(1000000);
		}
		rounds++;
	}
	sink += rounds;
	return 0;
}
