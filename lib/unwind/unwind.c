/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind.c - user call chains from a sampled stack copy (see unwind.h):
 * each frame stepped by a rule learnt from libunwind (unwind-rules.c),
 * or by libunwind itself from the first frame no rule fits; libunwind
 * reads everything through the accessors of unwind-access.c.  Where a
 * frame has no CFI, libunwind's x86-64 step falls back on the frame
 * pointer.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"
#include "unwind/unwind-internal.h"

bool unwind_available(void)
{
	return REGS_MASK != 0;
}

uint64_t unwind_regs_mask(void)
{
	return REGS_MASK;
}

struct unwind *unwind_new(struct symbols *s)
{
	struct unwind *u;

	if (!unwind_available()) {
		errno = ENOTSUP;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->sym = s;
	if (uw_space_init(u) != 0) {
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	return u;
}

void unwind_free(struct unwind *u)
{
	if (!u)
		return;
	uw_space_release(u);
	uw_files_gc(u, true);
	uw_rules_release(u);
	free(u);
}

void unwind_set_rules(struct unwind *u, bool on)
{
	u->no_rules = !on;
}

void unwind_forget(struct unwind *u, pid_t pid)
{
	if (pid == u->pid)
		u->pid = 0;	/* libunwind's cache goes at the next chain */
	uw_rules_forget(u, pid);
}

void unwind_gc(struct unwind *u)
{
	uw_files_gc(u, false);
	uw_rules_gc(u);
}

void unwind_stats(const struct unwind *u, struct unwind_stats *st)
{
	*st = u->st;
	st->files = (unsigned)hashtab_count(&u->files);
	st->rules = hashtab_count(&u->rules);
}

/* --- a chain -------------------------------------------------------------- */

static bool ctx_init(struct uw_ctx *c, struct unwind *u,
		     const struct unwind_input *in)
{
	uint64_t mask = in->regs_mask, i = 0;
	unsigned r;

	memset(c, 0, sizeof(*c));
	c->u = u;
	c->pid = in->pid;
	if (in->abi != ABI_OK || !in->regs)
		return false;
	for (r = 0; r < 64 && i < in->nregs; r++) {
		if (!(mask & (1ull << r)))
			continue;
		if (r < NREGS) {
			c->reg[r] = in->regs[i];
			c->have |= 1ull << r;
		}
		i++;
	}
	if (!(c->have & (1ull << REG_IP)) || !(c->have & (1ull << REG_SP)))
		return false;
	c->stack = in->stack;
	c->size = in->stack ? in->stack_size : 0;
	c->sp = c->reg[REG_SP];
	return true;
}

/* Why a read at addr failed: the copy ended, or the rule led astray. */
static enum unwind_stop read_stop(const struct uw_ctx *c, uint64_t addr)
{
	return addr >= c->sp && addr - c->sp < c->size + STACK_SPAN ?
		       UNWIND_STACK_CUT : UNWIND_BAD_FRAME;
}

/*
 * Step the frame c holds (at lookup address addr) by its rule into its
 * caller.  Returns 1 with c's registers the caller's, 0 when the rule
 * says there is no caller, -1 when there is no rule to use (then c is
 * untouched), -2 with *stop when the step fails.
 */
static int rule_step(struct unwind *u, struct uw_ctx *c, uint64_t addr,
		     enum unwind_stop *stop)
{
	const struct uw_rule *r = uw_rule_for(u, c, addr);
	uint64_t cfa, ra, v[NSAVED], lost = 0;
	int i, base;

	if (!r || r->kind == RULE_NONE)
		return -1;
	if (r->kind == RULE_LAST)
		return 0;
	base = r->kind == RULE_SP ? REG_SP : REG_BP;
	if (!(c->have & (1ull << base)))
		return -1;
	cfa = c->reg[base] + (uint64_t)(int64_t)r->cfa_off;
	if (cfa <= c->reg[REG_SP]) {
		*stop = UNWIND_BAD_FRAME;	/* a caller lies above */
		return -2;
	}
	if (uw_stack_read(c, cfa + (uint64_t)(int64_t)r->ra_off, &ra) != 0) {
		*stop = read_stop(c, cfa + (uint64_t)(int64_t)r->ra_off);
		return -2;
	}
	for (i = 0; i < NSAVED; i++) {
		v[i] = c->reg[uw_saved_regs[i]];
		if (r->off[i] == RULE_LOST ||
		    (r->off[i] != RULE_SAME &&
		     uw_stack_read(c, cfa + (uint64_t)(int64_t)r->off[i], &v[i])))
			lost |= 1ull << uw_saved_regs[i];
	}
	for (i = 0; i < NSAVED; i++)
		c->reg[uw_saved_regs[i]] = v[i];
	/* beyond the sampled frame, only what the rules restore is known */
	c->have &= (1ull << REG_IP) | (1ull << REG_SP);
	for (i = 0; i < NSAVED; i++)
		c->have |= 1ull << uw_saved_regs[i];
	c->have &= ~lost;
	c->reg[REG_SP] = cfa;
	c->reg[REG_IP] = ra;
	return 1;
}

/*
 * libunwind from the frame c holds (frames[n - 1]) on, appending its
 * callers.  A caller's frame is looked up at its return address - 1, as
 * libunwind does for every frame but the first.
 */
static size_t slow_steps(struct unwind *u, struct uw_ctx *c,
			 struct unwind_frame *frames, size_t n, size_t max,
			 enum unwind_stop *stop)
{
	unw_cursor_t cur;
	uint64_t last_sp = c->reg[REG_SP];
	bool next_exact;
	int r;

	if (!frames[n - 1].exact)
		c->reg[REG_IP]--;
	*stop = UNWIND_BAD_FRAME;
	if (unw_init_remote(&cur, uw_space_for(u, c->pid), c) != 0)
		return n;
	/* after a signal frame, the next ip is where the signal struck */
	next_exact = unw_is_signal_frame(&cur) > 0;
	for (;;) {
		unw_word_t ip, sp;

		c->cut = false;
		r = unw_step(&cur);
		if (r <= 0) {
			*stop = c->cut ? UNWIND_STACK_CUT
			      : r == 0 ? UNWIND_END
			      : r == -UNW_ENOINFO ? UNWIND_NO_INFO
			      : UNWIND_BAD_FRAME;
			break;
		}
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) != 0 || !ip) {
			*stop = UNWIND_END;
			break;
		}
		/* a caller's frame lies above its callee's, except across
		   a signal delivered on an alternate stack */
		if (unw_get_reg(&cur, UNW_REG_SP, &sp) != 0 ||
		    (sp < last_sp && !next_exact) ||
		    (sp == last_sp && ip == frames[n - 1].ip)) {
			*stop = UNWIND_BAD_FRAME;
			break;
		}
		if (n == max) {
			*stop = UNWIND_MAX_DEPTH;
			break;
		}
		last_sp = sp;
		frames[n++] = (struct unwind_frame){ ip, next_exact };
		u->st.slow_frames++;
		/*
		 * Code we cannot read is in no file: no CFI, and libunwind's
		 * x86-64 fallback would then "fix up" the frame from an RSP
		 * that a frame it guessed never loaded (uninitialised, read
		 * through access_mem).  Nothing sound lies beyond it.
		 */
		if (uw_file_read(c, ip, &(uint64_t){ 0 }) != 0) {
			*stop = UNWIND_BAD_FRAME;
			break;
		}
		next_exact = unw_is_signal_frame(&cur) > 0;
	}
	return n;
}

size_t unwind_user(struct unwind *u, const struct unwind_input *in,
		   struct unwind_frame *frames, size_t max,
		   enum unwind_stop *stop)
{
	struct uw_ctx c;
	size_t n = 0;
	int r;

	u->st.chains++;
	*stop = UNWIND_NO_REGS;
	if (!max || !ctx_init(&c, u, in))
		goto out;
	frames[n++] = (struct unwind_frame){ c.reg[REG_IP], true };
	for (;;) {
		uint64_t at = frames[n - 1].ip - !frames[n - 1].exact;

		r = u->no_rules ? -1 : rule_step(u, &c, at, stop);
		if (r == -1) {
			n = slow_steps(u, &c, frames, n, max, stop);
			break;
		}
		if (r == -2)
			break;
		if (r == 0 || !c.reg[REG_IP]) {
			*stop = UNWIND_END;
			break;
		}
		if (n == max) {
			*stop = UNWIND_MAX_DEPTH;
			break;
		}
		frames[n++] = (struct unwind_frame){ c.reg[REG_IP], false };
		u->st.fast_frames++;
	}
out:
	u->st.frames += n;
	u->st.stops[*stop]++;
	return n;
}
