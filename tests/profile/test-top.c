/*
 * test-top: kerneltop's model (lib/profile/top.[ch]) on samples with known
 * answers: decay, zeroing and totals; every grouping, order, zoom, hide,
 * filter and limit of a view; multi-event weights; baselines; annotation
 * addresses; copied strings; argument errors; the rows read from call
 * chains (Children and Self) under the same views; the causes rows
 * carry; copies of rows; and 100k distinct entries, timed.  Pure: runs
 * on any machine.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "profile/stacks.h"
#include "profile/top.h"
#include "../check.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A sample of event 0 at address 0. */
#define S(sym, dso, comm, pid, tid, mode, w) \
	{ sym, dso, comm, pid, tid, mode, 0, w, 0 }

/*
 * The fixture: two processes, total 200, so each count is twice its share.
 * By sym: main 80, memcpy 50, clear_page 30, work 20, [unknown] 15,
 * hv_call 5.  By tid: 100 60, 101 55, 200 65, 201 20.
 */
static const struct top_sample fixture[] = {
	S("main", "/bin/app", "app", 100, 100, '.', 50),
	S("main", "/bin/app", "app", 100, 101, '.', 30),
	S("work", "/bin/app", "app", 100, 101, '.', 20),
	S("memcpy", "/lib/libc.so", "app", 100, 100, '.', 10),
	S("memcpy", "/lib/libc.so", "cc", 200, 200, '.', 40),
	S("clear_page", "[kernel.kallsyms]", "cc", 200, 200, 'k', 25),
	S("clear_page", "[kernel.kallsyms]", "app", 100, 101, 'k', 5),
	S(NULL, "[unknown]", "cc", 200, 201, '.', 15),
	S("hv_call", "[hypervisor]", "cc", 200, 201, 'h', 5),
};

static struct top *feed(unsigned nevents, const struct top_sample *s,
			size_t n)
{
	struct top *t = top_new(nevents);

	CHECK(t, "top_new(%u): %s", nevents, strerror(errno));
	for (size_t i = 0; t && i < n; i++)
		CHECK(top_add(t, &s[i]) == 0, "top_add #%zu: %s", i,
		      strerror(errno));
	return t;
}

/*
 * The rows as text, one "key=count" per row joined by spaces; the key is
 * the view's fields that are set, joined by '/': sym (else dso), comm,
 * pid as pN, tid as tN.  "" for no rows, "NULL" for an error.
 */
static const char *rows_text(const struct top_row *r, size_t n,
			     unsigned event)
{
	static char buf[4096];
	size_t len = 0;

	if (!r)
		return "NULL";
	buf[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(buf); i++) {
		const char *sep = "";

		if (i)
			len += snprintf(buf + len, sizeof(buf) - len, " ");
#define PART(fmt, ...) do { \
	len += snprintf(buf + len, sizeof(buf) - len, "%s" fmt, sep, __VA_ARGS__); \
	sep = "/"; } while (0)
		if (r[i].sym || r[i].dso)
			PART("%s", r[i].sym ? r[i].sym : r[i].dso);
		if (r[i].comm)
			PART("%s", r[i].comm);
		if (r[i].pid)
			PART("p%d", (int)r[i].pid);
		if (r[i].tid)
			PART("t%d", (int)r[i].tid);
#undef PART
		len += snprintf(buf + len, sizeof(buf) - len, "=%llu",
				(unsigned long long)r[i].count[event]);
	}
	return buf;
}

static const char *view_text(struct top *t, const struct top_view *v)
{
	size_t n;
	const struct top_row *r = top_rows(t, v, &n);

	return rows_text(r, n, v && v->event > 0 ? (unsigned)v->event : 0);
}

/* --- errors -------------------------------------------------------------- */

static void test_errors(void)
{
	static const struct {
		unsigned nevents;
		int err;	/* 0: made */
	} news[] = {
		{ 0, EINVAL }, { 1, 0 }, { 2, 0 }, { TOP_MAX_EVENTS, 0 },
		{ TOP_MAX_EVENTS + 1, EINVAL }, { UINT_MAX, EINVAL },
	};
	static const struct {
		unsigned nevents, event;
		int ret;
	} adds[] = {
		{ 1, 0, 0 }, { 1, 1, EINVAL }, { 2, 1, 0 }, { 2, 2, EINVAL },
		{ 3, 7, EINVAL }, { 1, UINT_MAX, EINVAL },
		{ TOP_MAX_EVENTS, TOP_MAX_EVENTS - 1, 0 },
		{ TOP_MAX_EVENTS, TOP_MAX_EVENTS, EINVAL },
	};
	struct top *t;
	size_t n;

	for (size_t i = 0; i < N(news); i++) {
		errno = 0;
		t = top_new(news[i].nevents);
		CHECK(news[i].err ? !t && errno == news[i].err : t != NULL,
		      "top_new(%u): %p errno %d", news[i].nevents, (void *)t,
		      errno);
		if (t)
			CHECK(top_nevents(t) == news[i].nevents, "nevents");
		top_free(t);
	}
	top_free(NULL);

	for (size_t i = 0; i < N(adds); i++) {
		struct top_sample s = S("f", "d", "c", 1, 1, '.', 1);
		int ret;

		t = top_new(adds[i].nevents);
		s.event = adds[i].event;
		errno = 0;
		ret = top_add(t, &s);
		CHECK(adds[i].ret ? ret == -1 && errno == adds[i].ret : ret == 0,
		      "nevents %u event %u: %d errno %d", adds[i].nevents,
		      adds[i].event, ret, errno);
		/* A refused sample counts nowhere. */
		CHECK(top_count(t) == (adds[i].ret ? 0u : 1u), "count %zu",
		      top_count(t));
		top_free(t);
	}

	t = top_new(2);
	errno = 0;
	CHECK(top_add(t, NULL) == -1 && errno == EINVAL, "NULL sample");
	CHECK(top_add(t, &(struct top_sample)S("f", "d", "c", 1, 1, '.', 0)) ==
		      0 && top_count(t) == 0,
	      "weight 0 adds nothing");
	CHECK(top_total(t, 2) == 0 && top_total(t, 99) == 0, "total past end");

	/* Views the model refuses. */
	struct {
		const char *name;
		struct top_view v;
		int err;
	} views[] = {
		{ "sz 0", { .sz = 0 }, EINVAL },
		{ "keys 512", TOP_VIEW(.keys = TOP_KEY_ALL + 1), EINVAL },
		{ "keys ~0", TOP_VIEW(.keys = ~0u), EINVAL },
		{ "event 2 of 2", TOP_VIEW(.event = 2), EINVAL },
		{ "event -2", TOP_VIEW(.event = -2), EINVAL },
		{ "order max", TOP_VIEW(.order = TOP_ORDER_MAX), EINVAL },
		{ "order -1", TOP_VIEW(.order = (enum top_order)-1), EINVAL },
		{ "all keys", TOP_VIEW(.keys = TOP_KEY_ALL), 0 },
		{ "event -1", TOP_VIEW(.event = -1), 0 },
		{ "event 1", TOP_VIEW(.event = 1), 0 },
		{ "older, smaller struct",
		  { .sz = offsetof(struct top_view, max_rows) }, 0 },
	};
	for (size_t i = 0; i < N(views); i++) {
		const struct top_row *r;

		errno = 0;
		n = 99;
		r = top_rows(t, &views[i].v, &n);
		CHECK(views[i].err ? !r && errno == views[i].err && n == 0
				   : r && n == 0,
		      "%s: %p errno %d n %zu", views[i].name, (const void *)r,
		      errno, n);
	}
	CHECK(top_rows(t, NULL, &n) && n == 0, "NULL view");

	/* A newer caller's larger view: fine while the tail is zero. */
	struct {
		struct top_view v;
		uint64_t more;
	} big = { TOP_VIEW(), 0 };
	big.v.sz = sizeof(big);
	CHECK(top_rows(t, &big.v, &n), "larger view, zero tail");
	big.more = 1;
	errno = 0;
	CHECK(!top_rows(t, &big.v, &n) && errno == E2BIG,
	      "larger view, set tail: errno %d", errno);
	top_free(t);
}

/* --- decay, zero, totals ------------------------------------------------- */

static void test_decay(void)
{
	/* One entry of count c, aged once; 0 drops it. */
	static const struct {
		uint64_t c, after;
	} once[] = {
		{ 1, 0 }, { 2, 1 }, { 7, 6 }, { 8, 7 }, { 9, 7 }, { 15, 13 },
		{ 16, 14 }, { 100, 87 }, { 1000000, 875000 },
		/* count * 7 would overflow: still floor(c * 7 / 8) */
		{ UINT64_MAX, UINT64_MAX - UINT64_MAX / 8 - 1 },
		{ UINT64_MAX / 7 + 1, (UINT64_MAX / 7 + 1) - (UINT64_MAX / 7 + 1) / 8 - 1 },
	};
	/* 16 decays to 0 in exactly these steps. */
	static const uint64_t steps[] = { 16, 14, 12, 10, 8, 7, 6, 5, 4, 3,
					  2, 1, 0 };

	for (size_t i = 0; i < N(once); i++) {
		struct top_sample s = S("f", "d", "c", 1, 1, '.', once[i].c);
		struct top *t = feed(1, &s, 1);
		size_t n;
		const struct top_row *r;

		top_age(t, false);
		r = top_rows(t, NULL, &n);
		CHECK(top_total(t, 0) == once[i].after, "%llu -> total %llu",
		      (unsigned long long)once[i].c,
		      (unsigned long long)top_total(t, 0));
		CHECK(top_count(t) == (once[i].after ? 1u : 0u) &&
			      n == top_count(t),
		      "%llu: %zu entries %zu rows", (unsigned long long)once[i].c,
		      top_count(t), n);
		if (n)
			CHECK(r[0].count[0] == once[i].after, "%llu -> %llu",
			      (unsigned long long)once[i].c,
			      (unsigned long long)r[0].count[0]);
		top_free(t);
	}

	struct top_sample s = S("f", "d", "c", 1, 1, '.', 16);
	struct top *t = feed(1, &s, 1);
	for (size_t i = 1; i < N(steps); i++) {
		top_age(t, false);
		CHECK(top_total(t, 0) == steps[i], "step %zu: %llu", i,
		      (unsigned long long)top_total(t, 0));
	}
	CHECK(top_count(t) == 0, "dropped at 0");
	top_free(t);

	/* Several events: an entry stays while any event has a count. */
	static const struct top_sample two[] = {
		{ "a", "d", "c", 1, 1, '.', 0, 1, 0 },
		{ "a", "d", "c", 1, 1, '.', 1, 9, 0 },
		{ "b", "d", "c", 1, 1, '.', 0, 1, 0 },
	};
	t = feed(2, two, N(two));
	top_age(t, false);
	CHECK(top_count(t) == 1 && top_total(t, 0) == 0 &&
		      top_total(t, 1) == 7,
	      "two events: %zu entries, totals %llu %llu", top_count(t),
	      (unsigned long long)top_total(t, 0),
	      (unsigned long long)top_total(t, 1));
	top_free(t);
}

static void test_zero_and_totals(void)
{
	struct top *t = feed(1, fixture, N(fixture));

	CHECK(top_total(t, 0) == 200, "total %llu",
	      (unsigned long long)top_total(t, 0));
	CHECK(top_count(t) == N(fixture), "entries %zu", top_count(t));
	/* Totals are summed again, not decayed: 9 entries decay one by one. */
	top_age(t, false);
	CHECK(top_total(t, 0) == 43 + 26 + 17 + 8 + 35 + 21 + 4 + 13 + 4,
	      "decayed total %llu", (unsigned long long)top_total(t, 0));
	CHECK(!strcmp(view_text(t, NULL),
		      "main=69 memcpy=43 clear_page=25 work=17 [unknown]=13 hv_call=4"),
	      "decayed rows: %s", view_text(t, NULL));
	top_age(t, true);
	CHECK(top_total(t, 0) == 0 && top_count(t) == 0, "zeroed: %llu, %zu",
	      (unsigned long long)top_total(t, 0), top_count(t));
	CHECK(!strcmp(view_text(t, NULL), ""), "zeroed rows");
	/* Counting starts again from nothing. */
	CHECK(top_add(t, &fixture[0]) == 0 && top_total(t, 0) == 50, "again");

	/* Counts that add up one sample at a time. */
	for (int i = 0; i < 1000; i++)
		top_add(t, &(struct top_sample)S("x", "d", "c", 7, 7, '.', 1));
	CHECK(top_total(t, 0) == 1050, "total %llu",
	      (unsigned long long)top_total(t, 0));
	top_free(t);

	/* Many entries of count 1: each decays to 0, so the total is 0,
	   not 7/8 of the old total. */
	t = top_new(1);
	for (int i = 0; i < 8; i++)
		top_add(t, &(struct top_sample)S("f", "d", "c", 1, i + 1, '.', 1));
	top_age(t, false);
	CHECK(top_total(t, 0) == 0 && top_count(t) == 0, "eight ones: %llu",
	      (unsigned long long)top_total(t, 0));
	top_free(t);
}

/* --- grouping ------------------------------------------------------------ */

/* The reference: group the fixture by keys the slow way and check that
   rows match it, field by field, with the other fields empty. */
static void check_grouping(struct top *t, unsigned keys)
{
	unsigned k = keys ? keys : TOP_KEY_SYM;
	size_t n, ngroups = 0, sum = 0;
	const struct top_row *r = top_rows(t, &TOP_VIEW(.keys = keys), &n);
	bool seen[N(fixture)] = { false };

	CHECK(r, "keys %u: %s", keys, strerror(errno));
	if (!r)
		return;
	for (size_t i = 0; i < N(fixture); i++) {
		const struct top_sample *a = &fixture[i];
		const char *asym = a->sym ? a->sym : "[unknown]";
		uint64_t want = 0;
		bool found = false;

		if (seen[i])
			continue;
		ngroups++;
		for (size_t j = i; j < N(fixture); j++) {
			const struct top_sample *b = &fixture[j];
			const char *bsym = b->sym ? b->sym : "[unknown]";

			if (((k & TOP_KEY_SYM) && (strcmp(asym, bsym) ||
						   strcmp(a->dso, b->dso) ||
						   a->mode != b->mode)) ||
			    ((k & TOP_KEY_DSO) && strcmp(a->dso, b->dso)) ||
			    ((k & TOP_KEY_COMM) && strcmp(a->comm, b->comm)) ||
			    ((k & TOP_KEY_PID) && a->pid != b->pid) ||
			    ((k & TOP_KEY_TID) && a->tid != b->tid))
				continue;
			seen[j] = true;
			want += b->weight;
		}
		for (size_t m = 0; m < n && !found; m++) {
			const struct top_row *x = &r[m];

			found = (k & TOP_KEY_SYM ? x->sym && !strcmp(x->sym, asym) &&
							   x->mode == a->mode
						 : !x->sym && !x->mode) &&
				(k & (TOP_KEY_SYM | TOP_KEY_DSO)
					 ? x->dso && !strcmp(x->dso, a->dso)
					 : !x->dso) &&
				(k & TOP_KEY_COMM ? x->comm && !strcmp(x->comm, a->comm)
						  : !x->comm) &&
				x->pid == (k & TOP_KEY_PID ? a->pid : 0) &&
				x->tid == (k & TOP_KEY_TID ? a->tid : 0);
			if (found) {
				CHECK(x->count[0] == want, "keys %u row %zu: %llu, want %llu",
				      keys, m, (unsigned long long)x->count[0],
				      (unsigned long long)want);
				CHECK(x->share == 100.0 * (double)want / 200,
				      "keys %u: share %g", keys, x->share);
			}
		}
		CHECK(found, "keys %u: no row for fixture[%zu]", keys, i);
	}
	for (size_t m = 0; m < n; m++) {
		sum += r[m].count[0];
		if (m)
			CHECK(r[m - 1].count[0] >= r[m].count[0],
			      "keys %u: not by share at %zu", keys, m);
		CHECK(!r[m].has_delta, "keys %u: delta without baseline", keys);
	}
	CHECK(n == ngroups && sum == 200, "keys %u: %zu rows (want %zu), sum %zu",
	      keys, n, ngroups, sum);
}

static void test_grouping(void)
{
	struct top *t = feed(1, fixture, N(fixture));
	struct {
		unsigned keys;
		const char *want;
	} cases[] = {
		{ 0, "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ TOP_KEY_SYM,
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ TOP_KEY_DSO, "/bin/app=100 /lib/libc.so=50 [kernel.kallsyms]=30 "
			       "[unknown]=15 [hypervisor]=5" },
		{ TOP_KEY_COMM, "app=115 cc=85" },
		{ TOP_KEY_PID, "p100=115 p200=85" },
		{ TOP_KEY_TID, "t200=65 t100=60 t101=55 t201=20" },
		{ TOP_KEY_COMM | TOP_KEY_TID,
		  "cc/t200=65 app/t100=60 app/t101=55 cc/t201=20" },
		{ TOP_KEY_SYM | TOP_KEY_COMM,
		  "main/app=80 memcpy/cc=40 clear_page/cc=25 work/app=20 [unknown]/cc=15 "
		  "memcpy/app=10 clear_page/app=5 hv_call/cc=5" },
		{ TOP_KEY_DSO | TOP_KEY_PID,
		  "/bin/app/p100=100 /lib/libc.so/p200=40 [kernel.kallsyms]/p200=25 "
		  "[unknown]/p200=15 /lib/libc.so/p100=10 [hypervisor]/p200=5 "
		  "[kernel.kallsyms]/p100=5" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		const char *got = view_text(t, &TOP_VIEW(.keys = cases[i].keys));

		CHECK(!strcmp(got, cases[i].want), "keys %u:\n got  %s\n want %s",
		      cases[i].keys, got, cases[i].want);
	}
	/* Every combination against the reference. */
	for (unsigned keys = 0; keys <= TOP_KEY_ALL; keys++)
		check_grouping(t, keys);

	/* With the symbol comes its DSO and mode; without, neither. */
	size_t n;
	const struct top_row *r = top_rows(t, NULL, &n);
	CHECK(r && n == 6 && !strcmp(r[0].dso, "/bin/app") && r[0].mode == '.' &&
		      r[2].mode == 'k' && !r[0].comm && !r[0].pid && !r[0].tid,
	      "sym row fields");
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_DSO), &n);
	CHECK(r && !r[0].sym && !r[0].mode, "dso row has no sym/mode");

	/* The same symbol in two DSOs, or in two modes, is two rows. */
	static const struct top_sample same[] = {
		S("init", "/bin/a", "c", 1, 1, '.', 3),
		S("init", "/bin/b", "c", 1, 1, '.', 2),
		S("init", "/bin/b", "c", 1, 1, 'k', 1),
	};
	top_free(t);
	t = feed(1, same, N(same));
	CHECK(!strcmp(view_text(t, NULL), "init=3 init=2 init=1"), "%s",
	      view_text(t, NULL));
	CHECK(!strcmp(view_text(t, &TOP_VIEW(.keys = TOP_KEY_DSO)),
		      "/bin/a=3 /bin/b=3"), "%s",
	      view_text(t, &TOP_VIEW(.keys = TOP_KEY_DSO)));
	top_free(t);
}

/* --- orders -------------------------------------------------------------- */

static void test_orders(void)
{
	struct top *t = feed(1, fixture, N(fixture));
	struct {
		struct top_view v;
		const char *want;
	} cases[] = {
		{ TOP_VIEW(.order = TOP_BY_SHARE),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ TOP_VIEW(.order = TOP_BY_SYM),
		  "[unknown]=15 clear_page=30 hv_call=5 main=80 memcpy=50 work=20" },
		/* "/" < "[", and equal DSOs by share */
		{ TOP_VIEW(.order = TOP_BY_DSO),
		  "main=80 work=20 memcpy=50 hv_call=5 clear_page=30 [unknown]=15" },
		/* not a key: every row ties, so by share */
		{ TOP_VIEW(.order = TOP_BY_COMM),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ TOP_VIEW(.order = TOP_BY_PID),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ TOP_VIEW(.order = TOP_BY_TID),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ TOP_VIEW(.keys = TOP_KEY_SYM | TOP_KEY_COMM, .order = TOP_BY_COMM),
		  "main/app=80 work/app=20 memcpy/app=10 clear_page/app=5 "
		  "memcpy/cc=40 clear_page/cc=25 [unknown]/cc=15 hv_call/cc=5" },
		{ TOP_VIEW(.keys = TOP_KEY_PID | TOP_KEY_TID, .order = TOP_BY_PID),
		  "p100/t100=60 p100/t101=55 p200/t200=65 p200/t201=20" },
		{ TOP_VIEW(.keys = TOP_KEY_TID, .order = TOP_BY_TID),
		  "t100=60 t101=55 t200=65 t201=20" },
		{ TOP_VIEW(.keys = TOP_KEY_COMM, .order = TOP_BY_SYM),
		  "app=115 cc=85" },
		{ TOP_VIEW(.keys = TOP_KEY_DSO | TOP_KEY_TID, .order = TOP_BY_DSO),
		  "/bin/app/t100=50 /bin/app/t101=50 /lib/libc.so/t200=40 "
		  "/lib/libc.so/t100=10 [hypervisor]/t201=5 "
		  "[kernel.kallsyms]/t200=25 [kernel.kallsyms]/t101=5 [unknown]/t201=15" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		const char *got = view_text(t, &cases[i].v);

		CHECK(!strcmp(got, cases[i].want), "case %zu:\n got  %s\n want %s",
		      i, got, cases[i].want);
	}
	top_free(t);

	/* Equal counts order by name, whatever order they arrived in. */
	static const struct top_sample ties[] = {
		S("b", "/x", "c", 1, 1, '.', 10), S("c", "/x", "c", 1, 1, '.', 10),
		S("a", "/y", "c", 1, 1, '.', 10), S("a", "/x", "c", 1, 1, '.', 10),
		S("a", "/x", "c", 1, 1, 'k', 10), S("a", "/x", "c", 2, 2, '.', 10),
	};
	static const struct {
		unsigned keys;
		enum top_order order;
		const char *want;
	} tie_cases[] = {
		{ TOP_KEY_SYM, TOP_BY_SHARE, "a=20 a=10 a=10 b=10 c=10" },
		{ TOP_KEY_ALL, TOP_BY_SHARE,
		  "a/c/p1/t1=10 a/c/p2/t2=10 a/c/p1/t1=10 a/c/p1/t1=10 "
		  "b/c/p1/t1=10 c/c/p1/t1=10" },
		{ TOP_KEY_ALL, TOP_BY_PID,
		  "a/c/p1/t1=10 a/c/p1/t1=10 a/c/p1/t1=10 b/c/p1/t1=10 "
		  "c/c/p1/t1=10 a/c/p2/t2=10" },
	};
	for (size_t i = 0; i < N(tie_cases); i++) {
		/* Fed forwards and backwards: the same table. */
		for (int back = 0; back < 2; back++) {
			const char *got;

			t = top_new(1);
			for (size_t j = 0; j < N(ties); j++)
				top_add(t, &ties[back ? N(ties) - 1 - j : j]);
			got = view_text(t, &TOP_VIEW(.keys = tie_cases[i].keys,
						     .order = tie_cases[i].order));
			CHECK(!strcmp(got, tie_cases[i].want),
			      "ties %zu back %d:\n got  %s\n want %s", i, back,
			      got, tie_cases[i].want);
			top_free(t);
		}
	}
	/* The full key decides between the three "a" entries of /x: dso,
	   then mode ('.' < 'k'), then pid. */
	t = feed(1, ties, N(ties));
	size_t n;
	const struct top_row *r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_ALL), &n);
	CHECK(r && n == 6 && !strcmp(r[0].dso, "/x") && r[0].mode == '.' &&
		      r[0].pid == 1 && r[1].pid == 2 && r[2].mode == 'k' &&
		      !strcmp(r[3].dso, "/y"),
	      "full key order");
	top_free(t);
}

/* --- what a view shows --------------------------------------------------- */

static void test_view_filters(void)
{
	struct top *t = feed(1, fixture, N(fixture));
	struct {
		const char *name;
		struct top_view v;
		const char *want;
	} cases[] = {
		{ "zoom dso", TOP_VIEW(.dso = "/bin/app"), "main=80 work=20" },
		{ "zoom kernel", TOP_VIEW(.dso = "[kernel.kallsyms]", .keys = TOP_KEY_TID),
		  "t200=25 t101=5" },
		{ "zoom dso never seen", TOP_VIEW(.dso = "/bin/none"), "" },
		{ "zoom dso is a comm", TOP_VIEW(.dso = "app"), "" },
		{ "zoom tid", TOP_VIEW(.tid = 101), "main=30 work=20 clear_page=5" },
		{ "zoom tid absent", TOP_VIEW(.tid = 999), "" },
		{ "zoom dso and tid", TOP_VIEW(.dso = "/bin/app", .tid = 100), "main=50" },
		{ "hide kernel", TOP_VIEW(.hide_kernel = true),
		  "main=80 memcpy=50 work=20 [unknown]=15 hv_call=5" },
		{ "hide user", TOP_VIEW(.hide_user = true), "clear_page=30 hv_call=5" },
		{ "hide both", TOP_VIEW(.hide_kernel = true, .hide_user = true),
		  "hv_call=5" },
		{ "hide kernel by comm", TOP_VIEW(.keys = TOP_KEY_COMM, .hide_kernel = true),
		  "app=110 cc=60" },
		{ "filter", TOP_VIEW(.filter = "mem"), "memcpy=50" },
		{ "filter several", TOP_VIEW(.filter = "c"),
		  "memcpy=50 clear_page=30 hv_call=5" },
		{ "filter case", TOP_VIEW(.filter = "MAIN"), "" },
		{ "filter empty", TOP_VIEW(.filter = ""),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ "filter unknown", TOP_VIEW(.filter = "[unk"), "[unknown]=15" },
		{ "filter by dso", TOP_VIEW(.keys = TOP_KEY_DSO, .filter = "a"),
		  "/bin/app=80 [kernel.kallsyms]=30 [hypervisor]=5" },
		{ "percent 10", TOP_VIEW(.percent_limit = 10),
		  "main=80 memcpy=50 clear_page=30 work=20" },
		{ "percent 10.01", TOP_VIEW(.percent_limit = 10.01),
		  "main=80 memcpy=50 clear_page=30" },
		{ "percent 0", TOP_VIEW(.percent_limit = 0),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ "percent 100", TOP_VIEW(.percent_limit = 100), "" },
		{ "percent of groups", TOP_VIEW(.keys = TOP_KEY_COMM, .percent_limit = 50),
		  "app=115" },
		/* shares stay of the whole: zoomed main is 40%, not 80% */
		{ "percent after zoom", TOP_VIEW(.dso = "/bin/app", .percent_limit = 20),
		  "main=80" },
		{ "max 2", TOP_VIEW(.max_rows = 2), "main=80 memcpy=50" },
		{ "max 1 by sym", TOP_VIEW(.max_rows = 1, .order = TOP_BY_SYM),
		  "[unknown]=15" },
		{ "max more", TOP_VIEW(.max_rows = 100),
		  "main=80 memcpy=50 clear_page=30 work=20 [unknown]=15 hv_call=5" },
		{ "max and percent", TOP_VIEW(.max_rows = 3, .percent_limit = 20),
		  "main=80 memcpy=50" },
		{ "everything", TOP_VIEW(.keys = TOP_KEY_SYM | TOP_KEY_TID, .tid = 101,
					 .hide_kernel = true, .filter = "a",
					 .percent_limit = 1, .max_rows = 5),
		  "main/t101=30" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		const char *got = view_text(t, &cases[i].v);

		CHECK(!strcmp(got, cases[i].want), "%s:\n got  %s\n want %s",
		      cases[i].name, got, cases[i].want);
	}

	/* Shares are of the whole total, zoomed or not. */
	size_t n;
	const struct top_row *r = top_rows(t, &TOP_VIEW(.dso = "/bin/app"), &n);
	CHECK(r && n == 2 && r[0].share == 40.0 && r[1].share == 10.0,
	      "zoomed shares %g %g", n ? r[0].share : -1, n > 1 ? r[1].share : -1);
	top_free(t);
}

/* --- several events ------------------------------------------------------ */

/*
 * perf's filters and the keys only some views group by: --comms, --dsos
 * (a path or its file name), --symbols, -f, --percentage relative
 * against absolute, the Period sums, and cpu, socket, srcline, parent.
 */
static void test_perf_filters(void)
{
	struct top *t = feed(1, fixture, N(fixture));
	struct top_sample extra[] = {
		{ .sym = "spin", .dso = "/bin/s", .comm = "s", .pid = 7,
		  .tid = 7, .mode = '.', .weight = 3, .cpu = 1, .socket = 0,
		  .srcline = "s.c:26", .parent = "[other]", .period = 300 },
		{ .sym = "spin", .dso = "/bin/s", .comm = "s", .pid = 7,
		  .tid = 7, .mode = '.', .weight = 1, .cpu = 0, .socket = 0,
		  .srcline = "s.c:25", .parent = "[other]", .period = 100 },
		{ .sym = "spin", .dso = "/bin/s", .comm = "s", .pid = 7,
		  .tid = 7, .mode = '.', .weight = 2, .cpu = 1, .socket = 0,
		  .srcline = "s.c:26", .parent = "[other]", .period = 200 },
	};
	const struct top_row *r;
	size_t n;

	CHECK(!strcmp(view_text(t, &TOP_VIEW(.comms = "cc")),
		      "memcpy=40 clear_page=25 [unknown]=15 hv_call=5"),
	      "--comms cc: %s", view_text(t, &TOP_VIEW(.comms = "cc")));
	CHECK(!strcmp(view_text(t, &TOP_VIEW(.comms = "cc,app",
					     .symbols = "memcpy,work")),
		      "memcpy=50 work=20"), "--comms --symbols: %s",
	      view_text(t, &TOP_VIEW(.comms = "cc,app",
				     .symbols = "memcpy,work")));
	CHECK(!strcmp(view_text(t, &TOP_VIEW(.dsos = "libc.so,[kernel.kallsyms]")),
		      "memcpy=50 clear_page=30"), "--dsos by name: %s",
	      view_text(t, &TOP_VIEW(.dsos = "libc.so,[kernel.kallsyms]")));
	CHECK(!strcmp(view_text(t, &TOP_VIEW(.dsos = "/bin/app")),
		      "main=80 work=20"), "--dsos by path");
	CHECK(!strcmp(view_text(t, &TOP_VIEW(.dsos = "app.so")), ""),
	      "--dsos: no partial names");
	/* -f: more than N, not N itself */
	CHECK(!strcmp(view_text(t, &TOP_VIEW(.count_filter = 20)),
		      "main=80 memcpy=50 clear_page=30"), "-f 20: %s",
	      view_text(t, &TOP_VIEW(.count_filter = 20)));
	/* absolute (the default) keeps shares of 200, relative of 85 */
	r = top_rows(t, &TOP_VIEW(.comms = "cc"), &n);
	CHECK(r && n == 4 && r[0].share == 20.0, "absolute: %g",
	      r ? r[0].share : -1);
	r = top_rows(t, &TOP_VIEW(.comms = "cc", .relative = true), &n);
	CHECK(r && n == 4 && r[0].share == 100.0 * 40 / 85, "relative: %g",
	      r ? r[0].share : -1);
	top_baseline_take(t);
	r = top_rows(t, &TOP_VIEW(.comms = "cc", .relative = true), &n);
	CHECK(r && n == 4 && r[0].has_delta && r[0].delta == 0.0,
	      "relative delta at the baseline: %g", r ? r[0].delta : -1);
	top_baseline_drop(t);

	for (size_t i = 0; i < N(extra); i++)
		CHECK(top_add(t, &extra[i]) == 0, "extra %zu", i);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_CPU, .comms = "s"), &n);
	CHECK(r && n == 2 && r[0].cpu == 1 && r[0].count[0] == 5 &&
	      r[0].period[0] == 500 && r[1].cpu == 0 &&
	      r[1].period[0] == 100 && !r[0].sym, "cpu rows");
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_SRCLINE | TOP_KEY_SYM,
				  .symbols = "spin"), &n);
	CHECK(r && n == 2 && !strcmp(r[0].srcline, "s.c:26") &&
	      !strcmp(r[0].sym, "spin") && r[0].count[0] == 5 &&
	      !strcmp(r[1].srcline, "s.c:25"), "srcline rows");
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_SOCKET | TOP_KEY_PARENT,
				  .comms = "s"), &n);
	CHECK(r && n == 1 && r[0].socket == 0 &&
	      !strcmp(r[0].parent, "[other]") && r[0].count[0] == 6 &&
	      r[0].period[0] == 600 && !r[0].srcline, "socket, parent rows");
	/* a tracepoint's record text: its own rows, ordered last by it */
	{
		struct top_sample tr = extra[0];

		tr.trace = "prev_state=S";
		tr.weight = 1;
		CHECK(top_add(t, &tr) == 0, "trace sample");
		r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_TRACE,
					  .comms = "s"), &n);
		CHECK(r && n == 2 && !strcmp(r[0].trace, "") &&
		      r[0].count[0] == 6 && !strcmp(r[1].trace,
		      "prev_state=S") && r[1].count[0] == 1 && !r[0].sym,
		      "trace rows");
		r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_CPU, .comms = "s"),
			     &n);
		CHECK(r && n == 2 && !r[0].trace && r[0].count[0] == 6,
		      "trace: no row of its own unless a key");
	}
	/* periods decay with the counts (cpu 0's count 1 goes, and the
	   trace sample's) */
	top_age(t, false);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_CPU, .comms = "s"), &n);
	CHECK(r && n == 1 && r[0].period[0] == 500 * 7 / 8,
	      "decayed period %llu", r ? (unsigned long long)r[0].period[0] : 0);
	/* the same lists for the samples a caller feeds elsewhere */
	CHECK(top_view_passes(&TOP_VIEW(.comms = "s", .symbols = "spin"),
			      &extra[0]) &&
	      !top_view_passes(&TOP_VIEW(.dsos = "app"), &extra[0]) &&
	      top_view_passes(&TOP_VIEW(.dsos = "s"), &extra[0]) &&
	      top_view_passes(NULL, &extra[0]), "top_view_passes");
	top_free(t);
}

static void test_events(void)
{
	static const struct {
		unsigned nevents;
		uint64_t count[4];
		double weight;
	} weights[] = {
		{ 1, { 7 }, 7 },
		{ 2, { 10, 4 }, 2 },		/* 10 / (4 + 1) */
		{ 2, { 6, 0 }, 6 },
		{ 2, { 10, 2 }, 10.0 / 3 },
		{ 3, { 6, 5, 2 }, 10 },		/* 6 * 5 / (2 + 1) */
		{ 3, { 0, 5, 2 }, 0 },
		{ 4, { 2, 3, 4, 5 }, 4 },	/* 2 * 3 * 4 / (5 + 1) */
	};

	for (size_t i = 0; i < N(weights); i++) {
		struct top *t = top_new(weights[i].nevents);
		const struct top_row *r;
		size_t n;

		for (unsigned e = 0; e < weights[i].nevents; e++) {
			struct top_sample s = S("f", "d", "c", 1, 1, '.',
						weights[i].count[e]);
			s.event = e;
			top_add(t, &s);
		}
		r = top_rows(t, &TOP_VIEW(.event = -1), &n);
		CHECK(r && n == 1 && r[0].weight == weights[i].weight,
		      "weights[%zu]: %g, want %g", i, n ? r[0].weight : -1,
		      weights[i].weight);
		for (unsigned e = 0; n && e < weights[i].nevents; e++)
			CHECK(r[0].count[e] == weights[i].count[e], "count %u", e);
		top_free(t);
	}

	/* Two events: A {10,4} w 2, B {6,0} w 6, C {20,9} w 2, D {4,20}
	   w 4/21; totals {40, 33}. */
	static const struct top_sample two[] = {
		{ "A", "d", "c", 1, 1, '.', 0, 10, 0 }, { "A", "d", "c", 1, 1, '.', 1, 4, 0 },
		{ "B", "d", "c", 1, 1, '.', 0, 6, 0 },
		{ "C", "d", "c", 1, 1, '.', 0, 20, 0 }, { "C", "d", "c", 1, 1, '.', 1, 9, 0 },
		{ "D", "d", "c", 1, 1, '.', 0, 4, 0 }, { "D", "d", "c", 1, 1, '.', 1, 20, 0 },
	};
	struct top *t = feed(2, two, N(two));
	struct {
		struct top_view v;
		const char *want;	/* counts of event 0 unless .event > 0 */
	} cases[] = {
		/* weight ties (A, C) by name */
		{ TOP_VIEW(.event = -1), "B=6 A=10 C=20 D=4" },
		{ TOP_VIEW(.event = 0), "C=20 A=10 B=6 D=4" },
		{ TOP_VIEW(.event = 1), "D=20 C=9 A=4 B=0" },
		/* weight view: the limit is of event 0 (A 25%, B 15%) */
		{ TOP_VIEW(.event = -1, .percent_limit = 15), "B=6 A=10 C=20" },
		{ TOP_VIEW(.event = 1, .percent_limit = 15), "D=20 C=9" },
		{ TOP_VIEW(.event = -1, .order = TOP_BY_SYM), "A=10 B=6 C=20 D=4" },
		{ TOP_VIEW(.event = -1, .max_rows = 1), "B=6" },
	};
	for (size_t i = 0; i < N(cases); i++) {
		const char *got = view_text(t, &cases[i].v);

		CHECK(!strcmp(got, cases[i].want), "events case %zu:\n got  %s\n want %s",
		      i, got, cases[i].want);
	}
	size_t n;
	const struct top_row *r = top_rows(t, &TOP_VIEW(.event = 1), &n);
	CHECK(r && n == 4 && r[0].share == 100.0 * 20 / 33 &&
		      r[0].weight == 4.0 / 21,
	      "event 1 share %g weight %g", r ? r[0].share : -1,
	      r ? r[0].weight : -1);
	r = top_rows(t, &TOP_VIEW(.event = -1), &n);
	CHECK(r && r[0].share == 15.0, "weight view share is of event 0: %g",
	      r ? r[0].share : -1);
	/* Grouping sums every event's counts; the weight is of the sums. */
	r = top_rows(t, &TOP_VIEW(.event = -1, .keys = TOP_KEY_DSO), &n);
	CHECK(r && n == 1 && r[0].count[0] == 40 && r[0].count[1] == 33 &&
		      r[0].weight == 40.0 / 34,
	      "grouped weight %g", r ? r[0].weight : -1);
	CHECK(top_total(t, 0) == 40 && top_total(t, 1) == 33, "totals");
	top_free(t);
}

/* --- baseline ------------------------------------------------------------ */

static void test_baseline(void)
{
	static const struct top_sample before[] = {
		S("A", "/lib/a", "c", 1, 1, '.', 80),
		S("B", "/lib/b", "c", 1, 1, '.', 20),
	};
	struct top *t = feed(1, before, N(before));
	const struct top_row *r;
	size_t n;

	CHECK(!top_baseline_active(t), "no baseline yet");
	CHECK(top_baseline_take(t) == 0 && top_baseline_active(t), "take");
	/* Now C comes, A stays, B stops: total 80 + 20 + 100 = 200. */
	top_add(t, &(struct top_sample)S("C", "/lib/a", "c", 1, 1, '.', 100));
	struct {
		struct top_view v;
		const char *row;
		double delta;
	} cases[] = {
		{ TOP_VIEW(), "A", 40.0 - 80 },
		{ TOP_VIEW(), "B", 10.0 - 20 },
		{ TOP_VIEW(), "C", 50.0 - 0 },
		/* grouped after the fact: /lib/a held A's 80%, now A + C */
		{ TOP_VIEW(.keys = TOP_KEY_DSO), "/lib/a", 90.0 - 80 },
		{ TOP_VIEW(.keys = TOP_KEY_DSO), "/lib/b", 10.0 - 20 },
		{ TOP_VIEW(.keys = TOP_KEY_COMM), "c", 0 },
	};
	for (size_t i = 0; i < N(cases); i++) {
		bool found = false;

		r = top_rows(t, &cases[i].v, &n);
		for (size_t m = 0; r && m < n; m++) {
			const char *name = r[m].sym ? r[m].sym
				       : r[m].dso ? r[m].dso : r[m].comm;

			if (strcmp(name, cases[i].row))
				continue;
			found = true;
			CHECK(r[m].has_delta && r[m].delta == cases[i].delta,
			      "%s: delta %g, want %g", name, r[m].delta,
			      cases[i].delta);
		}
		CHECK(found, "no row %s", cases[i].row);
	}

	/* Held entries survive decay to 0; the unheld C goes. */
	for (int i = 0; i < 40; i++)
		top_age(t, false);
	CHECK(top_count(t) == 2 && top_total(t, 0) == 0, "held: %zu entries",
	      top_count(t));
	r = top_rows(t, NULL, &n);
	CHECK(r && n == 2 && !strcmp(r[0].sym, "A") && r[0].count[0] == 0 &&
		      r[0].share == 0 && r[0].delta == -80 && r[1].delta == -20,
	      "fallen rows: %s", rows_text(r, n, 0));
	/* Zeroing keeps them as well, and a new sample in one counts. */
	top_age(t, true);
	top_add(t, &(struct top_sample)S("B", "/lib/b", "c", 1, 1, '.', 5));
	r = top_rows(t, NULL, &n);
	CHECK(r && n == 2 && !strcmp(r[0].sym, "B") && r[0].delta == 80 &&
		      r[1].delta == -80,
	      "after zero: %s", rows_text(r, n, 0));

	/* Dropping forgets: deltas go, and so does what only it held. */
	top_baseline_drop(t);
	CHECK(!top_baseline_active(t) && top_count(t) == 1, "dropped: %zu",
	      top_count(t));
	r = top_rows(t, NULL, &n);
	CHECK(r && n == 1 && !r[0].has_delta && r[0].delta == 0, "no delta");

	/* Taking again replaces: B is the whole baseline now. */
	top_baseline_take(t);
	top_add(t, &(struct top_sample)S("A", "/lib/a", "c", 1, 1, '.', 15));
	r = top_rows(t, NULL, &n);
	CHECK(r && n == 2 && !strcmp(r[0].sym, "A") && r[0].delta == 75 &&
		      r[1].delta == 25 - 100,
	      "retaken: %s", rows_text(r, n, 0));
	/* An old baseline's zero entries do not outlive a new take. */
	top_age(t, true);
	CHECK(top_count(t) == 1, "B held, A not: %zu", top_count(t));
	top_baseline_take(t);
	CHECK(top_count(t) == 0, "retake after zero: %zu", top_count(t));
	top_baseline_drop(t);
	top_free(t);

	/* Several events: the delta is of the event shown, of event 0 in
	   the weight view. */
	static const struct top_sample two[] = {
		{ "A", "d", "c", 1, 1, '.', 0, 3, 0 }, { "A", "d", "c", 1, 1, '.', 1, 1, 0 },
		{ "B", "d", "c", 1, 1, '.', 0, 1, 0 }, { "B", "d", "c", 1, 1, '.', 1, 3, 0 },
	};
	t = feed(2, two, N(two));
	top_baseline_take(t);
	top_add(t, &two[1]);
	top_add(t, &two[1]);	/* A {3, 3}, B {1, 3}: event 1 50/50 */
	r = top_rows(t, &TOP_VIEW(.event = 1), &n);
	CHECK(r && n == 2 && r[0].delta == 50 - 25 && r[1].delta == 50 - 75,
	      "event 1 deltas %g %g", r ? r[0].delta : 0, r ? r[1].delta : 0);
	r = top_rows(t, &TOP_VIEW(.event = -1), &n);
	CHECK(r && n == 2 && r[0].delta == 0 && r[1].delta == 0,
	      "weight view deltas are of event 0");
	top_free(t);
}

/* --- annotation addresses ------------------------------------------------ */

static void test_addrs(void)
{
	static const struct top_sample s[] = {
		{ "main", "/bin/app", "app", 1, 1, '.', 0, 3, 0x20 },
		{ "main", "/bin/app", "app", 1, 2, '.', 0, 2, 0x10 },
		{ "main", "/bin/app", "sh", 5, 5, '.', 0, 1, 0x20 },
		{ "main", "/bin/app", "app", 1, 1, '.', 1, 4, 0x30 },
		{ "main", "/bin/app", "app", 1, 1, 'k', 0, 1, 0x30 },
		{ "main", "/bin/other", "o", 9, 9, '.', 0, 7, 0x20 },
		{ NULL, "/bin/app", "app", 1, 1, '.', 0, 6, 0x99 },
		{ "big", "/bin/app", "app", 1, 1, '.', 0, 1, UINT64_MAX },
		{ "big", "/bin/app", "app", 1, 1, '.', 0, 1, 0 },
	};
	static const struct {
		const char *sym, *dso;
		const char *want;	/* "addr:count ..." */
	} cases[] = {
		{ "main", "/bin/app", "10:2 20:4 30:5" },
		{ "main", "/bin/other", "20:7" },
		{ NULL, "/bin/app", "99:6" },
		{ "[unknown]", "/bin/app", "99:6" },
		{ "big", "/bin/app", "0:1 ffffffffffffffff:1" },
		{ "main", "/bin/none", "" },
		{ "none", "/bin/app", "" },
		{ "app", "main", "" },
	};
	struct top *t = feed(2, s, N(s));

	/* Decay and zero do not touch them, not even once entries go. */
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < N(cases); i++) {
			char buf[256] = "";
			size_t n = 99, len = 0;
			const struct top_addr *a;

			errno = 0;
			a = top_addrs(t, cases[i].sym, cases[i].dso, &n);
			for (size_t j = 0; a && j < n; j++)
				len += snprintf(buf + len, sizeof(buf) - len,
						"%s%llx:%llu", j ? " " : "",
						(unsigned long long)a[j].addr,
						(unsigned long long)a[j].count);
			CHECK(!strcmp(buf, cases[i].want),
			      "round %d %s %s: %s, want %s", round,
			      cases[i].sym, cases[i].dso, buf, cases[i].want);
			if (!*cases[i].want)
				CHECK(!a && n == 0 && errno == ENOENT,
				      "unknown: n %zu errno %d", n, errno);
		}
		top_age(t, round == 1);
	}
	CHECK(top_count(t) == 0, "entries gone, addresses stay");
	top_free(t);
}

/* --- strings ------------------------------------------------------------- */

static void test_strings(void)
{
	char sym[32] = "", dso[32] = "", comm[32] = "";
	struct top_sample s = { sym, dso, comm, 1, 1, '.', 0, 1, 0x40 };
	struct top *t = top_new(1);
	const struct top_row *r;
	size_t n;

	strcpy(sym, "first");
	strcpy(dso, "/bin/first");
	strcpy(comm, "one");
	top_add(t, &s);
	strcpy(sym, "second");
	strcpy(dso, "/bin/second");
	strcpy(comm, "two");
	top_add(t, &s);
	top_add(t, &s);
	memset(sym, 'x', sizeof(sym) - 1);
	memset(dso, 'y', sizeof(dso) - 1);
	memset(comm, 0, sizeof(comm));
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_ALL), &n);
	CHECK(r && n == 2 && !strcmp(r[0].sym, "second") &&
		      !strcmp(r[0].dso, "/bin/second") && !strcmp(r[0].comm, "two") &&
		      !strcmp(r[1].sym, "first") && !strcmp(r[1].dso, "/bin/first") &&
		      !strcmp(r[1].comm, "one"),
	      "copied: %s", rows_text(r, n, 0));
	/* One copy per string: rows share their DSO's pointer. */
	CHECK(r && n == 2 && r[0].sym != sym && r[0].dso != dso, "not the caller's");
	const struct top_addr *a = top_addrs(t, "first", "/bin/first", &n);
	CHECK(a && n == 1 && a[0].addr == 0x40, "addrs by copied name");

	/* NULL strings are "[unknown]", as is an explicit "[unknown]". */
	struct top_sample u = { NULL, NULL, NULL, 3, 3, 'k', 0, 2, 0 };
	top_add(t, &u);
	u.sym = u.dso = u.comm = "[unknown]";
	top_add(t, &u);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_ALL), &n);
	CHECK(r && n == 3 && r[0].count[0] == 4 && !strcmp(r[0].sym, "[unknown]") &&
		      !strcmp(r[0].dso, "[unknown]") && !strcmp(r[0].comm, "[unknown]"),
	      "unknowns: %s", rows_text(r, n, 0));

	/* Strings outlive the entries that brought them. */
	const char *kept = r[1].dso;
	top_age(t, true);
	strcpy(dso, "/bin/second");
	s.sym = "other";
	top_add(t, &s);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_DSO), &n);
	CHECK(r && n == 1 && r[0].dso == kept && !strcmp(kept, "/bin/second"),
	      "interned once");
	top_free(t);
}

/* --- rows from call chains ------------------------------------------------ */

/*
 * The chains, leaf first: 40 in work < main < _start, 30 in memcpy < work
 * < main < _start, 20 in clear_page (kernel) < memcpy < main < _start, 10
 * in a stripped place of /bin/app < main < _start.  Self: work 40, memcpy
 * 30, clear_page 20, [unknown] 10.  Children: _start and main 100, work
 * 70, memcpy 50, clear_page 20, [unknown] 10.
 */
#define F(name, path, m) \
	{ .sym = name, .dso = path, .mode = m, .ip = 0x10, .dso_off = 0x10 }
static const struct {
	unsigned weight, depth;
	struct stk_sample_frame fr[4];
} chains[] = {
	{ 40, 3, { F("work", "/bin/app", '.'), F("main", "/bin/app", '.'),
		   F("_start", "/bin/app", '.') } },
	{ 30, 4, { F("memcpy", "/lib/libc.so", '.'), F("work", "/bin/app", '.'),
		   F("main", "/bin/app", '.'), F("_start", "/bin/app", '.') } },
	{ 20, 4, { F("clear_page", "[kernel.kallsyms]", 'k'),
		   F("memcpy", "/lib/libc.so", '.'), F("main", "/bin/app", '.'),
		   F("_start", "/bin/app", '.') } },
	{ 10, 3, { { .dso = "/bin/app", .mode = '.', .ip = 0x77,
		     .dso_off = 0x77, .cause = SYM_STRIPPED },
		   F("main", "/bin/app", '.'), F("_start", "/bin/app", '.') } },
};
#undef F

/* The rows as text: "sym=children/self" each, joined by spaces. */
static const char *chain_text(struct top *t, struct stacks *s,
			      const struct top_view *v)
{
	static char buf[1024];
	size_t n, len = 0;
	const struct top_row *r = top_rows_chains(t, s, v, &n);

	if (!r)
		return "NULL";
	buf[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s=%llu/%llu",
				i ? " " : "", r[i].sym,
				(unsigned long long)r[i].children,
				(unsigned long long)r[i].count[0]);
	return buf;
}

static void test_chains(void)
{
	struct top *t = top_new(2);
	struct stacks *s = stacks_new();
	const struct top_row *r;
	struct top_row *copy;
	size_t n;

	for (size_t i = 0; i < N(chains); i++)
		for (unsigned k = 0; k < chains[i].weight; k++)
			CHECK(stacks_add(s, chains[i].fr, chains[i].depth,
					 1) == 0, "stacks_add");
	struct {
		const char *name;
		struct top_view v;
		const char *want;
	} cases[] = {
		/* ties (_start, main) by name */
		{ "by children", TOP_VIEW(),
		  "_start=100/0 main=100/0 work=70/40 memcpy=50/30 "
		  "clear_page=20/20 [unknown]=10/10" },
		{ "by self", TOP_VIEW(.sort_self = true),
		  "work=70/40 memcpy=50/30 clear_page=20/20 [unknown]=10/10 "
		  "_start=100/0 main=100/0" },
		{ "by sym", TOP_VIEW(.order = TOP_BY_SYM),
		  "[unknown]=10/10 _start=100/0 clear_page=20/20 main=100/0 "
		  "memcpy=50/30 work=70/40" },
		{ "by dso", TOP_VIEW(.order = TOP_BY_DSO),
		  "_start=100/0 main=100/0 work=70/40 [unknown]=10/10 "
		  "memcpy=50/30 clear_page=20/20" },
		/* not a key of these rows: every row ties, so by children */
		{ "by tid", TOP_VIEW(.order = TOP_BY_TID),
		  "_start=100/0 main=100/0 work=70/40 memcpy=50/30 "
		  "clear_page=20/20 [unknown]=10/10" },
		{ "zoom dso", TOP_VIEW(.dso = "/lib/libc.so"), "memcpy=50/30" },
		{ "zoom dso never seen", TOP_VIEW(.dso = "/bin/none"), "" },
		{ "hide kernel", TOP_VIEW(.hide_kernel = true),
		  "_start=100/0 main=100/0 work=70/40 memcpy=50/30 "
		  "[unknown]=10/10" },
		{ "hide user", TOP_VIEW(.hide_user = true), "clear_page=20/20" },
		{ "filter", TOP_VIEW(.filter = "m"), "main=100/0 memcpy=50/30" },
		{ "filter empty", TOP_VIEW(.filter = "", .max_rows = 1),
		  "_start=100/0" },
		{ "filter unknown", TOP_VIEW(.filter = "[unk"),
		  "[unknown]=10/10" },
		{ "percent of children", TOP_VIEW(.percent_limit = 50),
		  "_start=100/0 main=100/0 work=70/40 memcpy=50/30" },
		{ "percent of self",
		  TOP_VIEW(.percent_limit = 20, .sort_self = true),
		  "work=70/40 memcpy=50/30 clear_page=20/20" },
		{ "max 2", TOP_VIEW(.max_rows = 2), "_start=100/0 main=100/0" },
		{ "everything", TOP_VIEW(.dso = "/bin/app", .hide_kernel = true,
					 .filter = "a", .percent_limit = 60,
					 .max_rows = 5),
		  "_start=100/0 main=100/0" },
	};
	for (size_t i = 0; i < N(cases); i++) {
		const char *got = chain_text(t, s, &cases[i].v);

		CHECK(!strcmp(got, cases[i].want), "%s:\n got  %s\n want %s",
		      cases[i].name, got, cases[i].want);
	}

	/* What only the model's rows can be: the chains refuse them. */
	struct {
		const char *name;
		struct top_view v;
	} refused[] = {
		{ "keys dso", TOP_VIEW(.keys = TOP_KEY_DSO) },
		{ "keys sym,tid", TOP_VIEW(.keys = TOP_KEY_SYM | TOP_KEY_TID) },
		{ "event 1", TOP_VIEW(.event = 1) },
		{ "weight", TOP_VIEW(.event = -1) },
		{ "thread zoom", TOP_VIEW(.tid = 7) },
		{ "sz 0", { .sz = 0 } },
	};
	for (size_t i = 0; i < N(refused); i++) {
		errno = 0;
		n = 99;
		r = top_rows_chains(t, s, &refused[i].v, &n);
		CHECK(!r && errno == EINVAL && n == 0, "%s: %p errno %d",
		      refused[i].name, (const void *)r, errno);
	}

	/* Shares are of the chains' total; the cause comes with the row. */
	r = top_rows_chains(t, s, &TOP_VIEW(.order = TOP_BY_SYM), &n);
	CHECK(r && n == 6, "rows %zu", n);
	for (size_t i = 0; r && i < n; i++) {
		bool unknown = !strcmp(r[i].sym, "[unknown]");
		char mode = strcmp(r[i].sym, "clear_page") ? '.' : 'k';

		CHECK(r[i].has_children && !r[i].has_delta &&
			      r[i].count[1] == 0 && r[i].mode == mode,
		      "row %s fields", r[i].sym);
		CHECK(r[i].share == (double)r[i].count[0] &&
			      r[i].children_share == (double)r[i].children,
		      "row %s: share %g children %g", r[i].sym, r[i].share,
		      r[i].children_share);
		CHECK(r[i].cause == (unknown ? SYM_STRIPPED : SYM_OK),
		      "row %s: cause %d", r[i].sym, (int)r[i].cause);
	}

	/* A copy stays what it was while the model reads other views. */
	copy = top_rows_dup(r, n, 2);
	CHECK(copy, "top_rows_dup: %s", strerror(errno));
	r = top_rows_chains(t, s, &TOP_VIEW(.hide_user = true), &n);
	CHECK(r && n == 1, "another view");
	CHECK(copy && !strcmp(copy[0].sym, "[unknown]") &&
		      copy[0].count[0] == 10 && copy[0].count[1] == 0 &&
		      copy[5].children == 70 && copy[5].count[0] == 40 &&
		      copy[5].count != r[0].count,
	      "the copy moved with the model");
	free(copy);
	stacks_free(s);
	top_free(t);
}

/* The model's own rows carry the cause of an unresolved sample. */
static void test_causes(void)
{
	static const struct top_sample s[] = {
		{ "f", "/bin/a", "c", 1, 1, '.', 0, 4, 0, SYM_STRIPPED },
		{ NULL, "/bin/a", "c", 1, 1, '.', 0, 3, 0, SYM_STRIPPED },
		{ NULL, "/bin/b", "c", 1, 1, '.', 0, 2, 0, SYM_OK },
		{ NULL, "[unknown]", "c", 1, 1, '.', 0, 1, 0, SYM_NO_MAP },
	};
	struct top *t = feed(1, s, N(s));
	const struct top_row *r;
	struct top_row *copy;
	size_t n;

	r = top_rows(t, NULL, &n);
	CHECK(r && n == 4, "rows %s", rows_text(r, n, 0));
	/* a resolved sym is SYM_OK whatever came with it; no cause given
	   is "no symbol" */
	CHECK(r && n == 4 && r[0].cause == SYM_OK &&
		      r[1].cause == SYM_STRIPPED &&
		      r[2].cause == SYM_NO_SYMBOL &&
		      r[3].cause == SYM_NO_MAP && !r[0].has_children,
	      "causes %d %d %d %d", n > 3 ? (int)r[0].cause : -1,
	      n > 3 ? (int)r[1].cause : -1, n > 3 ? (int)r[2].cause : -1,
	      n > 3 ? (int)r[3].cause : -1);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_DSO), &n);
	CHECK(r && n == 3 && r[0].cause == SYM_OK, "no sym, no cause");
	copy = top_rows_dup(r, 0, 1);
	CHECK(copy, "an empty copy is a copy");
	free(copy);
	top_free(t);
}

/* --- size ---------------------------------------------------------------- */

/* CPU time, not wall time: the build machine is shared. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_big(void)
{
	enum { BIG = 100000 };
	static char syms[BIG][24], dsos[100][24], comms[1000][24];
	struct top *t = top_new(2);
	struct top_sample *s = calloc(BIG, sizeof(*s));
	const struct top_row *r;
	size_t n, fails = 0;
	double t0, t_new, t_hit, t_rows, t_all, t_age;
	uint64_t sum = 0;

	if (!s || !t)
		SKIP("out of memory for the fixture");
	for (int i = 0; i < BIG; i++) {
		snprintf(syms[i], sizeof(syms[i]), "func_%d", i);
		if (i < 100)
			snprintf(dsos[i], sizeof(dsos[i]), "/lib/lib%d.so", i);
		if (i < 1000)
			snprintf(comms[i], sizeof(comms[i]), "comm%d", i);
		s[i] = (struct top_sample){
			.sym = syms[i], .dso = dsos[i % 100],
			.comm = comms[i % 1000], .pid = 1000 + i % 5000,
			.tid = 1000 + i, .mode = i % 3 ? '.' : 'k',
			.event = (unsigned)i & 1, .weight = 1 + (uint64_t)(i % 97),
			.addr = 0x1000 + (uint64_t)i,
		};
	}
	/* Every sample a new entry, then every sample an existing one. */
	t0 = now();
	for (int i = 0; i < BIG; i++)
		fails += top_add(t, &s[i]) != 0;
	t_new = now() - t0;
	t0 = now();
	for (int i = 0; i < BIG; i++)
		fails += top_add(t, &s[i]) != 0;
	t_hit = now() - t0;
	CHECK(!fails && top_count(t) == BIG, "%zu failures, %zu entries", fails,
	      top_count(t));

	t0 = now();
	r = top_rows(t, NULL, &n);
	t_rows = now() - t0;
	CHECK(r && n == BIG, "sym rows: %zu", n);
	for (size_t i = 0; r && i < n; i++)
		sum += r[i].count[0];
	CHECK(sum == top_total(t, 0), "sum %llu", (unsigned long long)sum);
	for (size_t i = 1; r && i < n; i++)
		if (r[i - 1].count[0] < r[i].count[0]) {
			CHECK(0, "not in order at row %zu", i);
			break;
		}

	t0 = now();
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_ALL, .event = -1), &n);
	t_all = now() - t0;
	CHECK(r && n == BIG, "all-key rows: %zu", n);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_DSO), &n);
	CHECK(r && n == 100, "dso rows: %zu", n);
	r = top_rows(t, &TOP_VIEW(.keys = TOP_KEY_COMM, .max_rows = 10), &n);
	CHECK(r && n == 10, "comm rows: %zu", n);

	t0 = now();
	top_age(t, false);
	t_age = now() - t0;
	/* weights 2..194 (each added twice): all survive one decay */
	CHECK(top_count(t) == BIG, "aged: %zu", top_count(t));
	for (int i = 0; i < 60; i++)
		top_age(t, false);
	CHECK(top_count(t) == 0 && top_total(t, 0) == 0 && top_total(t, 1) == 0,
	      "all decayed: %zu", top_count(t));
	top_free(t);
	free(s);

	printf("100k entries, CPU time: top_add %.0f ns/sample new, %.0f ns/sample "
	       "existing; top_rows %.1f ms by sym, %.1f ms all keys; top_age "
	       "%.1f ms\n",
	       t_new / BIG * 1e9, t_hit / BIG * 1e9, t_rows * 1e3, t_all * 1e3,
	       t_age * 1e3);
}

int main(void)
{
	test_errors();
	test_decay();
	test_zero_and_totals();
	test_grouping();
	test_orders();
	test_view_filters();
	test_perf_filters();
	test_events();
	test_baseline();
	test_addrs();
	test_strings();
	test_chains();
	test_causes();
	test_big();
	return check_done();
}
