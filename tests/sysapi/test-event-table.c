/*
 * test-event-table: every event name, alias and modifier to the attr perf
 * would build; bad strings rejected at the right offset.  Pure: no system
 * call, so it passes on any machine, PMU or not.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sysapi/sysapi.h>
#include "../check.h"

#define H PERF_TYPE_HARDWARE
#define S PERF_TYPE_SOFTWARE
#define C PERF_TYPE_HW_CACHE
#define R PERF_TYPE_RAW
#define CACHE(c, op, res) (PERF_COUNT_HW_CACHE_##c | \
	(PERF_COUNT_HW_CACHE_OP_##op << 8) | (PERF_COUNT_HW_CACHE_RESULT_##res << 16))

static const struct {
	const char *in;
	uint32_t type;
	uint64_t config;
	int xu, xk, xh, precise;
	const char *canon;	/* pc_event_name() of the result */
} good[] = {
	{ "cycles", H, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0, 0, "cycles" },
	{ "cpu-cycles", H, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0, 0, "cycles" },
	{ "instructions", H, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 0, 0, "instructions" },
	{ "cache-references", H, PERF_COUNT_HW_CACHE_REFERENCES, 0, 0, 0, 0, "cache-references" },
	{ "cache-misses", H, PERF_COUNT_HW_CACHE_MISSES, 0, 0, 0, 0, "cache-misses" },
	{ "branches", H, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0, 0, 0, "branches" },
	{ "branch-instructions", H, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0, 0, 0, "branches" },
	{ "branch-misses", H, PERF_COUNT_HW_BRANCH_MISSES, 0, 0, 0, 0, "branch-misses" },
	{ "bus-cycles", H, PERF_COUNT_HW_BUS_CYCLES, 0, 0, 0, 0, "bus-cycles" },
	{ "ref-cycles", H, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 0, 0, 0, "ref-cycles" },
	{ "stalled-cycles-frontend", H, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0, 0, 0, 0, "stalled-cycles-frontend" },
	{ "idle-cycles-frontend", H, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0, 0, 0, 0, "stalled-cycles-frontend" },
	{ "stalled-cycles-backend", H, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0, 0, 0, 0, "stalled-cycles-backend" },
	{ "idle-cycles-backend", H, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0, 0, 0, 0, "stalled-cycles-backend" },
	{ "cpu-clock", S, PERF_COUNT_SW_CPU_CLOCK, 0, 0, 0, 0, "cpu-clock" },
	{ "task-clock", S, PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0, 0, "task-clock" },
	{ "page-faults", S, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, 0, 0, "page-faults" },
	{ "faults", S, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, 0, 0, "page-faults" },
	{ "minor-faults", S, PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, 0, 0, 0, "minor-faults" },
	{ "major-faults", S, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, 0, 0, 0, "major-faults" },
	{ "context-switches", S, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, 0, 0, "context-switches" },
	{ "cs", S, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, 0, 0, "context-switches" },
	{ "cpu-migrations", S, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0, 0, 0, "cpu-migrations" },
	{ "migrations", S, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0, 0, 0, "cpu-migrations" },
	{ "alignment-faults", S, PERF_COUNT_SW_ALIGNMENT_FAULTS, 0, 0, 0, 0, "alignment-faults" },
	{ "emulation-faults", S, PERF_COUNT_SW_EMULATION_FAULTS, 0, 0, 0, 0, "emulation-faults" },
	{ "L1-dcache-loads", C, CACHE(L1D, READ, ACCESS), 0, 0, 0, 0, "L1-dcache-loads" },
	{ "L1-dcache-load-misses", C, CACHE(L1D, READ, MISS), 0, 0, 0, 0, "L1-dcache-load-misses" },
	{ "L1-dcache-stores", C, CACHE(L1D, WRITE, ACCESS), 0, 0, 0, 0, "L1-dcache-stores" },
	{ "L1-dcache-prefetch-misses", C, CACHE(L1D, PREFETCH, MISS), 0, 0, 0, 0, "L1-dcache-prefetch-misses" },
	{ "L1-icache-load-misses", C, CACHE(L1I, READ, MISS), 0, 0, 0, 0, "L1-icache-load-misses" },
	{ "LLC-loads", C, CACHE(LL, READ, ACCESS), 0, 0, 0, 0, "LLC-loads" },
	{ "LLC-load-misses", C, CACHE(LL, READ, MISS), 0, 0, 0, 0, "LLC-load-misses" },
	{ "llc-load-misses", C, CACHE(LL, READ, MISS), 0, 0, 0, 0, "LLC-load-misses" },
	{ "LLC-store-misses", C, CACHE(LL, WRITE, MISS), 0, 0, 0, 0, "LLC-store-misses" },
	{ "dTLB-load-misses", C, CACHE(DTLB, READ, MISS), 0, 0, 0, 0, "dTLB-load-misses" },
	{ "dTLB-stores", C, CACHE(DTLB, WRITE, ACCESS), 0, 0, 0, 0, "dTLB-stores" },
	{ "iTLB-load-misses", C, CACHE(ITLB, READ, MISS), 0, 0, 0, 0, "iTLB-load-misses" },
	{ "branch-loads", C, CACHE(BPU, READ, ACCESS), 0, 0, 0, 0, "branch-loads" },
	{ "branch-load-misses", C, CACHE(BPU, READ, MISS), 0, 0, 0, 0, "branch-load-misses" },
	{ "node-loads", C, CACHE(NODE, READ, ACCESS), 0, 0, 0, 0, "node-loads" },
	{ "node-store-misses", C, CACHE(NODE, WRITE, MISS), 0, 0, 0, 0, "node-store-misses" },
	{ "r1c2", R, 0x1c2, 0, 0, 0, 0, "r1c2" },
	{ "rC0", R, 0xc0, 0, 0, 0, 0, "rc0" },
	{ "r0", R, 0, 0, 0, 0, 0, "r0" },
	{ "rffffffffffffffff", R, ~0ull, 0, 0, 0, 0, "rffffffffffffffff" },
	{ "cycles:u", H, PERF_COUNT_HW_CPU_CYCLES, 0, 1, 1, 0, "cycles:u" },
	{ "cycles:k", H, PERF_COUNT_HW_CPU_CYCLES, 1, 0, 1, 0, "cycles:k" },
	{ "cycles:h", H, PERF_COUNT_HW_CPU_CYCLES, 1, 1, 0, 0, "cycles:h" },
	{ "cycles:uk", H, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 1, 0, "cycles:uk" },
	{ "cycles:ku", H, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 1, 0, "cycles:uk" },
	{ "cycles:ukh", H, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0, 0, "cycles" },
	{ "cycles:p", H, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0, 1, "cycles:p" },
	{ "cycles:upp", H, PERF_COUNT_HW_CPU_CYCLES, 0, 1, 1, 2, "cycles:upp" },
	{ "instructions:ppp", H, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 0, 3, "instructions:ppp" },
	{ "task-clock:u", S, PERF_COUNT_SW_TASK_CLOCK, 0, 1, 1, 0, "task-clock:u" },
	{ "faults:k", S, PERF_COUNT_SW_PAGE_FAULTS, 1, 0, 1, 0, "page-faults:k" },
	{ "r1c2:u", R, 0x1c2, 0, 1, 1, 0, "r1c2:u" },
	{ "LLC-load-misses:u", C, CACHE(LL, READ, MISS), 0, 1, 1, 0, "LLC-load-misses:u" },
};

static const struct {
	const char *in;
	size_t errpos;
} bad[] = {
	{ "", 0 },
	{ "cylces", 0 },
	{ "cycles:", 7 },
	{ "cycles:x", 7 },
	{ "cycles:uz", 8 },
	{ "cycles:pppp", 10 },
	{ "r", 0 },
	{ "rxyz", 0 },
	{ "r12345678901234567", 0 },
	{ ":u", 0 },
	{ "L1-icache-stores", 0 },	/* perf offers no such combination */
	{ "iTLB-stores", 0 },
	{ "page faults", 0 },
};

static const struct {
	const char *in;
	int ok;
	size_t nr, errpos;
	int ngroups;
	const char *names;	/* names joined by spaces, group marks: [ */
} lists[] = {
	{ "cycles,instructions", 1, 2, 0, 0, "cycles instructions" },
	{ "{cycles,instructions}", 1, 2, 0, 1, "[cycles instructions" },
	{ "task-clock,{cs,faults},cpu-migrations", 1, 4, 0, 1, "task-clock [cs faults cpu-migrations" },
	/* perf stat names members without the group's modifiers */
	{ "{cycles,instructions}:u", 1, 2, 0, 1, "[cycles instructions" },
	{ "{cs,faults:u}:k", 1, 2, 0, 1, "[cs faults:u" },
	/* every modifier once, p three times: perf's longest */
	{ "L1-dcache-prefetch-misses:ukhGHIDeSPWppp", 1, 1, 0, 0,
	  "L1-dcache-prefetch-misses:ukhGHIDeSPWppp" },
	/* a modifier other than p twice: perf's "Bad modifier", at the
	   second */
	{ "cycles:uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu",
	  0, 0, 8, 0, NULL },
	{ "faults:ukGu", 0, 0, 10, 0, NULL },
	{ "{cs,faults}:kk", 0, 0, 13, 0, NULL },
	{ "{cs},{faults}", 1, 2, 0, 2, "[cs [faults" },
	{ "cycles,", 0, 0, 7, 0, NULL },
	{ ",cycles", 0, 0, 0, 0, NULL },
	{ "{cycles,instructions", 0, 0, 20, 0, NULL },
	{ "cycles}", 0, 0, 6, 0, NULL },
	{ "{cycles,{instructions}}", 0, 0, 8, 0, NULL },
	{ "cycles,bogus", 0, 0, 7, 0, NULL },
	{ "cycles,instructions:q", 0, 0, 20, 0, NULL },
	{ "{cs,faults}x", 0, 0, 11, 0, NULL },
	{ "{cs,faults}:z", 0, 0, 12, 0, NULL },
};

static void test_good(void)
{
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct perf_event_attr a;
		size_t pos = 999;
		char name[64];
		int r = pc_event_parse(good[i].in, &a, &pos);

		CHECK(r == 0, "'%s' rejected at %zu", good[i].in, pos);
		if (r)
			continue;
		CHECK(a.size == sizeof(a), "%s: size", good[i].in);
		CHECK(a.type == good[i].type, "%s: type %u", good[i].in, a.type);
		CHECK(a.config == good[i].config, "%s: config %llx", good[i].in,
		      (unsigned long long)a.config);
		CHECK(a.exclude_user == (unsigned)good[i].xu &&
		      a.exclude_kernel == (unsigned)good[i].xk &&
		      a.exclude_hv == (unsigned)good[i].xh,
		      "%s: exclude u%d k%d h%d", good[i].in, a.exclude_user,
		      a.exclude_kernel, a.exclude_hv);
		CHECK(a.precise_ip == (unsigned)good[i].precise, "%s: precise %d",
		      good[i].in, a.precise_ip);
		CHECK(!a.disabled && !a.inherit && !a.sample_period && !a.read_format,
		      "%s: parse set more than the event", good[i].in);
		pc_event_name(&a, name, sizeof(name));
		CHECK(!strcmp(name, good[i].canon), "%s: name '%s' want '%s'",
		      good[i].in, name, good[i].canon);
	}
}

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perf_event_attr a;
		size_t pos = 999;

		errno = 0;
		CHECK(pc_event_parse(bad[i].in, &a, &pos) == -1 && errno == EINVAL,
		      "'%s' accepted", bad[i].in);
		CHECK(pos == bad[i].errpos, "'%s': error at %zu, want %zu",
		      bad[i].in, pos, bad[i].errpos);
	}
}

static void test_lists(void)
{
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct pc_event_list l = { 0 };
		size_t pos = 999;
		char joined[256] = "";
		int r;

		/* a first list must survive a failing second parse intact */
		CHECK(pc_event_list_parse(&l, "page-faults", NULL) == 0, "seed");
		r = pc_event_list_parse(&l, lists[i].in, &pos);
		if (!lists[i].ok) {
			CHECK(r == -1 && errno == EINVAL, "'%s' accepted", lists[i].in);
			CHECK(pos == lists[i].errpos, "'%s': error at %zu want %zu",
			      lists[i].in, pos, lists[i].errpos);
			CHECK(l.nr == 1 && l.ngroups == 0, "'%s': list changed", lists[i].in);
			pc_event_list_release(&l);
			/* a fresh list that fails holds no storage either */
			r = pc_event_list_parse(&l, lists[i].in, &pos);
			CHECK(r == -1 && l.ev == NULL && l.alloc == 0 && l.nr == 0,
			      "'%s': failed first parse left storage", lists[i].in);
			continue;
		}
		CHECK(r == 0, "'%s' rejected at %zu", lists[i].in, pos);
		CHECK(l.nr == lists[i].nr + 1, "'%s': %zu events", lists[i].in, l.nr);
		CHECK(l.ngroups == lists[i].ngroups, "'%s': %d groups", lists[i].in,
		      l.ngroups);
		for (size_t j = 1; j < l.nr; j++) {
			if (l.ev[j].leader)
				strcat(joined, "[");
			strcat(joined, l.ev[j].name);
			if (j + 1 < l.nr)
				strcat(joined, " ");
			CHECK(l.ev[j].leader == (l.ev[j].group >= 0 &&
			      (j == 1 || l.ev[j - 1].group != l.ev[j].group)),
			      "'%s': leader flag of %zu", lists[i].in, j);
		}
		CHECK(!strcmp(joined, lists[i].names), "'%s': got '%s'",
		      lists[i].in, joined);
		pc_event_list_release(&l);
	}
}

/* Group modifiers as perf's get_event_modifier() applies them. */
static void test_group_modifiers(void)
{
	static const struct {
		const char *in;
		int xu[2], xk[2], xh[2];
		bool sample_read;	/* perf's S: the leader reads them */
	} t[] = {
		{ "{cs,faults}:u", { 0, 0 }, { 1, 1 }, { 1, 1 }, false },
		/* a member's own :u is widened, not replaced, by :k */
		{ "{cs,faults:u}:k", { 1, 0 }, { 0, 0 }, { 1, 1 }, false },
		{ "{cs:k,faults:h}:u", { 0, 0 }, { 0, 1 }, { 1, 0 }, false },
		{ "{cs,faults}", { 0, 0 }, { 0, 0 }, { 0, 0 }, false },
		{ "{cs,faults}:S", { 0, 0 }, { 0, 0 }, { 0, 0 }, true },
		{ "{cs,faults}:uS", { 0, 0 }, { 1, 1 }, { 1, 1 }, true },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pc_event_list l = { 0 };

		CHECK(pc_event_list_parse(&l, t[i].in, NULL) == 0 && l.nr == 2,
		      "'%s' rejected", t[i].in);
		for (size_t j = 0; j < l.nr && j < 2; j++) {
			const struct perf_event_attr *a = &l.ev[j].attr;

			CHECK(a->exclude_user == (unsigned)t[i].xu[j] &&
			      a->exclude_kernel == (unsigned)t[i].xk[j] &&
			      a->exclude_hv == (unsigned)t[i].xh[j],
			      "'%s' member %zu: exclude u%d k%d h%d", t[i].in, j,
			      a->exclude_user, a->exclude_kernel, a->exclude_hv);
			CHECK(l.ev[j].sample_read == t[i].sample_read,
			      "'%s' member %zu: sample_read %d", t[i].in, j,
			      l.ev[j].sample_read);
		}
		pc_event_list_release(&l);
	}
}

static void test_suggest(void)
{
	static const char *const pairs[][2] = {
		{ "cylces", "cycles" }, { "instrucions", "instructions" },
		{ "task-clok", "task-clock" }, { "page-fault", "page-faults" },
		{ "LLC-load-mises", "LLC-load-misses" }, { "cycles:x", "cycles" },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *s = pc_event_suggest(pairs[i][0]);

		CHECK(s && !strcmp(s, pairs[i][1]), "suggest(%s) = %s", pairs[i][0],
		      s ? s : "NULL");
	}
	CHECK(pc_event_suggest("zzzzzzzzzzzz") == NULL, "nonsense gets a suggestion");
}

/* Every name in the tables parses back to itself. */
static void test_roundtrip(void)
{
	const char *const *cn = pc_event_cache_names();
	size_t n = 0;

	for (const struct pc_event_desc *d = pc_event_table(); d->name; d++) {
		struct perf_event_attr a;
		char name[64];

		CHECK(pc_event_parse(d->name, &a, NULL) == 0, "%s", d->name);
		CHECK(a.type == d->type && a.config == d->config, "%s", d->name);
		CHECK(!strcmp(pc_event_name(&a, name, sizeof(name)), d->name),
		      "%s -> %s", d->name, name);
		n++;
	}
	CHECK(n >= 20, "table has %zu rows", n);
	n = 0;
	for (; *cn; cn++, n++) {
		struct perf_event_attr a;
		char name[64];

		CHECK(pc_event_parse(*cn, &a, NULL) == 0 && a.type == C, "%s", *cn);
		CHECK(!strcmp(pc_event_name(&a, name, sizeof(name)), *cn), "%s", *cn);
	}
	/* L1d 6 + L1i 4 + LLC 6 + dTLB 6 + iTLB 2 + branch 2 + node 6 */
	CHECK(n == 32, "%zu cache names", n);
}

/* perf's other modifiers: the attr bit each sets (P, S, W: none). */
static const struct {
	const char *in;
	int host_off, guest_off, idle_off, pinned, exclusive, xk;
} perf_mods[] = {
	{ "page-faults:G", 1, 0, 0, 0, 0, 0 },
	{ "page-faults:H", 0, 1, 0, 0, 0, 0 },
	{ "page-faults:GH", 0, 1, 0, 0, 0, 0 },	/* the last wins, as in perf */
	{ "page-faults:I", 0, 0, 1, 0, 0, 0 },
	{ "page-faults:D", 0, 0, 0, 1, 0, 0 },
	{ "page-faults:e", 0, 0, 0, 0, 1, 0 },
	{ "page-faults:P", 0, 0, 0, 0, 0, 0 },
	{ "page-faults:S", 0, 0, 0, 0, 0, 0 },
	{ "page-faults:W", 0, 0, 0, 0, 0, 0 },
	{ "page-faults:uI", 0, 0, 1, 0, 0, 1 },
};

static void test_perf_modifiers(void)
{
	for (size_t i = 0; i < sizeof(perf_mods) / sizeof(*perf_mods); i++) {
		struct perf_event_attr a;
		int r = pc_event_parse(perf_mods[i].in, &a, NULL);

		CHECK(r == 0, "'%s' refused", perf_mods[i].in);
		CHECK(a.exclude_host == perf_mods[i].host_off &&
		      a.exclude_guest == perf_mods[i].guest_off &&
		      a.exclude_idle == perf_mods[i].idle_off &&
		      a.pinned == perf_mods[i].pinned &&
		      a.exclusive == perf_mods[i].exclusive &&
		      a.exclude_kernel == perf_mods[i].xk && a.sample_type == 0,
		      "'%s': host %d guest %d idle %d pinned %d exclusive %d",
		      perf_mods[i].in, a.exclude_host, a.exclude_guest,
		      a.exclude_idle, a.pinned, a.exclusive);
	}
}

/*
 * The parser's own word on what is wrong (struct pc_event_error): where,
 * what and the fix, at the point it stops, for the tool to print as is.
 * "sys:ev" names go to a resolver that knows "sys:ok" and fails "sys:no"
 * with EACCES (tracefs is root's), so the rows run on any host.
 */
static int fake_resolve(void *arg, const char *name, size_t len,
			struct pc_event_list *list)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = 2 };

	(void)arg;
	if (len == 6 && !memcmp(name, "sys:ok", 6))
		return pc_event_list_add(list, "sys:ok", &a) ? -1 : 1;
	if (len == 6 && !memcmp(name, "sys:no", 6)) {
		errno = EACCES;
		return -1;
	}
	return 0;
}

static const struct {
	const char *in;
	size_t idx;
	int err;
	const char *str, *help;	/* help: its start; "" none; NULL the
				   host's tracefs says (test_errors()) */
	enum pc_event_unknown unknown;
} errors[] = {
	{ "cylces", 0, EINVAL, "unknown event 'cylces'",
	  "did you mean 'cycles'?", PC_EVENT_UNKNOWN_EVENT },
	{ "cylces:u", 0, EINVAL, "unknown event 'cylces'", "did you mean",
	  PC_EVENT_UNKNOWN_EVENT },
	{ "zzzzzzzz", 0, EINVAL, "unknown event 'zzzzzzzz'", "",
	  PC_EVENT_UNKNOWN_EVENT },
	{ "cycles:x", 7, EINVAL, "bad modifier ':x' in event 'cycles:x'",
	  "use u, k, h, G, H, I, D, e, S, P or W, each once, and up to "
	  "three p, e.g. 'cycles:u'" },
	{ "page-faults,cycles:ux", 20, EINVAL,
	  "bad modifier ':ux' in event 'cycles:ux'", "use u," },
	{ "cycles:uu", 8, EINVAL, "bad modifier ':uu' in event 'cycles:uu'",
	  "use u," },
	{ "page-faults:", 12, EINVAL,
	  "bad modifier ':' in event 'page-faults:'", "use u," },
	{ "{cycles", 7, EINVAL,
	  "unbalanced '{' or '}' in event list '{cycles'",
	  "write groups as {a,b},c" },
	{ "cycles}", 6, EINVAL, "unbalanced '{' or '}'", "write groups" },
	{ "{cycles,{page-faults}}", 8, EINVAL, "unbalanced '{' or '}'",
	  "write groups" },
	{ "cycles{", 6, EINVAL, "unbalanced '{' or '}'", "write groups" },
	{ "{cycles}x", 8, EINVAL, "'x' after a group in event list",
	  "write groups" },
	{ "{cycles}:q", 9, EINVAL, "bad modifier ':q' in event '{cycles}:q'",
	  "use u, k, h, G, H, I, D, e, S, P or W, each once, and up to "
	  "three p, e.g. '{cycles}:u'" },
	{ "{cycles,page-faults}:", 21, EINVAL,
	  "bad modifier ':' in event '{cycles,page-faults}:'", "use u," },
	{ "cycles,", 7, EINVAL, "empty event name in 'cycles,'",
	  "remove the extra ',' or braces" },
	{ "a,,b", 0, EINVAL, "unknown event 'a'", "", PC_EVENT_UNKNOWN_EVENT },
	{ "cycles,,b", 7, EINVAL, "empty event name in 'cycles,,b'",
	  "remove" },
	{ "{}", 1, EINVAL, "empty event name in '{}'", "remove" },
	{ "", 0, EINVAL, "empty event list", "" },
	{ "sys:nope", 0, EINVAL, "unknown tracepoint 'sys:nope'", NULL,
	  PC_EVENT_UNKNOWN_TRACEPOINT },
	{ "x:y:z", 0, EINVAL, "unknown tracepoint 'x:y'", NULL,
	  PC_EVENT_UNKNOWN_TRACEPOINT },
	{ "sys:ok:q", 7, EINVAL, "bad modifier ':q' in event 'sys:ok:q'",
	  "use u, k, h, G, H, I, D, e, S, P or W, each once, and up to "
	  "three p, e.g. 'sys:ok:u'" },
	{ "page-faults,sys:no", 12, EACCES,
	  "cannot read tracepoint 'sys:no' from tracefs: ",
	  "tracefs is root's" },
	{ "sys:ok/x/", 0, EINVAL, "bad event 'sys:ok/x/': a tracepoint takes "
	  "no terms between slashes", "count it as 'sys:ok'" },
	{ "cpu-clock/x/", 0, EINVAL, "bad event 'cpu-clock/x/': 'cpu-clock' "
	  "takes only the terms period=, name= and config=", "" },
	{ "no-such-pmu-xyz/x/", 0, EINVAL,
	  "unknown PMU 'no-such-pmu-xyz' in 'no-such-pmu-xyz/x/'",
	  "no /sys/bus/event_source/devices/no-such-pmu-xyz: this kernel "
	  "has no such PMU", PC_EVENT_UNKNOWN_PMU },
};

/*
 * An unknown "sys:name" (resolved_len bytes of in) is said as the
 * directory tracefs lacks, or, on a host without tracefs, as where
 * tracepoints live.
 */
static void check_tracepoint_help(const char *in, const char *help)
{
	const char *dir = pc_tracefs_dir();
	char want[PC_EVENT_ERROR_SIZE];
	const char *colon = strchr(in, ':');
	size_t n = strcspn(colon + 1, ":");

	if (dir)
		snprintf(want, sizeof(want), "no %s/events/%.*s/%.*s", dir,
			 (int)(colon - in), in, (int)n, colon + 1);
	else
		snprintf(want, sizeof(want), "a tracepoint is a directory "
			 "SYS/NAME of tracefs' events/");
	CHECK(!strcmp(help, want), "'%s': help '%s', want '%s'", in, help,
	      want);
}

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct pc_event_list l = { 0 };
		struct pc_event_error e;
		size_t pos = 999;
		int r;

		memset(&e, 'x', sizeof(e));
		errno = 0;
		r = pc_event_list_parse_err(&l, errors[i].in, fake_resolve,
					    NULL, &e);
		CHECK(r == -1 && errno == errors[i].err &&
		      e.err == errors[i].err, "'%s': %d errno %d err %d",
		      errors[i].in, r, errno, e.err);
		CHECK(e.idx == errors[i].idx, "'%s': at %zu, want %zu",
		      errors[i].in, e.idx, errors[i].idx);
		CHECK(!strncmp(e.str, errors[i].str, strlen(errors[i].str)),
		      "'%s': '%s', want '%s'", errors[i].in, e.str,
		      errors[i].str);
		if (errors[i].help)
			CHECK(errors[i].help[0]
				      ? !strncmp(e.help, errors[i].help,
						 strlen(errors[i].help))
				      : !e.help[0],
			      "'%s': help '%s', want '%s'", errors[i].in,
			      e.help, errors[i].help);
		else
			check_tracepoint_help(errors[i].in, e.help);
		CHECK(e.unknown == (int)errors[i].unknown,
		      "'%s': unknown kind %d, want %d", errors[i].in,
		      e.unknown, errors[i].unknown);
		/* an installed library's advice names no program */
		CHECK(!strstr(e.str, "pcstat") && !strstr(e.help, "pcstat"),
		      "'%s': names a tool: '%s' (%s)", errors[i].in, e.str,
		      e.help);
		CHECK(l.nr == 0 && l.ev == NULL, "'%s': list kept storage",
		      errors[i].in);
		/* the offset-only calls say the same place */
		r = pc_event_list_parse_with(&l, errors[i].in, &pos,
					     fake_resolve, NULL);
		CHECK(r == -1 && pos == errors[i].idx, "'%s': errpos %zu",
		      errors[i].in, pos);
	}
}

int main(void)
{
	test_perf_modifiers();
	test_good();
	test_group_modifiers();
	test_bad();
	test_lists();
	test_errors();
	test_suggest();
	test_roundtrip();
	return check_done();
}
