/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctest.h - what the files of the guest test program share: the harness
 * (one PASS/FAIL line per test), raw calls, workloads.  See pctest.c.
 */
#ifndef PCTEST_H
#define PCTEST_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <sysapi/perf_counter.h>

#define UNPRIV_UID 65534

extern long nr_counter_open;	/* from the marker; -1 when absent */
extern const char *cur;		/* the running test */
extern char why[512];		/* its first failure, "" while passing */

/* Record why the current test fails (the first reason is kept);
   report() prints the PASS or FAIL line of the current test. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report(void);
long read_long(const char *path);
int write_str(const char *path, const char *s);
/* perf_counter_open through the marker's number; perf_event_open. */
int pco(int32_t type, uint32_t period, uint32_t record, pid_t pid, int cpu);
int peo(uint32_t type, uint64_t config, pid_t pid, int cpu);
/* Read one u64 count (fail() otherwise). */
uint64_t rd(int fd);
uint64_t now_ns(clockid_t clk);
/* ms of this thread's CPU time, in user space / mostly in the kernel. */
void busy(unsigned int ms);
void kernel_busy(unsigned int ms);
void touch_pages(size_t n);
uint64_t rusage_ns(void);
/* ret must be -1 with errno err; fail() and -1 otherwise. */
int expect_err(int ret, int err, const char *what);
/*
 * A child held on a pipe until worker_go(go): then it runs run(arg) and
 * exits 0.  Returns its pid, or -1.
 */
pid_t child_hold(void (*run)(const void *arg), const void *arg, int *go);

/*
 * A worker held on a pipe until worker_go(): then it sleeps sleep_ms,
 * spins busy_ms and exits.  Returns its pid (and *go), or -1 with errno.
 */
pid_t worker_hold(unsigned int sleep_ms, unsigned int busy_ms, int *go);
void worker_go(int go);
/* ip inside this program's text */
int in_text(uint64_t ip);

/* pctest-simple.c, pctest-irq.c: the tests, run as root. */
void t_marker(void);
void t_simple_task_clock(void);
void t_simple_page_faults(void);
void t_agree(void);
void t_simple_read_sizes(void);
void t_ioc_read(void);
void t_bad_args(void);
void t_dead_pid(void);
void t_hw_types(void);
void t_cpu_wide_root(void);
void t_other_task(void);
void t_prctl_disable(void);
void t_close_frees(void);
void t_irq_read_2008(void);
void t_irq_bulk_read(void);
void t_irq_nonblock(void);
void t_irq_poll(void);
void t_irq_block_wakeup(void);
void t_irq_lost(void);
void t_root_kernel_samples(void);

/* pctest-unpriv.c: the unprivileged cases, each in a child as nobody:
   unpriv() runs fn there with that perf_event_paranoid, fn's exit status
   is the verdict. */
void unpriv(const char *name, int (*fn)(void), const char *paranoid);
void unpriv_tests(void);

/* pctest-hw.c: the hardware types, where the guest has a PMU. */
void hw_tests(void);
/* hw_loop(n), n > 0: 8n instructions in [hw_loop, hw_loop_end). */
void hw_loop(uint64_t n);
extern const char hw_loop_end[];
/*
 * A child held in read() on a pipe until worker_go(*go): then it runs
 * hw_loop(n) and exits.  Returned only once the child sleeps in that
 * read(), so that counters opened now see the same user-space
 * instructions on every run.  Its pid, or -1.
 */
pid_t loop_child(uint64_t n, int *go);

/* pctest-period.c: hw_event_period on a SIMPLE counter. */
void t_simple_period(void);

/* pctest-reserve.c: perf_counters/reserve_percpu and overcommit. */
void reserve_tests(void);

#endif
