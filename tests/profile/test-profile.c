/*
 * test-profile: the profile object (lib/profile/profile.[ch]) on samples
 * with known answers -- one profile_add() feeds the table, the chains
 * and the rates; the chains take the first event only and what the
 * lists pass, while the table keeps the whole total; rows carry their
 * rates, and a copy of them keeps its cells while the profile counts on
 * (a paused table); weighted profiles count nanoseconds; the distinct
 * threads of a function, capped.  Pure: runs on
 * any machine.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "../check.h"

static const struct stk_sample_frame leaf_main[] = {
	{ .ip = 0x10, .sym = "leaf", .dso = "/bin/a" },
	{ .ip = 0x20, .sym = "main", .dso = "/bin/a" },
};

static bool near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* A sample of fn in /bin/a by comm, of event ev, chain leaf <- main. */
static struct profile_sample sample(const char *fn, const char *comm,
				    unsigned ev, uint64_t period)
{
	return (struct profile_sample){
		.top = { .sym = fn, .dso = "/bin/a", .comm = comm, .mode = '.',
			 .event = ev, .weight = 1, .period = period },
		.frames = leaf_main, .nframes = 2, .time = 1,
	};
}

/* The row of fn in p's view (keys sym), or NULL. */
static const struct top_row *row_of(struct profile *p, const char *fn,
				    bool children, size_t *n)
{
	const struct top_row *r = profile_rows(p, &TOP_VIEW(), children, n);

	for (size_t i = 0; r && i < *n; i++)
		if (r[i].sym && !strcmp(r[i].sym, fn))
			return &r[i];
	return NULL;
}

/* The chains rule: event 0 only, and what the lists pass. */
static void chains_rule(void)
{
	struct top_view lists = TOP_VIEW(.comms = "app");
	struct profile *p = profile_new(&(struct profile_config){
		.nevents = 2, .chains = true, .chains_all = true,
		.lists = &lists });
	struct profile_sample s;
	size_t n;
	int rc;

	CHECK(p, "profile_new: %s", strerror(errno));
	if (!p)
		return;
	s = sample("leaf", "app", 0, 1000);
	rc = profile_add(p, &s);
	CHECK(rc == 1, "event 0 of app: %d, not 1 (chain taken)", rc);
	s = sample("leaf", "app", 1, 1000);
	rc = profile_add(p, &s);
	CHECK(rc == 0, "event 1: %d, not 0 (the table only)", rc);
	s = sample("leaf", "other", 0, 1000);
	rc = profile_add(p, &s);
	CHECK(rc == 0, "a comm the lists drop: %d, not 0", rc);
	/* the table keeps the whole total; the chains hold one sample */
	CHECK(top_total(profile_top(p), 0) == 2, "event 0 total %llu, not 2",
	      (unsigned long long)top_total(profile_top(p), 0));
	CHECK(top_total(profile_top(p), 1) == 1, "event 1 total %llu, not 1",
	      (unsigned long long)top_total(profile_top(p), 1));
	CHECK(stacks_total(profile_chains(p)) == 1, "decaying chains hold "
	      "%llu samples, not 1",
	      (unsigned long long)stacks_total(profile_chains(p)));
	CHECK(stacks_total(profile_chains_all(p)) == 1, "chains since the "
	      "start hold %llu samples, not 1",
	      (unsigned long long)stacks_total(profile_chains_all(p)));
	/* Children from the chains: main holds leaf's sample */
	{
		const struct top_row *r = row_of(p, "main", true, &n);

		CHECK(r && r->has_children && r->children == 1,
		      "main's Children: %s", r ? "not 1" : "no row");
	}
	/* a refresh ages the table and the decaying chains only */
	for (int i = 0; i < 8; i++)
		profile_age(p, true);
	CHECK(top_total(profile_top(p), 0) == 0, "aged: total %llu",
	      (unsigned long long)top_total(profile_top(p), 0));
	CHECK(stacks_total(profile_chains_all(p)) == 1, "aged: the chains "
	      "since the start lost their sample");
	CHECK(!profile_rows(p, &TOP_VIEW(.event = 1), true, &n) &&
	      errno == EINVAL, "Children of event 1 were given");
	profile_free(p);

	/* no chains kept: the rule is still told, for the rolling exports */
	p = profile_new(&(struct profile_config){ .nevents = 1 });
	s = sample("leaf", "app", 0, 1000);
	CHECK(p && profile_add(p, &s) == 1, "no chains kept: not 1");
	CHECK(p && !profile_rows(p, &TOP_VIEW(), true, &n) && errno == EINVAL,
	      "Children without chains were given");
	profile_free(p);
}

/*
 * Rates in the rows: toucher, 10 intervals of 1 ms with 2 faults each,
 * gives 2.000 faults/ms with no scatter; an interval that crossed into
 * another function (same_fn false) counts in the table, not the rates.
 * A copy of the rows (a paused table) keeps the cell while the profile
 * counts 10 more intervals of 4 faults.
 */
static void rates_in_rows(void)
{
	struct rates_metric m = { .num = RATES_MEMBER, .den = RATES_PERIOD,
				  .scale = 1e6, .name = "faults/ms" };
	struct profile *p = profile_new(&(struct profile_config){
		.nevents = 2, .nmembers = 1, .metrics = &m, .nmetrics = 1 });
	uint64_t two = 2, four = 4, many = 1000;
	struct profile_sample s = sample("toucher", "app", 0, 1000000);
	const struct top_row *r;
	struct top_row *copy;
	size_t n;

	CHECK(p, "profile_new: %s", strerror(errno));
	if (!p)
		return;
	CHECK(profile_nmetrics(p) == 1 &&
	      !strcmp(profile_metric(p, 0)->name, "faults/ms"),
	      "the metric was not kept");
	s.lead_delta = 1000000;
	s.deltas = &two;
	s.same_fn = true;
	for (int i = 0; i < 10; i++)
		profile_add(p, &s);
	s.deltas = &many;	/* a leak from the function before */
	s.same_fn = false;
	profile_add(p, &s);
	r = row_of(p, "toucher", false, &n);
	CHECK(r && r->count[0] == 11, "toucher: %s samples",
	      r ? "not 11" : "no row with");
	CHECK(r && r->nrates == 1 && r->rates[0].valid &&
	      r->rates[0].n == 10 && near(r->rates[0].rate, 2.0) &&
	      near(r->rates[0].half, 0.0),
	      "toucher's rate: %s", r ? "not 2 over 10 samples" : "no row");
	copy = r ? top_rows_dup(r, 1, 2) : NULL;
	CHECK(copy, "top_rows_dup: %s", strerror(errno));
	s.deltas = &four;
	s.same_fn = true;
	for (int i = 0; i < 10; i++)
		profile_add(p, &s);
	r = row_of(p, "toucher", false, &n);
	CHECK(r && r->rates[0].n == 20 && near(r->rates[0].rate, 3.0),
	      "toucher now: not 3 over 20 samples");
	CHECK(copy && copy->nrates == 1 && copy->rates[0].n == 10 &&
	      near(copy->rates[0].rate, 2.0) && copy->count[0] == 11,
	      "the copy moved on with the profile");
	free(copy);
	/* a row with too few samples carries an invalid rate ("-") */
	s = sample("rare", "app", 0, 1000000);
	s.lead_delta = 1000000;
	s.deltas = &two;
	s.same_fn = true;
	profile_add(p, &s);
	r = row_of(p, "rare", false, &n);
	CHECK(r && r->nrates == 1 && !r->rates[0].valid, "rare: a rate of "
	      "one sample");
	profile_free(p);
}

/* Weighted: off-CPU nanoseconds count in the table and the chains. */
static void weighted(void)
{
	struct profile *p = profile_new(&(struct profile_config){
		.nevents = 1, .chains_all = true, .weighted = true });
	struct profile_sample s = sample("schedule", "app", 0, 0);

	CHECK(p, "profile_new: %s", strerror(errno));
	if (!p)
		return;
	s.top.weight = 5000;
	s.top.period = 5000;
	CHECK(profile_add(p, &s) == 1, "a span's chain not taken");
	CHECK(top_total(profile_top(p), 0) == 5000, "table: %llu ns",
	      (unsigned long long)top_total(profile_top(p), 0));
	CHECK(stacks_total(profile_chains_all(p)) == 5000, "chains: %llu ns",
	      (unsigned long long)stacks_total(profile_chains_all(p)));
	profile_free(p);
}

/* The distinct threads of a function, in its row, capped. */
static void threads(void)
{
	struct profile *p = profile_new(&(struct profile_config){
		.nevents = 1, .threads = true });
	struct profile_sample s = sample("shared", "app", 0, 1);
	const struct top_row *r;
	size_t n;

	CHECK(p, "profile_new: %s", strerror(errno));
	if (!p)
		return;
	for (pid_t tid = 3; tid > 0; tid--)	/* 3, 2, 1, then again */
		for (int i = 0; i < 4; i++) {
			s.top.tid = tid;
			profile_add(p, &s);
			s.top.tid = 4 - tid;
			profile_add(p, &s);
		}
	for (pid_t tid = 100; tid < 100 + FNTHREADS_MAX + 6; tid++) {
		struct profile_sample w = sample("wide", "app", 0, 1);

		w.top.tid = tid;
		profile_add(p, &w);
	}
	r = row_of(p, "shared", false, &n);
	CHECK(r && r->threads == 3, "shared: %u threads, not 3",
	      r ? r->threads : 0);
	r = row_of(p, "wide", false, &n);
	CHECK(r && r->threads == FNTHREADS_MAX + 1, "wide: %u threads, not "
	      "more than %d", r ? r->threads : 0, FNTHREADS_MAX);
	profile_free(p);
}

static void bad_input(void)
{
	struct rates_metric m = { .num = RATES_MEMBER, .den = RATES_PERIOD,
				  .scale = 1 };
	struct profile_sample s = sample("f", "app", 3, 1);
	struct profile *p;

	errno = 0;
	CHECK(!profile_new(&(struct profile_config){ .nevents = 0 }) &&
	      errno == EINVAL, "nevents 0 taken");
	errno = 0;
	CHECK(!profile_new(&(struct profile_config){
		.nevents = 1, .metrics = &m, .nmetrics = 1 }) &&
	      errno == EINVAL, "metrics without members taken");
	p = profile_new(&(struct profile_config){ .nevents = 1 });
	errno = 0;
	CHECK(p && profile_add(p, &s) == -1 && errno == EINVAL,
	      "event 3 of 1 taken");
	profile_free(p);
	profile_free(NULL);
}

int main(void)
{
	chains_rule();
	rates_in_rows();
	weighted();
	threads();
	bad_input();
	return check_done();
}
