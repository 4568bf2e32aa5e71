/*
 * test-rates: the per-function rates model (lib/profile/rates.[ch]) on
 * samples with known answers -- rates, intervals worked by hand, "-"
 * below the minimum, the metric grammar -- and a seeded simulation of
 * the estimator: samples drawn from a known rate with Poisson noise, 100
 * runs each of a long and a short profile, whose 95% intervals must
 * cover the truth in at least 90 runs.  Pure: runs on any machine.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile/rates.h"
#include "../check.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *est_text(const struct rates *r, const char *sym,
			    unsigned num, unsigned den, double scale,
			    char *buf, size_t size)
{
	struct rates_metric m = { num, den, scale, "" };
	struct rates_est e;

	if (rates_get(r, sym, "w", &m, &e) != 0) {
		snprintf(buf, size, "%s", strerror(errno));
		return buf;
	}
	return rates_est_str(&e, buf, size);
}

/*
 * toucher: 10 samples of 1 ms, 20 faults (2 per ms), x - R y =
 * 0,0,1,-1,0,0,0,1,-1,0: s^2 = 4/9, se = sqrt(4/90) = 0.2108 faults per
 * ms, half = t(0.975, 9) 2.262 x 0.2108 = 0.477.  spinner: 12 samples,
 * none.  rare: 5 samples, too few.
 */
static void by_hand(void)
{
	static const uint64_t faults[] = { 2, 2, 3, 1, 2, 2, 2, 3, 1, 2 };
	struct rates *r = rates_new(1);
	uint64_t zero = 0;
	char buf[64];

	CHECK(r, "rates_new(1): %s", strerror(errno));
	if (!r)
		return;
	for (size_t i = 0; i < N(faults); i++)
		rates_add(r, &(struct rates_sample){ "toucher", "w", 1000000,
						     &faults[i] });
	for (int i = 0; i < 12; i++)
		rates_add(r, &(struct rates_sample){ "spinner", "w", 1000000,
						     &zero });
	for (int i = 0; i < 5; i++)
		rates_add(r, &(struct rates_sample){ "rare", "w", 1000000,
						     &faults[0] });
	rates_add(r, &(struct rates_sample){ NULL, NULL, 1000000, &zero });

	est_text(r, "toucher", RATES_MEMBER, RATES_PERIOD, 1e6, buf,
		 sizeof(buf));
	CHECK(!strcmp(buf, "2.00 \u00b10.48"), "toucher per ms: %s", buf);
	est_text(r, "toucher", RATES_MEMBER, RATES_ONE, 1, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2.00 \u00b10.48"), "toucher per sample: %s", buf);
	est_text(r, "spinner", RATES_MEMBER, RATES_PERIOD, 1e6, buf,
		 sizeof(buf));
	CHECK(!strcmp(buf, "0.000 \u00b10.000"), "spinner: %s", buf);
	est_text(r, "rare", RATES_MEMBER, RATES_PERIOD, 1e6, buf, sizeof(buf));
	CHECK(!strcmp(buf, "-"), "5 samples: %s", buf);
	est_text(r, "nowhere", RATES_MEMBER, RATES_PERIOD, 1e6, buf,
		 sizeof(buf));
	CHECK(!strcmp(buf, strerror(ENOENT)), "no samples: %s", buf);
	est_text(r, "toucher", RATES_MEMBER + 1, RATES_PERIOD, 1, buf,
		 sizeof(buf));
	CHECK(!strcmp(buf, strerror(EINVAL)), "no member 1: %s", buf);
	CHECK(rates_sum(r, "[unknown]", NULL, RATES_PERIOD) == 1e6,
	      "a NULL sym is [unknown]");
	/* every sample: 20 + 10 faults over 28 ms */
	CHECK(fabs(rates_sum(r, NULL, NULL, RATES_MEMBER) - 30) < 1e-9 &&
	      fabs(rates_sum(r, NULL, NULL, RATES_ONE) - 28) < 1e-9,
	      "totals %g %g", rates_sum(r, NULL, NULL, RATES_MEMBER),
	      rates_sum(r, NULL, NULL, RATES_ONE));
	rates_free(r);
	CHECK(!rates_new(RATES_MAX_MEMBERS + 1) && errno == EINVAL,
	      "too many members");
}

/*
 * A function is a (name, DSO) pair, as the tables' rows: two mains, of
 * two programs sampled system-wide, have rates of their own, and the
 * same name in an unknown DSO is a third.
 */
static void by_dso(void)
{
	struct rates_metric m = { RATES_MEMBER, RATES_PERIOD, 1e6, "" };
	struct rates *r = rates_new(1);
	uint64_t one = 1, three = 3;
	struct rates_est a, b, u;

	CHECK(r, "rates_new(1): %s", strerror(errno));
	if (!r)
		return;
	for (int i = 0; i < 20; i++) {
		rates_add(r, &(struct rates_sample){ "main", "/bin/a", 1000000,
						     &one });
		rates_add(r, &(struct rates_sample){ "main", "/bin/b", 1000000,
						     &three });
	}
	for (int i = 0; i < 10; i++)
		rates_add(r, &(struct rates_sample){ "main", NULL, 1000000,
						     &three });
	CHECK(rates_get(r, "main", "/bin/a", &m, &a) == 0 && a.n == 20 &&
	      a.rate == 1, "main of /bin/a: %g over %llu", a.rate,
	      (unsigned long long)a.n);
	CHECK(rates_get(r, "main", "/bin/b", &m, &b) == 0 && b.n == 20 &&
	      b.rate == 3, "main of /bin/b: %g over %llu", b.rate,
	      (unsigned long long)b.n);
	CHECK(rates_get(r, "main", "[unknown]", &m, &u) == 0 && u.n == 10,
	      "main of a NULL DSO is [unknown]'s: %llu",
	      (unsigned long long)u.n);
	CHECK(rates_get(r, "main", "/bin/c", &m, &u) != 0 && errno == ENOENT,
	      "main of /bin/c: none");
	CHECK(fabs(rates_sum(r, NULL, NULL, RATES_MEMBER) - 110) < 1e-9,
	      "every sample: %g", rates_sum(r, NULL, NULL, RATES_MEMBER));
	rates_free(r);
}

/*
 * A ratio of two members whose denominators vary: the model's rate and
 * half width against the textbook two-pass formula on the same data.
 */
static void ratio_two_pass(void)
{
	static const uint64_t v[][2] = {	/* instructions, cycles */
		{ 1200, 1000 }, { 900, 800 }, { 3000, 2500 }, { 400, 420 },
		{ 1500, 1100 }, { 2000, 2100 }, { 800, 700 }, { 1000, 990 },
		{ 5000, 4000 }, { 600, 650 }, { 1700, 1500 }, { 2500, 2000 },
	};
	struct rates_metric ipc = { RATES_MEMBER, RATES_MEMBER + 1, 1, "" };
	double sx = 0, sy = 0, q = 0, R, half;
	struct rates *r = rates_new(2);
	struct rates_est e;
	size_t n = N(v);

	for (size_t i = 0; r && i < n; i++) {
		rates_add(r, &(struct rates_sample){ "f", "w", 100, v[i] });
		sx += (double)v[i][0];
		sy += (double)v[i][1];
	}
	R = sx / sy;
	for (size_t i = 0; i < n; i++)
		q += pow((double)v[i][0] - R * (double)v[i][1], 2);
	half = 2.201 * sqrt(q / (double)(n - 1) / (double)n) / (sy / (double)n);
	CHECK(r && rates_get(r, "f", "w", &ipc, &e) == 0 && e.valid &&
	      fabs(e.rate - R) < 1e-12 && fabs(e.half - half) < 1e-9,
	      "ratio %.6f +- %.6f, two-pass %.6f +- %.6f", e.rate, e.half, R,
	      half);
	rates_free(r);
}

static void quantiles(void)
{
	CHECK(rates_t975(9) == 2.262 && rates_t975(30) == 2.042 &&
	      fabs(rates_t975(31) - 2.040) < 0.001 &&
	      fabs(rates_t975(100) - 1.984) < 0.001 &&
	      fabs(rates_t975(1000) - 1.962) < 0.001,
	      "t(0.975): %.4f %.4f %.4f", rates_t975(31), rates_t975(100),
	      rates_t975(1000));
}

/* The metric grammar: what each string divides, or refused. */
static void grammar(void)
{
	static const char *const names[] = { "cpu-clock", "page-faults",
					     "cycles", "instructions" };
	static const char *const alias[] = { NULL, "faults", "cpu-cycles",
					     NULL };
	static const struct {
		const char *str;
		bool ns;
		int num, den;		/* -1: refused */
		double scale;
	} rows[] = {
		{ "page-faults", true, RATES_MEMBER, RATES_ONE, 1 },
		{ "page-faults/ms", true, RATES_MEMBER, RATES_PERIOD, 1e6 },
		{ "faults/s", true, RATES_MEMBER, RATES_PERIOD, 1e9 },
		{ "page-faults/us", true, RATES_MEMBER, RATES_PERIOD, 1e3 },
		{ "page-faults/ms", false, -1, -1, 0 },
		{ "ipc", true, RATES_MEMBER + 2, RATES_MEMBER + 1, 1 },
		{ "cpi", true, RATES_MEMBER + 1, RATES_MEMBER + 2, 1 },
		{ "page-faults/kinstructions", true, RATES_MEMBER,
		  RATES_MEMBER + 2, 1000 },
		{ "instructions/cpu-cycles", true, RATES_MEMBER + 2,
		  RATES_MEMBER + 1, 1 },
		{ "cpu-clock/page-faults", true, RATES_PERIOD, RATES_MEMBER,
		  1 },
		{ "misses", true, -1, -1, 0 },
		{ "page-faults/hours", true, -1, -1, 0 },
		{ "page-faults/", true, -1, -1, 0 },
	};
	char err[256];

	for (size_t i = 0; i < N(rows); i++) {
		struct rates_metric m;
		int rc = rates_metric_parse(rows[i].str, names, alias, 4,
					    rows[i].ns, &m, err, sizeof(err));

		if (rows[i].num < 0)
			CHECK(rc == -1 && errno == EINVAL && err[0],
			      "'%s' taken", rows[i].str);
		else
			CHECK(rc == 0 && m.num == (unsigned)rows[i].num &&
			      m.den == (unsigned)rows[i].den &&
			      m.scale == rows[i].scale &&
			      !strcmp(m.name, rows[i].str),
			      "'%s': %u/%u x%g", rows[i].str, m.num, m.den,
			      m.scale);
	}
	/* -e '{cycles:u,instructions:u}:S': named with or without :u */
	{
		const char *const mod[] = { "cycles:u", "instructions:u",
					    "sched:sched_switch" };
		struct rates_metric m;

		CHECK(rates_metric_parse("ipc", mod, NULL, 2, false, &m, err,
					 sizeof(err)) == 0 &&
		      m.num == RATES_MEMBER && m.den == RATES_PERIOD,
		      "ipc of cycles:u, instructions:u: %s", err);
		CHECK(rates_metric_parse("instructions", mod, NULL, 2, false,
					 &m, err, sizeof(err)) == 0 &&
		      m.num == RATES_MEMBER,
		      "instructions for instructions:u: %s", err);
		CHECK(rates_metric_parse("sched", mod, NULL, 3, false, &m,
					 err, sizeof(err)) == -1,
		      "sched taken for sched:sched_switch");
	}
	CHECK(rates_metric_parse("ipc", names, NULL, 2, true,
				 &(struct rates_metric){ 0 }, err,
				 sizeof(err)) == -1 && strstr(err, "cycles"),
	      "ipc without cycles: %s", err);
}

/* xorshift64*: the same draws on every machine */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static uint64_t poisson(double mean)
{
	double l = exp(-mean), p = 1;
	uint64_t k = 0;

	do {
		k++;
		p *= uniform();
	} while (p > l);
	return k - 1;
}

/*
 * 100 profiles of n samples: a period of 1 ms +-30% (as -F varies it), a
 * true rate of 3 faults per ms, Poisson counts; how many intervals
 * cover 3.
 */
static unsigned coverage(size_t n, double truth)
{
	struct rates_metric per_ms = { RATES_MEMBER, RATES_PERIOD, 1e6, "" };
	unsigned covered = 0;

	for (int run = 0; run < 100; run++) {
		struct rates *r = rates_new(1);
		struct rates_est e = { 0 };

		for (size_t i = 0; r && i < n; i++) {
			uint64_t period = (uint64_t)(1e6 * (0.7 + 0.6 *
							    uniform()));
			uint64_t x = poisson(truth * (double)period / 1e6);

			rates_add(r, &(struct rates_sample){ "f", "w", period, &x });
		}
		if (r && rates_get(r, "f", "w", &per_ms, &e) == 0 && e.valid &&
		    fabs(e.rate - truth) <= e.half)
			covered++;
		rates_free(r);
	}
	return covered;
}

static void simulation(void)
{
	unsigned long_run = coverage(500, 3.0), short_run = coverage(12, 3.0);

	printf("coverage of 3 faults/ms: %u of 100 (500 samples), "
	       "%u of 100 (12 samples)\n", long_run, short_run);
	CHECK(long_run >= 90 && short_run >= 90,
	      "95%% intervals cover the truth in %u and %u of 100 runs",
	      long_run, short_run);
}

/*
 * The "same function" key: two samples' (sym, start, dso, cause) and
 * whether they are in one function.  Code without a symbol is its row:
 * two addresses of one dso's "[unknown]" for one cause are one function
 * (before: one function per address, so that only the rare interval
 * between two samples at the same IP counted, and `sort` showed 29.4
 * faults/ms where perf's samples give 10.4); another dso or cause is
 * another row.
 */
static void fn_keys(void)
{
	static const struct {
		const char *sym;
		uint64_t start;
		const char *dso;
		unsigned cause;
	} a[][2] = {
		{ { NULL, 0x1234, "/bin/sort", 3 }, { NULL, 0x5678, "/bin/sort", 3 } },
		{ { NULL, 0x1234, NULL, 1 }, { NULL, 0x9999, NULL, 1 } },
		{ { "f", 0x1000, "/bin/sort", 0 }, { "f", 0x1000, "/bin/sort", 0 } },
		{ { NULL, 0x1234, "/bin/sort", 3 }, { NULL, 0x1234, "/bin/cat", 3 } },
		{ { NULL, 0x1234, "/bin/sort", 3 }, { NULL, 0x1234, "/bin/sort", 4 } },
		{ { "f", 0x1000, "/bin/sort", 0 }, { "g", 0x2000, "/bin/sort", 0 } },
		{ { "f", 0x1000, "/bin/sort", 0 }, { NULL, 0x1000, "/bin/sort", 3 } },
	};
	static const bool same[] = { true, true, true, false, false, false,
				     false };

	for (size_t i = 0; i < N(a); i++) {
		uint64_t k0 = rates_fn_key(a[i][0].sym, a[i][0].start,
					   a[i][0].dso, a[i][0].cause);
		uint64_t k1 = rates_fn_key(a[i][1].sym, a[i][1].start,
					   a[i][1].dso, a[i][1].cause);

		CHECK((k0 == k1) == same[i], "fn key %zu: %s, want %s", i,
		      k0 == k1 ? "same" : "another", same[i] ? "same" :
		      "another");
	}
}

int main(void)
{
	fn_keys();
	by_hand();
	by_dso();
	ratio_two_pass();
	quantiles();
	grammar();
	simulation();
	return check_done();
}
