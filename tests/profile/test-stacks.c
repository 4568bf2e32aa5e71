/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-stacks.c - lib/profile/stacks on chains with known answers:
 * main -> a -> b -> hot three times, main -> c -> hot once, a recursion
 * and unresolved frames (two places of one DSO, once in one stack);
 * Self and Children, the flame graph's tree, the callers and callees of
 * a function, decay.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "profile/stacks.h"
#include "../check.h"

/* A chain written root first, for the eye; "?" and "?2" are unresolved
   places of libx.so (at 0x40 and 0x80). */
struct chain {
	const char *fn[6];
	unsigned times;
};

static const struct chain chains[] = {
	{ { "main", "a", "b", "hot" }, 3 },
	{ { "main", "c", "hot" }, 1 },
	{ { "main", "rec", "rec", "rec" }, 2 },
	{ { "main", "c", "?" }, 1 },
	{ { "main", "?", "?2" }, 1 },
};

static void add_chain(struct stacks *s, const struct chain *c)
{
	struct stk_sample_frame fr[6];
	unsigned n = 0, i, t;

	while (n < 6 && c->fn[n])
		n++;
	for (i = 0; i < n; i++) {
		const char *f = c->fn[n - 1 - i];	/* leaf first */

		fr[i] = (struct stk_sample_frame){
			.ip = 0x1000 + 16 * i, .sym = f[0] != '?' ? f : NULL,
			.dso = "/usr/lib/libx.so",
			.dso_off = strcmp(f, "?2") ? 0x40 : 0x80,
			.file = "x.c", .line = (int)i, .mode = '.',
			.cause = f[0] != '?' ? SYM_OK : SYM_STRIPPED };
	}
	for (t = 0; t < c->times; t++)
		CHECK(stacks_add(s, fr, n, 1000) == 0, "add");
}

static const struct stk_total *total_of(const struct stk_total *t, size_t n,
					const struct stacks *s, const char *fn)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(stacks_func(s, t[i].func)->name, fn))
			return &t[i];
	return NULL;
}

/* The child of node `at' named fn, or NULL. */
static const struct stk_node *child(const struct stk_node *nd,
				    const struct stacks *s, uint32_t at,
				    const char *fn)
{
	for (uint32_t c = nd[at].child; c != STK_NONE; c = nd[c].next)
		if (!strcmp(stacks_func(s, nd[c].func)->name, fn))
			return &nd[c];
	return NULL;
}

/*
 * Frame ids: one frame per function and line (add_chain() gives a frame
 * its depth from the leaf as its line), an unresolved one per place too:
 * hot@0 b@1 a@2 main@3, c@1 main@2, rec@0 rec@1 rec@2, ?@0, ?2@0 ?@1 --
 * 12, each below stacks_nframes() and every stack's frames among them.
 */
static void test_frame_ids(struct stacks *s)
{
	size_t n, nframes = stacks_nframes(s), bad = 0;
	const struct stk_stack *const *st = stacks_sorted(s, &n);

	CHECK(nframes == 12, "%zu frames", nframes);
	for (size_t id = 0; id < nframes; id++)
		bad += !stacks_frame(s, (uint32_t)id) ||
		       stacks_frame(s, (uint32_t)id)->func >= stacks_nfuncs(s);
	CHECK(bad == 0, "%zu frame ids below stacks_nframes() without a frame "
	      "or with a function out of range", bad);
	CHECK(stacks_frame(s, (uint32_t)nframes) == NULL,
	      "a frame at stacks_nframes()");
	for (size_t i = 0; st && i < n; i++)
		for (uint32_t d = 0; d < st[i]->depth; d++)
			bad += st[i]->frame[d] >= nframes;
	CHECK(bad == 0, "%zu frames of the stacks at or past stacks_nframes()",
	      bad);
}

static void test_totals(struct stacks *s)
{
	static const struct {
		const char *fn;
		uint64_t self, children;
	} want[] = {
		{ "main", 0, 8 }, { "hot", 4, 4 }, { "a", 0, 3 }, { "b", 0, 3 },
		{ "c", 0, 2 }, { "rec", 2, 2 },
		/* libx.so's two places, as the flat profile counts them: one
		   row, the stack holding both counted once */
		{ "[unknown]", 2, 2 },
	};
	const struct stk_total *t;
	size_t n, i;

	t = stacks_totals(s, false, &n);
	CHECK(t && n == 7, "%zu functions", n);
	CHECK(!total_of(t, n, s, "libx.so+0x40") &&
	      !total_of(t, n, s, "libx.so+0x80"), "no row per place");
	for (i = 0; t && i < sizeof(want) / sizeof(want[0]); i++) {
		const struct stk_total *x = total_of(t, n, s, want[i].fn);

		CHECK(x && x->self == want[i].self &&
		      x->children == want[i].children,
		      "%s: self %llu children %llu", want[i].fn,
		      x ? (unsigned long long)x->self : 0ull,
		      x ? (unsigned long long)x->children : 0ull);
	}
	CHECK(t && !strcmp(stacks_func(s, t[0].func)->name, "main"),
	      "children order: main first");
	t = stacks_totals(s, true, &n);
	CHECK(t && !strcmp(stacks_func(s, t[0].func)->name, "hot"),
	      "self order: hot first");
}

static void test_trees(struct stacks *s)
{
	const struct stk_node *nd, *x, *y;
	uint32_t hot = stacks_func_find(s, "hot", NULL);
	size_t n;

	nd = stacks_tree(s, STK_TREE_ROOT, 0, &n);
	CHECK(nd && nd[0].total == 8 && nd[0].func == STK_NONE, "root");
	x = nd ? child(nd, s, 0, "main") : NULL;
	CHECK(x && x->total == 8 && x->self == 0, "main under the root");
	/* the flame graph keeps each unresolved place apart */
	y = x ? child(nd, s, (uint32_t)(x - nd), "libx.so+0x40") : NULL;
	CHECK(y && y->total == 1 &&
	      child(nd, s, (uint32_t)(y - nd), "libx.so+0x80"),
	      "main -> libx.so+0x40 -> libx.so+0x80");
	y = x ? child(nd, s, (uint32_t)(x - nd), "a") : NULL;
	CHECK(y && y->total == 3, "main -> a: 3");
	y = x ? child(nd, s, (uint32_t)(x - nd), "c") : NULL;
	CHECK(y && y->total == 2 && child(nd, s, (uint32_t)(y - nd), "hot")->
						   self == 1, "main -> c -> hot: 1");
	/* children in name order: a, c, rec */
	CHECK(x && !strcmp(stacks_func(s, nd[x->child].func)->name, "a"),
	      "children ordered by name");

	nd = stacks_tree(s, STK_TREE_CALLERS, hot, &n);
	CHECK(nd && nd[0].total == 4 && nd[0].self == 4 && nd[0].func == hot,
	      "hot: 4 in all, all in itself");
	x = nd ? child(nd, s, 0, "b") : NULL;
	CHECK(x && x->total == 3, "hot <- b: 3");
	x = x ? child(nd, s, (uint32_t)(x - nd), "a") : NULL;
	CHECK(x && x->total == 3 && child(nd, s, (uint32_t)(x - nd), "main"),
	      "hot <- b <- a <- main");
	x = nd ? child(nd, s, 0, "c") : NULL;
	CHECK(x && x->total == 1, "hot <- c: 1");

	/* callees of main: its two calls and the recursion, once */
	nd = stacks_tree(s, STK_TREE_CALLEES, stacks_func_find(s, "main", NULL),
			 &n);
	CHECK(nd && nd[0].total == 8 && nd[0].self == 0, "main: 8, none in itself");
	x = nd ? child(nd, s, 0, "rec") : NULL;
	CHECK(x && x->total == 2 && x->depth == 1, "main -> rec: 2");
	CHECK(!stacks_tree(s, STK_TREE_CALLERS, 9999, &n), "unknown function");

	/* callers of libx.so's [unknown], and of one of its places: the row */
	nd = stacks_tree(s, STK_TREE_CALLERS,
			 stacks_func_find(s, "libx.so+0x80", NULL), &n);
	CHECK(nd && nd[0].total == 2 && nd[0].self == 2 &&
	      !strcmp(stacks_func(s, nd[0].func)->name, "[unknown]"),
	      "[unknown]: 2, both in itself");
	x = nd ? child(nd, s, 0, "c") : NULL;
	CHECK(x && x->total == 1, "[unknown] <- c: 1");
}

/* The trees perf top prints under an entry (stacks_tree_entry()). */
static void test_entry_trees(struct stacks *s)
{
	uint32_t hot = stacks_func_find(s, "hot", NULL);
	uint32_t c = stacks_func_find(s, "c", NULL);
	const struct stk_node *nd, *x;
	size_t n;

	/* caller order, hot: its samples whole from main down */
	nd = stacks_tree_entry(s, hot, false, false, &n);
	CHECK(nd && nd[0].total == 4 && nd[0].func == STK_NONE,
	      "hot's entry: 4 samples");
	x = nd ? child(nd, s, 0, "main") : NULL;
	CHECK(x && x->total == 4 && !child(nd, s, 0, "hot"),
	      "hot's samples, taken in it: from main");
	x = x ? child(nd, s, (uint32_t)(x - nd), "a") : NULL;
	CHECK(x && x->total == 3, "main -> a under hot: 3");

	/* caller order, c: from c down (no sample is taken in c) */
	nd = stacks_tree_entry(s, c, false, false, &n);
	x = nd ? child(nd, s, 0, "c") : NULL;
	CHECK(nd && nd[0].total == 2 && x && x->total == 2 &&
	      !child(nd, s, 0, "main"), "c's entry: c and its callees");
	CHECK(x && child(nd, s, (uint32_t)(x - nd), "hot")->total == 1 &&
	      child(nd, s, (uint32_t)(x - nd), "[unknown]")->total == 1,
	      "c -> hot, c -> [unknown] (the row)");

	/* callee order: hot up to main; self only: the same for hot, and
	   nothing for c */
	nd = stacks_tree_entry(s, hot, true, true, &n);
	x = nd ? child(nd, s, 0, "hot") : NULL;
	CHECK(x && x->total == 4 && child(nd, s, (uint32_t)(x - nd), "b") &&
	      child(nd, s, (uint32_t)(x - nd), "b")->total == 3,
	      "hot <- b: 3 (callee order)");
	nd = stacks_tree_entry(s, c, true, true, &n);
	CHECK(nd && nd[0].total == 0 && n == 1, "c, self only: empty");

	/* recursion: rec's outermost frame (caller order), once */
	nd = stacks_tree_entry(s, stacks_func_find(s, "rec", NULL), false,
				false, &n);
	x = nd ? child(nd, s, 0, "main") : NULL;
	CHECK(x && x->total == 2, "rec, taken in it: main -> rec -> ...");
	CHECK(!stacks_tree_entry(s, 9999, false, false, &n),
	      "unknown function");
}

/* stacks_tree_where()'s pick: the stacks with a frame named arg. */
static bool through(const struct stacks *s, const struct stk_stack *st,
		    void *arg)
{
	for (uint32_t d = 0; d < st->depth; d++)
		if (!strcmp(stacks_func(s, stacks_frame(s, st->frame[d])->func)
			    ->name, arg))
			return true;
	return false;
}

/* The trees of chosen stacks, whole (-s parent's entries). */
static void test_where_trees(struct stacks *s)
{
	const struct stk_node *nd, *x;
	size_t n;

	/* caller order: main -> c -> hot and main -> c -> [unknown] */
	nd = stacks_tree_where(s, false, through, "c", &n);
	x = nd ? child(nd, s, 0, "main") : NULL;
	CHECK(nd && nd[0].total == 2 && x && x->total == 2 &&
	      !child(nd, s, 0, "c"), "through c: 2 samples, from main");
	x = x ? child(nd, s, (uint32_t)(x - nd), "c") : NULL;
	CHECK(x && x->total == 2 && child(nd, s, (uint32_t)(x - nd), "hot") &&
	      child(nd, s, (uint32_t)(x - nd), "hot")->total == 1,
	      "main -> c -> hot: 1");
	/* callee order: from the leaf up */
	nd = stacks_tree_where(s, true, through, "a", &n);
	x = nd ? child(nd, s, 0, "hot") : NULL;
	CHECK(nd && nd[0].total == 3 && x && x->total == 3 &&
	      child(nd, s, (uint32_t)(x - nd), "b"), "through a: hot <- b");
	nd = stacks_tree_where(s, false, through, "nowhere", &n);
	CHECK(nd && nd[0].total == 0 && n == 1, "none taken: empty");
}

/* One sample of the chain main -> fn at time t. */
static int add_at(struct stacks *s, const char *fn, uint64_t t)
{
	struct stk_sample_frame fr[2] = {
		{ .ip = 0x2000, .sym = fn, .dso = "/bin/p", .mode = '.' },
		{ .ip = 0x1000, .sym = "main", .dso = "/bin/p", .mode = '.' },
	};

	return stacks_add_at(s, fr, 2, 10, t);
}

/* The timeline as "fn*count fn*count ...", the leaf of each run. */
static const char *timeline(struct stacks *s, char *buf, size_t size)
{
	const struct stk_run *r;
	size_t n, i, len = 0;

	buf[0] = '\0';
	r = stacks_timeline(s, &n, NULL);
	for (i = 0; r && i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s*%llu",
			i ? " " : "",
			stacks_func(s, stacks_frame(s, r[i].stack->frame[0])->func)->name,
			(unsigned long long)r[i].count);
	return r ? buf : "(none)";
}

/*
 * The timeline: samples in the order taken, a run per stretch of one
 * stack; a few late ones at a read's seam put back in place; none once
 * a sample comes without a time or the counts are aged; bounded past
 * STK_RUNS_MAX runs with the counts kept exact.
 */
static void test_timeline(void)
{
	struct stacks *s = stacks_new();
	const struct stk_run *r;
	uint64_t window, sum = 0, t;
	bool in_order = true;
	char buf[256];
	size_t n, i;

	add_at(s, "a", 100);
	add_at(s, "a", 110);
	add_at(s, "b", 120);
	add_at(s, "a", 130);
	add_at(s, "c", 125);	/* read late: taken before the last a */
	CHECK(!strcmp(timeline(s, buf, sizeof(buf)), "a*2 b*1 c*1 a*1"),
	      "runs in time order: %s", buf);
	stacks_age(s, false);
	CHECK(!stacks_timeline(s, &n, NULL) && n == 0, "aged: no timeline");
	stacks_free(s);

	s = stacks_new();
	add_at(s, "a", 100);
	CHECK(stacks_add(s, NULL, 0, 1) == 0 && !stacks_timeline(s, &n, NULL),
	      "a sample without its time: no timeline");
	stacks_free(s);

	/* a and b taking turns, more samples than runs may be kept */
	s = stacks_new();
	for (t = 0; t < 3 * STK_RUNS_MAX; t++)
		add_at(s, t % 2 ? "b" : "a", 1000 * t);
	r = stacks_timeline(s, &n, &window);
	CHECK(r && n <= STK_RUNS_MAX && window > 0, "%zu runs, window %llu ns",
	      n, (unsigned long long)window);
	for (i = 0; r && i < n; i++) {
		sum += r[i].count;
		in_order &= i == 0 || r[i].time >= r[i - 1].time;
	}
	CHECK(in_order, "runs in time order");
	CHECK(sum == 3 * STK_RUNS_MAX, "every sample in a run: %llu",
	      (unsigned long long)sum);
	/* the first and last windows: a and b each, in the right places */
	CHECK(r && r[0].time < window && r[n - 1].time > 1000 *
	      (3ull * STK_RUNS_MAX) - 2 * window, "spans the whole time");
	stacks_free(s);
}

/* Decay keeps 7/8 of a period too large to multiply by 7 (a sum of
   the periods of a -c counter over a long run), as top's counts do. */
static void test_decay_big(void)
{
	struct stacks *s = stacks_new();
	const uint64_t p = UINT64_MAX / 8 + 3, sum = 2 * p;
	const uint64_t want = sum - sum / 8 - (sum % 8 != 0);

	/* twice: a count of 2 outlives one decay */
	CHECK(s && stacks_add(s, NULL, 0, p) == 0 &&
	      stacks_add(s, NULL, 0, p) == 0 && stacks_period(s) == sum,
	      "a stack of period %llu", (unsigned long long)sum);
	stacks_age(s, false);
	CHECK(stacks_period(s) == want, "aged: period %llu (want %llu)",
	      (unsigned long long)stacks_period(s), (unsigned long long)want);
	stacks_free(s);
}

int main(void)
{
	struct stacks *s = stacks_new();
	size_t i, n;

	for (i = 0; i < sizeof(chains) / sizeof(chains[0]); i++)
		add_chain(s, &chains[i]);
	CHECK(stacks_total(s) == 8 && stacks_period(s) == 8000, "totals");
	CHECK(stacks_count(s) == 5, "%zu distinct stacks", stacks_count(s));
	CHECK(stacks_sorted(s, &n) && n == 5 &&
	      stacks_sorted(s, &n)[0]->count == 3, "most counted first");
	test_frame_ids(s);
	test_totals(s);
	test_trees(s);
	test_entry_trees(s);
	test_where_trees(s);

	/* decay: 3 -> 2, 2 -> 1, 1 -> 0 (gone) */
	stacks_age(s, false);
	CHECK(stacks_total(s) == 3 && stacks_count(s) == 2,
	      "aged: %llu in %zu", (unsigned long long)stacks_total(s),
	      stacks_count(s));
	stacks_age(s, true);
	CHECK(stacks_total(s) == 0 && stacks_count(s) == 0, "zeroed");
	CHECK(stacks_nfuncs(s) == 9, "functions stay");
	CHECK(stacks_nframes(s) == 12, "frames stay: %zu", stacks_nframes(s));
	stacks_free(s);
	test_timeline();
	test_decay_big();
	return check_done();
}
