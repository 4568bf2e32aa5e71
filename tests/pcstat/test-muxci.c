/*
 * test-muxci: pcstat's interval of a multiplexed count, on seeded
 * simulated ticks whose truth is known (software events never multiplex
 * on this machine; the arm64 guest checks real counters: tools.sh).
 *
 * A program runs in 1 ms slots whose rate of instructions and of cycles
 * changes in phases of random length; each 10-slot tick, a counter runs
 * in a random subset of the slots (the kernel's rotation, unrelated to
 * the phases).  The 95% interval must cover the true total (every slot
 * counted) in at least 90 of 100 runs, for a count and for the ratio of
 * two (IPC); its width must shrink as the run gets more ticks; a counter
 * that ran every slot has a width of 0 and the exact total.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "muxci.h"
#include "../check.h"

#define SLOTS 10		/* slots of a tick */
#define SLOT_NS 1e6

static uint64_t rng;
static int phase_max = 30;	/* slots: phases of 1 to 30 ms */

static uint64_t next(void)	/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return (double)(next() >> 11) / 9007199254740992.0;
}

/* The program: a phase's rates hold for a random number of slots. */
struct prog {
	int left;
	double ipc, cps;	/* insn per cycle, cycles per ns */
};

static void slot(struct prog *p, double *insn, double *cyc)
{
	if (p->left-- <= 0) {
		p->left = (int)(uniform() * phase_max);
		p->ipc = 0.3 + 2.5 * uniform();
		p->cps = 1.0 + 2.0 * uniform();
	}
	*cyc = p->cps * SLOT_NS * (0.9 + 0.2 * uniform());
	*insn = *cyc * p->ipc;
}

/* The subset of a tick's slots a counter runs in: m of SLOTS at random. */
static void pick(bool *on, int m)
{
	int idx[SLOTS];

	for (int i = 0; i < SLOTS; i++) {
		idx[i] = i;
		on[i] = false;
	}
	for (int i = 0; i < m; i++) {
		int j = i + (int)(next() % (uint64_t)(SLOTS - i)), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
		on[idx[i]] = true;
	}
}

struct outcome {
	double insn, cyc;		/* the truth */
	double est_insn, est_cyc;
	double rel_insn, rel_ipc;	/* relative variances */
	bool have;
};

/*
 * n ticks; instructions run in m_i slots of each tick and cycles in m_c
 * (a slot subset of its own unless same_group: then instructions').
 */
static struct outcome simulate(unsigned n, int m_i, int m_c, bool same_group)
{
	struct prog p = { 0 };
	struct muxci m;
	struct outcome o = { 0 };

	muxci_init(&m, 2);
	for (unsigned t = 0; t < n; t++) {
		double c[2] = { 0, 0 }, r[2] = { 0, 0 };
		double e[2] = { SLOTS * SLOT_NS, SLOTS * SLOT_NS };
		bool on_i[SLOTS], on_c[SLOTS];

		pick(on_i, m_i);
		if (same_group)
			memcpy(on_c, on_i, sizeof(on_c));
		else
			pick(on_c, m_c);
		for (int s = 0; s < SLOTS; s++) {
			double insn, cyc;

			slot(&p, &insn, &cyc);
			o.insn += insn;
			o.cyc += cyc;
			if (on_i[s]) {
				c[0] += insn;
				r[0] += SLOT_NS;
			}
			if (on_c[s]) {
				c[1] += cyc;
				r[1] += SLOT_NS;
			}
		}
		muxci_add(&m, c, r, e);
	}
	o.have = muxci_total(&m, 0, &o.est_insn, &o.rel_insn) &&
		 muxci_total(&m, 1, &o.est_cyc, &(double){ 0 }) &&
		 muxci_ratio(&m, 0, 1, &o.rel_ipc);
	muxci_release(&m);
	return o;
}

static bool covers(double est, double rel_var, double truth)
{
	return fabs(est - truth) <= MUXCI_Z95 * sqrt(rel_var) * est;
}

/* 100 seeded runs: how many intervals cover the truth; the mean width. */
static void coverage(const char *what, unsigned n, int m_i, int m_c,
		     bool same_group, double *width, unsigned at_most)
{
	unsigned cov_insn = 0, cov_ipc = 0, runs = 100;
	double w = 0;

	for (unsigned k = 0; k < runs; k++) {
		struct outcome o;

		rng = 1000 * n + k;
		o = simulate(n, m_i, m_c, same_group);
		CHECK(o.have, "%s: run %u has an estimate", what, k);
		cov_insn += covers(o.est_insn, o.rel_insn, o.insn);
		cov_ipc += covers(o.est_insn / o.est_cyc, o.rel_ipc,
				  o.insn / o.cyc);
		w += MUXCI_Z95 * sqrt(o.rel_insn) / runs;
	}
	printf("%s, %u ticks: instructions covered %u/%u, IPC %u/%u, "
	       "mean half-width %.3f%%\n", what, n, cov_insn, runs, cov_ipc,
	       runs, 100 * w);
	CHECK(cov_insn >= 90, "%s: instructions covered in %u of 100", what,
	      cov_insn);
	CHECK(cov_ipc >= 90, "%s: IPC covered in %u of 100", what, cov_ipc);
	CHECK(cov_insn <= at_most, "%s: instructions covered in %u of 100: "
	      "the interval is too wide", what, cov_insn);
	*width = w;
}

/* A counter that ran all the time: the exact total and no width. */
static void full_run(void)
{
	struct outcome o;

	rng = 7;
	o = simulate(50, SLOTS, SLOTS, false);
	CHECK(o.have && o.rel_insn == 0 && o.rel_ipc == 0,
	      "f = 1: relative variances %g %g, want 0", o.rel_insn, o.rel_ipc);
	CHECK(fabs(o.est_insn - o.insn) <= 1e-9 * o.insn,
	      "f = 1: %f, exact %f", o.est_insn, o.insn);
}

/* The estimate is perf's scaling of the sums: count * enabled / running. */
static void perf_scaling(void)
{
	struct muxci m;
	double c1[1] = { 1000 }, r1[1] = { 400 }, e1[1] = { 1000 };
	double c2[1] = { 3000 }, r2[1] = { 600 }, e2[1] = { 1000 };
	double est = 0, rv = -1;

	muxci_init(&m, 1);
	CHECK(!muxci_total(&m, 0, &est, &rv), "no ticks: no estimate");
	muxci_add(&m, c1, r1, e1);
	CHECK(!muxci_total(&m, 0, &est, &rv), "one tick: no variance");
	muxci_add(&m, c2, r2, e2);
	CHECK(muxci_total(&m, 0, &est, &rv) && est == 4000.0 * 2000 / 1000,
	      "two ticks: %f, want 8000", est);
	CHECK(muxci_fraction(&m, 0) == 0.5, "f %f", muxci_fraction(&m, 0));
	/* s^2 = (1000 - 4*400)^2 + (3000 - 4*600)^2 = 2 * 600^2, n = 2,
	   cbar = 2000: (1 - 0.5) * 720000 / (2 * 2000^2) */
	CHECK(fabs(rv - 0.5 * 720000.0 / (2 * 4e6)) < 1e-12,
	      "relative variance %g", rv);
	muxci_reset(&m);
	CHECK(!muxci_total(&m, 0, &est, &rv) && m.n == 0, "reset");
	muxci_release(&m);
}

int main(void)
{
	double w_short, w_long, w;

	perf_scaling();
	full_run();
	/* Phases longer than a tick: the ticks' own spread widens the
	   interval (it cannot tell phases from sampling): it covers. */
	coverage("half the slots, separate groups", 50, 5, 5, false, &w_short,
		 100);
	coverage("half the slots, separate groups", 400, 5, 5, false, &w_long,
		 100);
	CHECK(w_long < 0.5 * w_short, "8x the ticks: half-width %.4f%% "
	      "not below half of %.4f%%", 100 * w_long, 100 * w_short);
	coverage("one group, 6 of 10 slots", 100, 6, 6, true, &w, 100);
	coverage("instructions 3, cycles 8 of 10 slots", 100, 3, 8, false, &w,
		 100);
	/* A rate of its own in every slot: the variance is exact, so a 95%
	   interval misses some runs (seeded: the same ones every time). */
	phase_max = 0;
	coverage("no phases, half the slots", 100, 5, 5, false, &w, 99);
	coverage("no phases, 2 of 10 slots", 400, 2, 2, false, &w, 99);
	return check_done();
}
