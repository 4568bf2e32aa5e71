/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind.c - libunwind's remote interface on a sampled stack copy (see
 * unwind.h).
 *
 * libunwind asks four things of us through its accessors: a register of
 * the innermost frame (the sample's user registers), a word of memory
 * (the stack copy, else the bytes of a mapped ELF file), and the unwind
 * info of an address (find_proc_info).  For the last we do the table
 * search ourselves, in the file's .eh_frame_hdr mapped here (or our
 * transcription of .debug_frame), and hand libunwind a one-entry remote
 * table that points at the FDE found: its own search would cost a dozen
 * accessor calls per miss.  Where a frame has no CFI, libunwind's x86-64
 * step falls back to the frame pointer.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libunwind.h>
#include <linux/perf_event.h>

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif

#include "base/hashtab.h"
#include "symbols/symbols.h"
#include "unwind/unwind.h"
#include "unwind/unwind-elf.h"

/* Not in libunwind's headers, exported all the same (perf uses it). */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as,
	unw_word_t ip, unw_dyn_info_t *di, unw_proc_info_t *pi,
	int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

/*
 * Where transcribed .debug_frame copies appear to libunwind: x86-64
 * non-canonical addresses, which no process can map, 4 GiB apart.
 */
#define SYNTH_BASE 0x4000000000000000ull
#define SYNTH_STRIDE (1ull << 32)
/* A read this far above the copied stack is taken for a cut stack. */
#define STACK_SPAN (64ull << 20)
#define RECENT 8

#if defined(__x86_64__)
#define NREGS PERF_REG_X86_64_MAX
/* libunwind's x86-64 register numbers to the kernel's perf regs. */
static const signed char perf_reg_of[] = {
	[UNW_X86_64_RAX] = PERF_REG_X86_AX, [UNW_X86_64_RDX] = PERF_REG_X86_DX,
	[UNW_X86_64_RCX] = PERF_REG_X86_CX, [UNW_X86_64_RBX] = PERF_REG_X86_BX,
	[UNW_X86_64_RSI] = PERF_REG_X86_SI, [UNW_X86_64_RDI] = PERF_REG_X86_DI,
	[UNW_X86_64_RBP] = PERF_REG_X86_BP, [UNW_X86_64_RSP] = PERF_REG_X86_SP,
	[UNW_X86_64_R8] = PERF_REG_X86_R8, [UNW_X86_64_R9] = PERF_REG_X86_R9,
	[UNW_X86_64_R10] = PERF_REG_X86_R10, [UNW_X86_64_R11] = PERF_REG_X86_R11,
	[UNW_X86_64_R12] = PERF_REG_X86_R12, [UNW_X86_64_R13] = PERF_REG_X86_R13,
	[UNW_X86_64_R14] = PERF_REG_X86_R14, [UNW_X86_64_R15] = PERF_REG_X86_R15,
	[UNW_X86_64_RIP] = PERF_REG_X86_IP,
};
#define REG_IP PERF_REG_X86_IP
#define REG_SP PERF_REG_X86_SP
/* Every general register, as perf asks: segment registers are no use. */
#define REGS_MASK (((1ull << PERF_REG_X86_64_MAX) - 1) & \
		   ~((1ull << PERF_REG_X86_DS) | (1ull << PERF_REG_X86_ES) | \
		     (1ull << PERF_REG_X86_FS) | (1ull << PERF_REG_X86_GS)))
#define ABI_OK PERF_SAMPLE_REGS_ABI_64
#else
#define NREGS 1
static const signed char perf_reg_of[] = { -1 };
#define REG_IP 0
#define REG_SP 0
#define REGS_MASK 0ull
#define ABI_OK (~0ull)
#endif

struct unwind {
	struct symbols *sym;
	unw_addr_space_t as;
	pid_t pid;			/* whose rules its cache holds */
	struct hashtab files;		/* of struct uw_elf, by path, ino */
	unsigned gen;
	uint64_t next_synth;
	struct unwind_stats st;
};

/* One chain being unwound: libunwind's `arg'. */
struct uw_ctx {
	struct unwind *u;
	pid_t pid;
	uint64_t reg[NREGS];
	uint64_t have;			/* bits of the registers in reg */
	const uint8_t *stack;
	uint64_t sp, size;
	struct {
		const struct uw_elf *e;
		uint64_t bias;
	} recent[RECENT];		/* files met in this chain */
	unsigned nrecent, next;
	bool cut;			/* a read fell past the stack copy */
};

/* The unwinder whose rules a per-thread cache would hold. */
static __thread const struct unwind *last_user;

bool unwind_available(void)
{
	return REGS_MASK != 0;
}

uint64_t unwind_regs_mask(void)
{
	return REGS_MASK;
}

/* --- files -------------------------------------------------------------- */

struct file_key {
	const char *path;
	uint64_t ino;
};

static bool file_eq(const void *item, const void *key)
{
	const struct uw_elf *e = item;
	const struct file_key *k = key;

	return e->ino == k->ino && strcmp(e->path, k->path) == 0;
}

/* The file of mapping m, opened once; NULL when it cannot be used. */
static const struct uw_elf *file_get(struct unwind *u, const struct sym_map *m)
{
	struct file_key k = { m->elf_path ? m->elf_path : m->name, m->ino };
	size_t h = hash_bytes(&k.ino, sizeof(k.ino), hash_str(k.path));
	struct uw_elf *e = hashtab_find(&u->files, h, file_eq, &k);

	if (!e) {
		if (m->cause != SYM_OK || (!m->elf_path && !m->image))
			return NULL;
		e = uw_elf_open(k.path, m->image, m->image_size, m->ino);
		if (!e) {
			/* remember the failure: an empty file, never read */
			e = calloc(1, sizeof(*e));
			if (!e || !(e->path = strdup(k.path))) {
				free(e);
				return NULL;
			}
			e->ino = k.ino;
		}
		if (e->dbg.nfde)
			e->synth = SYNTH_BASE + u->next_synth++ * SYNTH_STRIDE;
		if (hashtab_add(&u->files, h, e) != 0) {
			uw_elf_close(e);
			return NULL;
		}
	}
	e->gen = u->gen;
	return e->nseg ? e : NULL;
}

static void recent_add(struct uw_ctx *c, const struct uw_elf *e, uint64_t bias)
{
	unsigned i;

	for (i = 0; i < c->nrecent; i++)
		if (c->recent[i].e == e && c->recent[i].bias == bias)
			return;
	i = c->nrecent < RECENT ? c->nrecent++ : c->next++ % RECENT;
	c->recent[i].e = e;
	c->recent[i].bias = bias;
}

/* A word of a file met in this chain, at a process address. */
static int recent_read(const struct uw_ctx *c, uint64_t addr, uint64_t *val)
{
	unsigned i;

	for (i = 0; i < c->nrecent; i++) {
		const struct uw_elf *e = c->recent[i].e;
		uint64_t va = addr - c->recent[i].bias;

		if (e->dbg.nfde && addr >= e->synth &&
		    addr - e->synth < e->dbg.size) {
			uint64_t off = addr - e->synth, n = e->dbg.size - off;

			*val = 0;
			memcpy(val, e->dbg.buf + off, n < 8 ? n : 8);
			return 0;
		}
		if (va >= e->vmin && va < e->vmax)
			return uw_elf_read(e, va, val);
	}
	return -1;
}

/* --- libunwind's accessors ------------------------------------------------ */

static int find_proc_info(unw_addr_space_t as, unw_word_t ip,
			  unw_proc_info_t *pi, int need_unwind_info, void *arg)
{
	struct uw_ctx *c = arg;
	const struct uw_elf *e;
	unw_dyn_info_t di;
	struct sym_map m;
	uint64_t vaddr;

	if (symbols_map_lookup(c->u->sym, c->pid, ip, &m) != 0 ||
	    !(e = file_get(c->u, &m)))
		return -UNW_ENOINFO;
	recent_add(c, e, m.bias);
	vaddr = ip - m.bias;
	memset(&di, 0, sizeof(di));
	di.start_ip = m.start;
	di.end_ip = m.end;
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.u.rti.table_len = 1;		/* words: one 8-byte entry */
	if (e->nfde) {
		long i = uw_elf_hdr_find(e, vaddr);
		int r;

		if (i >= 0) {
			di.u.rti.segbase = m.bias + e->hdr_vaddr;
			di.u.rti.table_data = m.bias + e->table_vaddr +
					      (uint64_t)i * 8;
			r = dwarf_search_unwind_table(as, ip, &di, pi,
						      need_unwind_info, arg);
			if (r != -UNW_ENOINFO || !e->dbg.nfde)
				return r;
		}
	}
	if (e->dbg.nfde) {
		const struct uw_dbg_fde *f = uw_elf_dbg_find(e, vaddr);

		if (!f)
			return -UNW_ENOINFO;
		/* FDE addresses are ELF vaddrs: libunwind adds the bias */
		di.load_offset = m.bias;
		di.u.rti.segbase = e->synth;
		di.u.rti.table_data = e->synth + f->entry;
		return dwarf_search_unwind_table(as, ip, &di, pi,
						 need_unwind_info, arg);
	}
	return -UNW_ENOINFO;
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi,
			    void *arg)
{
	(void)as; (void)pi; (void)arg;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr,
				  void *arg)
{
	(void)as; (void)addr; (void)arg;
	return -UNW_ENOINFO;
}

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp,
		      int write, void *arg)
{
	struct uw_ctx *c = arg;
	const struct uw_elf *e;
	struct sym_map m;

	(void)as;
	if (write)
		return -UNW_EINVAL;
	if (addr >= c->sp && addr - c->sp < c->size && c->size - (addr - c->sp) >= 8) {
		memcpy(valp, c->stack + (addr - c->sp), 8);
		return 0;
	}
	if (recent_read(c, addr, (uint64_t *)valp) == 0)
		return 0;
	if (addr >= c->sp && addr - c->sp < c->size + STACK_SPAN) {
		c->cut = true;
		return -UNW_EINVAL;
	}
	/* code of a file not met yet (libunwind looks at PLT entries) */
	if (symbols_map_lookup(c->u->sym, c->pid, addr, &m) == 0 &&
	    (e = file_get(c->u, &m))) {
		recent_add(c, e, m.bias);
		if (uw_elf_read(e, addr - m.bias, (uint64_t *)valp) == 0)
			return 0;
	}
	return -UNW_EINVAL;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t regnum,
		      unw_word_t *valp, int write, void *arg)
{
	struct uw_ctx *c = arg;
	int r;

	(void)as;
	if (write || regnum < 0 ||
	    (size_t)regnum >= sizeof(perf_reg_of) / sizeof(perf_reg_of[0]))
		return -UNW_EBADREG;
	r = perf_reg_of[regnum];
	if (r < 0 || !(c->have & (1ull << r)))
		return -UNW_EBADREG;
	*valp = c->reg[r];
	return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t num,
			unw_fpreg_t *val, int write, void *arg)
{
	(void)as; (void)num; (void)val; (void)write; (void)arg;
	return -UNW_EINVAL;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	(void)as; (void)cu; (void)arg;
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf,
			 size_t len, unw_word_t *off, void *arg)
{
	(void)as; (void)addr; (void)buf; (void)len; (void)off; (void)arg;
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

/* --- the unwinder ---------------------------------------------------------- */

static bool file_drop(void *item, void *arg)
{
	struct uw_elf *e = item;

	if (arg && e->gen == *(unsigned *)arg)
		return false;
	uw_elf_close(e);
	return true;
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
	u->as = unw_create_addr_space(&accessors, 0);
	if (!u->as) {
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	/*
	 * UNW_CACHE_GLOBAL takes a lock around every step, and blocks
	 * every signal to do so: two sigprocmask calls a frame, most of
	 * the unwinder's time.  We unwind from one thread; a libunwind
	 * built without per-thread caches (the default, Debian's) then
	 * keeps the space's own cache without the lock, and one built with
	 * them keeps a thread's cache, which space_for() flushes as well.
	 */
	unw_set_caching_policy(u->as, UNW_CACHE_PER_THREAD);
	return u;
}

void unwind_free(struct unwind *u)
{
	if (!u)
		return;
	if (last_user == u)
		last_user = NULL;
	unw_destroy_addr_space(u->as);
	hashtab_remove_if(&u->files, file_drop, NULL);
	hashtab_release(&u->files);
	free(u);
}

void unwind_forget(struct unwind *u, pid_t pid)
{
	if (pid == u->pid)
		u->pid = 0;	/* the next chain flushes the cache */
}

/*
 * The address space, its cache of frame rules flushed unless it holds
 * pid's: libunwind caches rules by address, and the same address may
 * hold other code in another process.
 */
static unw_addr_space_t space_for(struct unwind *u, pid_t pid)
{
	if (pid != u->pid || last_user != u) {
		unw_flush_cache(u->as, 0, 0);
		u->st.flushes++;
		u->pid = pid;
		last_user = u;
	}
	return u->as;
}

void unwind_gc(struct unwind *u)
{
	hashtab_remove_if(&u->files, file_drop, &u->gen);
	u->gen++;
}

void unwind_stats(const struct unwind *u, struct unwind_stats *st)
{
	*st = u->st;
	st->files = (unsigned)hashtab_count(&u->files);
}

/* --- a chain -------------------------------------------------------------- */

static bool ctx_init(struct uw_ctx *c, struct unwind *u,
		     const struct unwind_input *in)
{
	uint64_t mask = in->regs_mask, i = 0;
	unsigned r;

	memset(c, 0, offsetof(struct uw_ctx, recent));
	c->nrecent = c->next = 0;
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

size_t unwind_user(struct unwind *u, const struct unwind_input *in,
		   struct unwind_frame *frames, size_t max,
		   enum unwind_stop *stop)
{
	struct uw_ctx c;
	unw_addr_space_t as;
	unw_cursor_t cur;
	uint64_t last_sp;
	bool next_exact;
	size_t n = 0;
	int r;

	u->st.chains++;
	*stop = UNWIND_NO_REGS;
	if (!max || !ctx_init(&c, u, in))
		goto out;
	frames[n++] = (struct unwind_frame){ c.reg[REG_IP], true };
	*stop = UNWIND_BAD_FRAME;
	as = space_for(u, in->pid);
	if (!as || unw_init_remote(&cur, as, &c) != 0)
		goto out;
	last_sp = c.sp;
	/* after a signal frame, the next ip is where the signal struck */
	next_exact = unw_is_signal_frame(&cur) > 0;
	for (;;) {
		unw_word_t ip, sp;

		c.cut = false;
		r = unw_step(&cur);
		if (r <= 0) {
			*stop = c.cut ? UNWIND_STACK_CUT
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
		next_exact = unw_is_signal_frame(&cur) > 0;
	}
out:
	u->st.frames += n;
	u->st.stops[*stop]++;
	return n;
}
