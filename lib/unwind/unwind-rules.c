/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind-rules.c - frame rules learnt from libunwind once per address,
 * so that a warm chain is walked here without it.
 *
 * libunwind's cache of rules is guarded by a lock that blocks every
 * signal (two sigprocmask system calls a frame, most of the cost of a
 * chain).  Most x86-64 frames follow a rule a few numbers describe: the
 * CFA is rsp or rbp plus an offset, the return address and the saved
 * callee-saved registers lie at offsets from the CFA (the frame kinds
 * libunwind's own fast trace keeps for local unwinding).
 *
 * A rule is learnt by probing: libunwind steps twice from the address
 * with made-up registers and made-up memory (a hash of the address, so
 * that a value read from memory cannot pass for one computed from a
 * register), where the CFA, the return address and the saved registers
 * end up says the rule, and the two probes must agree.  What does not
 * fit (a signal frame, a CFA read from memory, a register saved in
 * another, no CFI at all) is remembered as RULE_NONE and left to
 * libunwind every time.  Rules are per process and address: a
 * process's rules go (by generation) when unwind_forget() says its code
 * changed.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind-internal.h"

#if defined(__x86_64__)
const int uw_saved_regs[NSAVED] = {
	PERF_REG_X86_BP, PERF_REG_X86_BX, PERF_REG_X86_R12,
	PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
};
static const int unw_saved_regs[NSAVED] = {
	UNW_X86_64_RBP, UNW_X86_64_RBX, UNW_X86_64_R12,
	UNW_X86_64_R13, UNW_X86_64_R14, UNW_X86_64_R15,
};
#else
const int uw_saved_regs[NSAVED];
static const int unw_saved_regs[NSAVED];
#endif

/* Rules kept at most; past it they are all dropped and learnt again. */
#define MAX_RULES (1u << 20)

/* A process's generation: its rules of another are stale. */
struct uw_pid {
	pid_t pid;
	unsigned gen;
};

static bool pid_eq(const void *item, const void *key)
{
	return ((const struct uw_pid *)item)->pid == *(const pid_t *)key;
}

static struct uw_pid *pid_get(struct unwind *u, pid_t pid, bool make)
{
	size_t h = hash_u64((uint64_t)pid);
	struct uw_pid *p = hashtab_find(&u->pids, h, pid_eq, &pid);

	if (p || !make)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (hashtab_add(&u->pids, h, p) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

struct rule_key {
	pid_t pid;
	uint64_t addr;
};

static bool rule_eq(const void *item, const void *key)
{
	const struct uw_rule *r = item;
	const struct rule_key *k = key;

	return r->addr == k->addr && r->pid == k->pid;
}

static size_t rule_hash(pid_t pid, uint64_t addr)
{
	return hash_u64(addr ^ ((uint64_t)pid << 40));
}

/* --- probing -------------------------------------------------------------- */

/* What one probe saw: the CFA and the places of the saved values. */
struct seen {
	enum uw_rule_kind kind;	/* RULE_LAST, or RULE_SP for "stepped" */
	uint64_t cfa;
	int64_t ra;		/* offsets from the CFA */
	int64_t off[NSAVED];
};

/* Made-up register values, inside the probes' made-up memory; the
   distances between registers differ from one salt to the other, so that
   a CFA computed from rsp and one from rbp cannot agree in both. */
static uint64_t probe_reg(int r, int salt)
{
	return PROBE_BASE + ((uint64_t)salt << 36) +
	       (uint64_t)r * (uint64_t)salt * (1ull << 24);
}

/* One probe: step from addr with registers of the given salt.  Returns
   0 with *s filled, or -1 when the frame does not fit a rule. */
static int probe(struct unwind *u, pid_t pid, uint64_t addr, int salt,
		 struct seen *s)
{
	struct uw_ctx p;
	unw_cursor_t cur;
	unw_proc_info_t pi;
	unw_save_loc_t loc;
	unw_word_t v;
	int r, i;

	memset(&p, 0, sizeof(p));
	p.u = u;
	p.pid = pid;
	p.probe = true;
	for (r = 0; r < NREGS; r++)
		p.reg[r] = probe_reg(r, salt);
	p.reg[REG_IP] = addr;
	p.have = (NREGS < 64 ? (1ull << NREGS) : 0) - 1;
	/* unw_get_proc_info() looks the CFI up afresh (and fakes an answer
	   when there is none: p.found says) */
	if (unw_init_remote(&cur, uw_space_for(u, pid), &p) != 0 ||
	    unw_is_signal_frame(&cur) > 0 ||
	    unw_get_proc_info(&cur, &pi) != 0 || !p.found)
		return -1;
	u->st.probes++;
	r = unw_step(&cur);
	if (r == 0) {
		s->kind = RULE_LAST;
		return 0;
	}
	if (r < 0 || unw_get_reg(&cur, UNW_REG_SP, &v) != 0)
		return -1;
	s->kind = RULE_SP;
	s->cfa = v;
	/* the return address: read from memory at a place near the CFA */
	if (unw_get_save_loc(&cur, UNW_REG_IP, &loc) != 0 ||
	    loc.type != UNW_SLT_MEMORY ||
	    unw_get_reg(&cur, UNW_REG_IP, &v) != 0 ||
	    loc.u.addr < PROBE_BASE || loc.u.addr >= PROBE_END ||
	    v != uw_probe_word(loc.u.addr))
		return -1;
	s->ra = (int64_t)(loc.u.addr - s->cfa);
	for (i = 0; i < NSAVED; i++) {
		if (unw_get_save_loc(&cur, unw_saved_regs[i], &loc) != 0 ||
		    unw_get_reg(&cur, unw_saved_regs[i], &v) != 0) {
			s->off[i] = RULE_LOST;
			continue;
		}
		if (loc.type == UNW_SLT_REG && loc.u.regnum == unw_saved_regs[i] &&
		    v == p.reg[uw_saved_regs[i]])
			s->off[i] = RULE_SAME;
		else if (loc.type == UNW_SLT_MEMORY && loc.u.addr >= PROBE_BASE &&
			 loc.u.addr < PROBE_END && v == uw_probe_word(loc.u.addr))
			s->off[i] = (int64_t)(loc.u.addr - s->cfa);
		else
			return -1;	/* in another register, or a value */
	}
	return 0;
}

static bool fits(int64_t v)
{
	return v > INT32_MIN + 1 && v <= INT32_MAX;
}

/* Learn the rule at addr: two probes whose registers differ. */
static void learn(struct unwind *u, pid_t pid, uint64_t addr, struct uw_rule *rule)
{
	struct seen a, b;
	int64_t base_a, base_b;
	int i;

	rule->kind = RULE_NONE;
	if (probe(u, pid, addr, 1, &a) != 0 || probe(u, pid, addr, 2, &b) != 0 ||
	    a.kind != b.kind)
		return;
	if (a.kind == RULE_LAST) {
		rule->kind = RULE_LAST;
		return;
	}
	if (a.ra != b.ra || !fits(a.ra))
		return;
	for (i = 0; i < NSAVED; i++)
		if (a.off[i] != b.off[i] ||
		    (a.off[i] != RULE_SAME && a.off[i] != RULE_LOST &&
		     !fits(a.off[i])))
			return;
	/* the CFA from rsp or from rbp, by the offset both probes share */
	base_a = (int64_t)(a.cfa - probe_reg(REG_SP, 1));
	base_b = (int64_t)(b.cfa - probe_reg(REG_SP, 2));
	if (base_a == base_b && fits(base_a)) {
		rule->kind = RULE_SP;
	} else {
		base_a = (int64_t)(a.cfa - probe_reg(REG_BP, 1));
		base_b = (int64_t)(b.cfa - probe_reg(REG_BP, 2));
		if (base_a != base_b || !fits(base_a))
			return;
		rule->kind = RULE_BP;
	}
	rule->cfa_off = (int32_t)base_a;
	rule->ra_off = (int32_t)a.ra;
	for (i = 0; i < NSAVED; i++)
		rule->off[i] = (int32_t)a.off[i];
}

/* --- the table -------------------------------------------------------------- */

static bool rule_drop(void *item, void *arg)
{
	struct unwind *u = arg;
	struct uw_rule *r = item;
	struct uw_pid *p;

	if (u) {
		p = pid_get(u, r->pid, false);
		if (p && p->gen == r->gen)
			return false;
	}
	free(r);
	return true;
}

static bool pid_drop(void *item, void *arg)
{
	(void)arg;
	free(item);
	return true;
}

const struct uw_rule *uw_rule_for(struct unwind *u, const struct uw_ctx *c,
				  uint64_t addr)
{
	struct rule_key k = { c->pid, addr };
	size_t h = rule_hash(c->pid, addr);
	struct uw_rule *r = hashtab_find(&u->rules, h, rule_eq, &k);
	struct uw_pid *p = pid_get(u, c->pid, true);

	if (!p)
		return NULL;
	if (r && r->gen == p->gen)
		return r;
	if (!r) {
		if (hashtab_count(&u->rules) >= MAX_RULES)
			hashtab_remove_if(&u->rules, rule_drop, NULL);
		r = calloc(1, sizeof(*r));
		if (!r)
			return NULL;
		r->pid = c->pid;
		r->addr = addr;
		if (hashtab_add(&u->rules, h, r) != 0) {
			free(r);
			return NULL;
		}
	}
	r->gen = p->gen;
	learn(u, c->pid, addr, r);
	return r;
}

void uw_rules_forget(struct unwind *u, pid_t pid)
{
	struct uw_pid *p = pid_get(u, pid, false);

	if (p)
		p->gen++;
}

void uw_rules_gc(struct unwind *u)
{
	hashtab_remove_if(&u->rules, rule_drop, u);
}

void uw_rules_release(struct unwind *u)
{
	hashtab_remove_if(&u->rules, rule_drop, NULL);
	hashtab_release(&u->rules);
	hashtab_remove_if(&u->pids, pid_drop, NULL);
	hashtab_release(&u->pids);
}
