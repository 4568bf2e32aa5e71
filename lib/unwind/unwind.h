/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind.h - user call chains from a sample's copy of the user stack and
 * registers (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER), unwound by
 * libunwind's remote interface through the DWARF CFI (.eh_frame, else
 * .debug_frame) of the files the process maps.
 *
 * The unwinder knows no system call but reading the mapped ELF files: it
 * learns where they are from a lib/symbols session
 * (symbols_map_lookup()), which the caller keeps fed with the process's
 * mappings.  What libunwind finds for each code address is kept as a
 * small rule per process, so that a chain met before is walked without
 * it.  libunwind's cache of frame rules is kept while chains come
 * from the same process, and flushed when another process's chain comes,
 * or on unwind_forget() (exec, exit, new code): the same address may hold
 * other code in another process.  An unwinder is used from one thread at
 * a time.
 *
 * Never prints or exits.  Functions that can fail return -1 (or NULL)
 * with errno set.  Built without libunwind, unwind_new() fails with
 * ENOTSUP and unwind_available() says false.
 */
#ifndef UNWIND_UNWIND_H
#define UNWIND_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct symbols;
struct unwind;

/* Why a chain ended. */
enum unwind_stop {
	UNWIND_END = 0,		/* the outermost frame (or a null return
				   address) */
	UNWIND_NO_REGS,		/* the sample has no user registers: a
				   kernel thread, or a 32-bit task */
	UNWIND_STACK_CUT,	/* a frame lies past the copied stack */
	UNWIND_NO_INFO,		/* no CFI for a frame, and no frame
				   pointer to follow */
	UNWIND_BAD_FRAME,	/* the rules led nowhere sane (a loop, an
				   address in no mapping) */
	UNWIND_MAX_DEPTH,	/* more frames than the caller has room for */
	UNWIND_STOP_MAX
};

/* Short name ("stack cut") and one line of advice; never NULL. */
const char *unwind_stop_name(enum unwind_stop stop);
const char *unwind_stop_advice(enum unwind_stop stop);

/* One frame of a chain. */
struct unwind_frame {
	uint64_t ip;		/* [0]: the sampled IP; then return
				   addresses */
	bool exact;		/* ip is the instruction itself (the leaf,
				   or the frame a signal interrupted), not
				   a return address: look it up as is */
};

/* A sample's user state, as the kernel copied it. */
struct unwind_input {
	pid_t pid;
	uint64_t abi;		/* PERF_SAMPLE_REGS_ABI_* */
	uint64_t regs_mask;	/* the attr's sample_regs_user */
	const uint64_t *regs;	/* in ascending bit order of the mask */
	uint64_t nregs;
	const uint8_t *stack;	/* starts at the sampled stack pointer */
	uint64_t stack_size;	/* valid bytes (dyn_size) */
};

/* Counters, for tests and benchmarks. */
struct unwind_stats {
	uint64_t chains, frames;
	uint64_t stops[UNWIND_STOP_MAX];
	uint64_t fast_frames;	/* stepped by a rule learnt before */
	uint64_t slow_frames;	/* stepped by libunwind */
	uint64_t probes;	/* libunwind steps spent learning rules */
	uint64_t flushes;	/* of libunwind's cache */
	size_t rules;		/* rules kept */
	unsigned files;		/* open ELF files */
};

#ifdef HAVE_LIBUNWIND

/* Whether this build can unwind (libunwind present, a known machine). */
bool unwind_available(void);

/* The sample_regs_user mask the unwinder needs on this machine. */
uint64_t unwind_regs_mask(void);

/*
 * A new unwinder reading mappings from s (kept by the caller, which must
 * outlive it).  NULL with errno ENOMEM, or ENOTSUP when unwinding is not
 * available.
 */
struct unwind *unwind_new(struct symbols *s);
void unwind_free(struct unwind *u);

/*
 * Unwind in's stack into frames (room for max >= 1).  Returns the number
 * of frames written (0 when the sample has no usable registers), with
 * *stop saying why the chain ended there.  Never fails otherwise: what
 * cannot be unwound ends the chain with its reason.
 */
size_t unwind_user(struct unwind *u, const struct unwind_input *in,
		   struct unwind_frame *frames, size_t max,
		   enum unwind_stop *stop);

/* Process pid exec'd, exited or changed its code mappings: forget what
   was learnt of its address space. */
void unwind_forget(struct unwind *u, pid_t pid);

/* Close the files not used since the previous unwind_gc(), and drop the
   rules of processes forgotten since. */
void unwind_gc(struct unwind *u);

/*
 * Whether to step frames by the rules learnt from libunwind (the
 * default) or by libunwind every time: the same chains, the second
 * slower (for tests and measurements).
 */
void unwind_set_rules(struct unwind *u, bool on);

void unwind_stats(const struct unwind *u, struct unwind_stats *st);

#else /* built without libunwind: nothing to unwind with */

#include <errno.h>
#include <string.h>

static inline bool unwind_available(void) { return false; }
static inline uint64_t unwind_regs_mask(void) { return 0; }
static inline struct unwind *unwind_new(struct symbols *s)
{
	(void)s;
	errno = ENOTSUP;
	return NULL;
}
static inline void unwind_free(struct unwind *u) { (void)u; }
static inline size_t unwind_user(struct unwind *u,
				 const struct unwind_input *in,
				 struct unwind_frame *frames, size_t max,
				 enum unwind_stop *stop)
{
	(void)u; (void)in; (void)frames; (void)max;
	*stop = UNWIND_NO_REGS;
	return 0;
}
static inline void unwind_forget(struct unwind *u, pid_t pid)
{
	(void)u; (void)pid;
}
static inline void unwind_gc(struct unwind *u) { (void)u; }
static inline void unwind_set_rules(struct unwind *u, bool on)
{
	(void)u; (void)on;
}
static inline void unwind_stats(const struct unwind *u,
				struct unwind_stats *st)
{
	(void)u;
	memset(st, 0, sizeof(*st));
}

#endif /* HAVE_LIBUNWIND */

#endif /* UNWIND_UNWIND_H */
