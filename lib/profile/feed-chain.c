/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * feed-chain.c - a sample's call chain as resolved frames: the kernel's
 * PERF_SAMPLE_CALLCHAIN (its PERF_CONTEXT_* markers dropped) and, in
 * DWARF mode, the user frames lib/unwind finds in the copied stack.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/array.h"
#include "profile/feed-internal.h"

static char context_mode(uint64_t marker)
{
	switch (marker) {
	case PERF_CONTEXT_KERNEL: return 'k';
	case PERF_CONTEXT_USER: return '.';
	case PERF_CONTEXT_HV: return 'h';
	default: return 'g';		/* PERF_CONTEXT_GUEST* */
	}
}

/* ip's resolution as frames; exact: ip is the instruction itself, not
   a return address (whose call instruction is what ip - 1 lies in). */
static int add_frames(struct feed *f, pid_t pid, uint64_t ip, char mode,
		      bool exact, const struct sym_result *known)
{
	struct sym_result r;
	unsigned i, n;
	uint64_t back = exact ? 0 : 1;
	bool kernel = mode == 'k' || mode == 'h';

	if (!known) {
		symbols_resolve(f->sym, pid, ip - back, kernel, &r);
		if (r.cause == SYM_NO_MEMORY) {
			errno = ENOMEM;
			return -1;
		}
		known = &r;
	}
	n = known->n_inline > 1 ? known->n_inline : 1;
	if (ARRAY_GROW(f->fr, f->nfr + n, f->afr) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct stk_sample_frame *fr = &f->fr[f->nfr++];
		bool outer = i + 1 == n;

		fr->ip = ip;
		fr->mode = mode;
		fr->dso = known->dso ? known->dso : "[unknown]";
		fr->dso_off = known->dso_off && !kernel ?
				      known->dso_off + back : ip;
		fr->cause = known->cause;
		fr->inlined = !outer;
		fr->sym = outer ? known->sym : known->inl[i].func;
		fr->off = outer && known->sym ? known->off + back : 0;
		if (known->n_inline > 1) {
			fr->file = known->inl[i].file;
			fr->line = known->inl[i].line;
		} else {
			fr->file = known->file;
			fr->line = known->line;
		}
		f->info.frames++;
		f->info.frames_unresolved += !fr->sym;
	}
	return 0;
}

/* --max-stack: the chain has its frames; the callers past go unread. */
static bool chain_full(const struct feed *f)
{
	return f->max_stack && f->nfr >= f->max_stack;
}

/* The kernel's chain: every entry but the user ones in DWARF mode. */
static int add_callchain(struct feed *f, const struct pc_sample *s,
			 char leaf_mode, const struct sym_result *leaf)
{
	char mode = leaf_mode;
	bool first_of_ctx = true;
	uint64_t i;

	for (i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			mode = context_mode(ip);
			first_of_ctx = true;
			continue;
		}
		if (mode == '.' && f->callgraph == FEED_CG_DWARF)
			continue;
		if (chain_full(f))
			break;
		/* the first entry is the sample's IP: resolved already */
		if (add_frames(f, (pid_t)s->pid, ip, mode, first_of_ctx,
			       f->nfr == 0 && ip == s->ip &&
					       mode == leaf_mode ? leaf : NULL))
			return -1;
		first_of_ctx = false;
	}
	return 0;
}

/* The user frames from the stack copy; the first is the sample's IP
   when it was taken in user mode (leaf then resolves it). */
static int add_unwound(struct feed *f, const struct pc_record *rec,
		       struct feed_sample *fs, const struct sym_result *leaf)
{
	const struct pc_sample *s = &rec->sample;
	const struct perf_event_attr *a = &f->attrs[fs->event];
	size_t n, i;

	n = unwind_user(f->unwind, &(struct unwind_input){
				.pid = (pid_t)s->pid, .abi = s->regs_abi,
				.regs_mask = a->sample_regs_user,
				.regs = s->regs, .nregs = s->nr_regs,
				.stack = s->stack,
				.stack_size = s->stack_dyn_size },
			f->uf, FEED_MAX_USER_FRAMES, &fs->user_stop);
	f->info.user_stops[fs->user_stop]++;
	for (i = 0; i < n && !chain_full(f); i++)
		if (add_frames(f, (pid_t)s->pid, f->uf[i].ip, '.',
			       f->uf[i].exact,
			       i == 0 && fs->mode == '.' &&
					       f->uf[0].ip == s->ip ? leaf : NULL) != 0)
			return -1;
	return 0;
}

int feed_chain_build(struct feed *f, const struct pc_record *rec,
		     const struct sym_result *leaf, struct feed_sample *fs)
{
	const struct pc_sample *s = &rec->sample;

	f->nfr = 0;
	fs->user_stop = UNWIND_END;
	if (f->callgraph != FEED_CG_NONE && add_callchain(f, s, fs->mode,
							 leaf) != 0)
		return -1;
	if (f->callgraph == FEED_CG_DWARF && s->regs_abi &&
	    add_unwound(f, rec, fs, leaf) != 0)
		return -1;
	/* no chain came (none asked, or nothing to unwind): the IP alone */
	if (f->nfr == 0 && add_frames(f, (pid_t)s->pid, s->ip, fs->mode, true,
				      leaf) != 0)
		return -1;
	/* an inlined function's frames may have gone past the bound */
	if (f->max_stack && f->nfr > f->max_stack)
		f->nfr = f->max_stack;
	fs->frames = f->fr;
	fs->nframes = (unsigned)f->nfr;
	return 0;
}
