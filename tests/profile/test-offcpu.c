/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-offcpu.c - the off-CPU pairing model on record sequences with
 * known answers: each case is a list of records (as the feed hands them,
 * in the order read) and the spans it must give, in a text form.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "profile/offcpu.h"
#include "../check.h"

/* One input record. */
struct rec {
	char kind;		/* 's' stack, 'o' out, 'p' out preempted,
				   'i' in, 'x' exit, 'l' lost, 'f' flush,
				   'n' an on-CPU sample */
	int tid;
	unsigned long long time;
	const char *chain;	/* 's': kernel frames, leaf first, by ',' */
};

struct ocase {
	const char *name;
	struct rec recs[12];	/* at most 12 */
	const char *spans;	/* "tid:ns:state:where;" for each span, a
				   '*' after ns when estimated */
	unsigned long long unpaired, dropped;
};

static const struct ocase cases[] = {
	{ "out then in, with the stack before",
	  { { 's', 1, 100, "__schedule,schedule,do_nanosleep,hrtimer_nanosleep" },
	    { 'o', 1, 101, NULL }, { 'i', 1, 601, NULL } },
	  "1:500:B:do_nanosleep;", 0, 0 },
	{ "preempted: R, no function",
	  { { 's', 1, 100, "__schedule,preempt_schedule_irq" },
	    { 'p', 1, 100, NULL }, { 'i', 1, 150, NULL } },
	  "1:50:R:-;", 0, 0 },
	{ "no stack (paranoid 2): span without where",
	  { { 'o', 2, 10, NULL }, { 'i', 2, 40, NULL },
	    { 'o', 2, 50, NULL }, { 'i', 2, 60, NULL } },
	  "2:30:B:-;2:10:B:-;", 0, 0 },
	{ "two threads across CPUs, interleaved",
	  { { 's', 1, 10, "schedule,pipe_read" }, { 'o', 1, 10, NULL },
	    { 's', 2, 12, "__schedule,schedule,futex_wait_queue,futex_wait" },
	    { 'o', 2, 12, NULL }, { 'i', 1, 30, NULL },
	    { 'i', 2, 112, NULL } },
	  "1:20:B:pipe_read;2:100:B:futex_wait_queue;", 0, 0 },
	{ "switch-in read before its switch-out (another ring)",
	  { { 'i', 3, 500, NULL }, { 's', 3, 200, "schedule,do_sys_poll" },
	    { 'o', 3, 200, NULL } },
	  "3:300:B:do_sys_poll;", 0, 0 },
	{ "stack read after its own switch-out",
	  { { 'o', 3, 200, NULL }, { 's', 3, 200, "schedule,pipe_read" },
	    { 'i', 3, 260, NULL } },
	  "3:60:B:pipe_read;", 0, 0 },
	{ "a switch-in without a switch-out (off since before)",
	  { { 'i', 4, 100, NULL }, { 'o', 4, 200, NULL },
	    { 'i', 4, 250, NULL } },
	  "4:50:B:-;", 1, 0 },
	{ "an EXIT without a time drops the pending out",
	  { { 's', 5, 10, "schedule,do_exit" }, { 'o', 5, 10, NULL },
	    { 'x', 5, 0, NULL }, { 'i', 5, 100, NULL } },
	  "", 1, 1 },
	{ "EXIT, then the task's last switch-out: never a span",
	  { { 'i', 11, 5, NULL }, { 'x', 11, 0, NULL },
	    { 's', 11, 10, "schedule,do_task_dead" }, { 'o', 11, 10, NULL },
	    { 'f', 0, 500, NULL }, { 'f', 0, 900, NULL } },
	  "", 1, 0 },
	{ "a tid reused after its EXIT is a new thread",
	  { { 'x', 12, 0, NULL }, { 'f', 0, 100, NULL },
	    { 'i', 12, 200, NULL }, { 'o', 12, 300, NULL },
	    { 'i', 12, 350, NULL } },
	  "12:50:B:-;", 1, 0 },
	{ "lost records: the pending out ends at the in, estimated",
	  { { 'o', 6, 10, NULL }, { 'l', 0, 0, NULL },
	    { 'i', 6, 1000, NULL }, { 'o', 6, 1100, NULL },
	    { 'i', 6, 1110, NULL } },
	  "6:990*:B:-;6:10:B:-;", 0, 0 },
	{ "a lost switch-in: the span ends at the next out, estimated",
	  { { 'o', 7, 10, NULL }, { 'o', 7, 50, NULL },
	    { 'i', 7, 70, NULL } },
	  "7:40*:B:-;7:20:B:-;", 0, 0 },
	{ "a lost switch-in: an on-CPU sample ends the span",
	  { { 's', 20, 99, "schedule,do_wait" }, { 'o', 20, 100, NULL },
	    { 'l', 0, 0, NULL }, { 'n', 20, 400, NULL },
	    { 'n', 20, 450, NULL }, { 'f', 0, 600, NULL } },
	  "20:300*:B:do_wait;", 0, 0 },
	{ "a lost switch-in: the thread's EXIT ends the span",
	  { { 'o', 21, 100, NULL }, { 'l', 0, 0, NULL },
	    { 'x', 21, 700, NULL }, { 'o', 21, 710, NULL },
	    { 'f', 0, 800, NULL } },
	  "21:600*:B:-;", 0, 0 },
	{ "a lost switch-in: the next out's stack ends the span",
	  { { 's', 22, 10, "schedule,pipe_read" }, { 'o', 22, 10, NULL },
	    { 'l', 0, 0, NULL },
	    { 's', 22, 300, "schedule,do_nanosleep" }, { 'o', 22, 300, NULL },
	    { 'i', 22, 350, NULL } },
	  "22:290*:B:pipe_read;22:50:B:do_nanosleep;", 0, 0 },
	{ "a sample older than the out (another ring) ends nothing",
	  { { 'o', 23, 100, NULL }, { 'n', 23, 90, NULL },
	    { 'n', 23, 100, NULL }, { 'i', 23, 200, NULL } },
	  "23:100:B:-;", 0, 0 },
	{ "after a loss, flushed pieces of a pending span are estimated",
	  { { 'o', 25, 100, NULL }, { 'l', 0, 0, NULL },
	    { 'f', 0, 400, NULL }, { 'i', 25, 500, NULL },
	    { 'o', 25, 600, NULL }, { 'f', 0, 700, NULL },
	    { 'i', 25, 800, NULL } },
	  "25:300*:B:-;25:100*:B:-;25:100:B:-;25:100:B:-;", 0, 0 },
	{ "flush splits a long sleep, nothing counted twice",
	  { { 's', 8, 0, "schedule,do_nanosleep" }, { 'o', 8, 100, NULL },
	    { 'f', 0, 400, NULL }, { 'f', 0, 900, NULL },
	    { 'i', 8, 1000, NULL } },
	  "8:300:B:do_nanosleep;8:500:B:do_nanosleep;8:100:B:do_nanosleep;",
	  0, 0 },
	{ "the same chain again, then another from the same buffer",
	  { { 's', 10, 10, "schedule,do_nanosleep" }, { 'o', 10, 10, NULL },
	    { 'i', 10, 20, NULL },
	    { 's', 10, 30, "schedule,do_nanosleep" }, { 'o', 10, 30, NULL },
	    { 'i', 10, 50, NULL },
	    { 's', 10, 60, "schedule,pipe_read" }, { 'o', 10, 60, NULL },
	    { 'i', 10, 90, NULL } },
	  "10:10:B:do_nanosleep;10:20:B:do_nanosleep;10:30:B:pipe_read;",
	  0, 0 },
	{ "a stack is the next out's only, not a later one's",
	  { { 's', 9, 10, "schedule,pipe_read" }, { 'o', 9, 10, NULL },
	    { 'i', 9, 20, NULL }, { 'o', 9, 30, NULL },
	    { 'i', 9, 35, NULL } },
	  "9:10:B:pipe_read;9:5:B:-;", 0, 0 },
};

static char got[1024];
static uint64_t got_estimated;

static int on_span(void *arg, const struct offcpu_span *sp)
{
	size_t len = strlen(got);

	(void)arg;
	if (sp->estimated)
		got_estimated += sp->ns;
	snprintf(got + len, sizeof(got) - len, "%d:%llu%s:%c:%s;",
		 (int)sp->tid, (unsigned long long)sp->ns,
		 sp->estimated ? "*" : "",
		 sp->state == OFFCPU_PREEMPTED ? 'R' : 'B',
		 sp->where ? sp->where : "-");
	/* every span's stack starts with the [off-cpu] leaf */
	CHECK(sp->nframes >= 1 && !strcmp(sp->frames[0].sym, OFFCPU_LEAF) &&
	      (sp->nframes == 1 || !strcmp(sp->frames[1].dso,
					   "[kernel.kallsyms]")),
	      "span of %d: %u frames, leaf %s", (int)sp->tid, sp->nframes,
	      sp->nframes ? sp->frames[0].sym : "none");
	return 0;
}

/* chain "a,b,c" as kernel frames. */
static unsigned frames_of(const char *chain, struct stk_sample_frame *fr,
			  char *buf, size_t size)
{
	unsigned n = 0;
	char *p, *save = NULL;

	snprintf(buf, size, "%s", chain);
	for (p = strtok_r(buf, ",", &save); p && n < 16;
	     p = strtok_r(NULL, ",", &save), n++)
		fr[n] = (struct stk_sample_frame){ .sym = p,
			/* a place of its own, as a real chain's */
			.ip = 0xffffffff81000000ull + (uint64_t)strlen(p) * 256 +
			      (unsigned char)p[0],
			.dso = "[kernel.kallsyms]", .mode = 'k' };
	return n;
}

static void run_case(const struct ocase *c)
{
	struct offcpu *m = offcpu_new(on_span, NULL);
	struct offcpu_stats st;
	struct stk_sample_frame fr[16];
	char buf[256];
	unsigned i, n;

	got[0] = '\0';
	got_estimated = 0;
	for (i = 0; i < 12 && c->recs[i].kind; i++) {
		const struct rec *r = &c->recs[i];

		switch (r->kind) {
		case 's':
			n = frames_of(r->chain, fr, buf, sizeof(buf));
			CHECK(offcpu_stack(m, 100, r->tid, r->time, fr, n) == 0,
			      "%s", c->name);
			memset(buf, 'X', sizeof(buf));	/* copies kept? */
			break;
		case 'o':
		case 'p':
			CHECK(offcpu_out(m, 100, r->tid, "t", r->time,
					 r->kind == 'p') == 0, "%s", c->name);
			break;
		case 'i':
			CHECK(offcpu_in(m, 100, r->tid, r->time) == 0, "%s",
			      c->name);
			break;
		case 'x':
			CHECK(offcpu_exit(m, r->tid, r->time) == 0, "%s",
			      c->name);
			break;
		case 'n':
			CHECK(offcpu_seen(m, r->tid, r->time) == 0, "%s",
			      c->name);
			break;
		case 'l':
			offcpu_lost(m);
			break;
		case 'f':
			CHECK(offcpu_flush(m, r->time) == 0, "%s", c->name);
			break;
		}
	}
	CHECK(!strcmp(got, c->spans), "%s: got '%s', want '%s'", c->name,
	      got, c->spans);
	offcpu_stats(m, &st);
	CHECK(st.unpaired == c->unpaired && st.dropped == c->dropped,
	      "%s: unpaired %llu dropped %llu, want %llu %llu", c->name,
	      (unsigned long long)st.unpaired, (unsigned long long)st.dropped,
	      c->unpaired, c->dropped);
	CHECK(st.estimated_ns == got_estimated, "%s: estimated %llu ns, the "
	      "spans marked %llu", c->name,
	      (unsigned long long)st.estimated_ns,
	      (unsigned long long)got_estimated);
	offcpu_free(m);
}

int main(void)
{
	struct stk_sample_frame fr[4] = {
		{ .sym = "__schedule", .dso = "k", .mode = 'k' },
		{ .sym = "schedule", .dso = "k", .mode = 'k' },
		{ .sym = "main", .dso = "a.out", .mode = '.' },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	/* a chain with only the scheduler in the kernel sleeps nowhere */
	CHECK(offcpu_where(fr, 3) == NULL, "user frame taken as where");
	CHECK(offcpu_where(fr, 0) == NULL, "empty chain");
	return check_done();
}
