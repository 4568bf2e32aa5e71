/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unwind-access.c - libunwind's accessors: registers from the sample (or
 * the frame the rule cache reached), memory from the stack copy or the
 * mapped ELF files, and unwind info from the file's .eh_frame_hdr table
 * -- searched here, and handed to libunwind as a one-entry remote table
 * that points at the FDE found: its own search would cost a dozen
 * accessor calls per miss.  A file without .eh_frame_hdr entries for an
 * address falls back on our .debug_frame transcription.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"
#include "unwind/unwind-internal.h"

/* Not in libunwind's headers, exported all the same (perf uses it). */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as,
	unw_word_t ip, unw_dyn_info_t *di, unw_proc_info_t *pi,
	int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

#if defined(__x86_64__)
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
#else
static const signed char perf_reg_of[] = { -1 };
#endif

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
		if (e->dbg.nfde || e->own_table)
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
		if (e->own_table && addr >= e->synth + SYNTH_OWN_TABLE &&
		    addr - (e->synth + SYNTH_OWN_TABLE) <= (e->nfde - 1) * 8) {
			memcpy(val, (const uint8_t *)e->own_table +
			       (addr - e->synth - SYNTH_OWN_TABLE), 8);
			return 0;
		}
		if (va >= e->vmin && va < e->vmax)
			return uw_elf_read(e, va, val);
	}
	return -1;
}

/* --- libunwind's accessors ------------------------------------------------ */

static int search(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
		  int need_unwind_info, void *arg)
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
			/* a table we built is read where recent_read()
			   serves it */
			di.u.rti.table_data = (e->own_table
				? e->synth + SYNTH_OWN_TABLE
				: m.bias + e->table_vaddr) + (uint64_t)i * 8;
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

static int find_proc_info(unw_addr_space_t as, unw_word_t ip,
			  unw_proc_info_t *pi, int need_unwind_info, void *arg)
{
	int r = search(as, ip, pi, need_unwind_info, arg);

	((struct uw_ctx *)arg)->found = r == 0;
	return r;
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

int uw_stack_read(const struct uw_ctx *c, uint64_t addr, uint64_t *val)
{
	if (addr < c->sp || addr - c->sp >= c->size || c->size - (addr - c->sp) < 8)
		return -1;
	memcpy(val, c->stack + (addr - c->sp), 8);
	return 0;
}

/* A probe's made-up memory: a word no rule could guess from its address
   (splitmix64), so that a CFA read from memory never passes for one
   computed from a register. */
uint64_t uw_probe_word(uint64_t addr)
{
	uint64_t z = addr + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A word of a file not met yet in this chain (libunwind looks at PLT
   entries); the file joins the recent ones. */
static int new_file_read(struct uw_ctx *c, uint64_t addr, uint64_t *val)
{
	const struct uw_elf *e;
	struct sym_map m;

	if (symbols_map_lookup(c->u->sym, c->pid, addr, &m) != 0 ||
	    !(e = file_get(c->u, &m)))
		return -1;
	recent_add(c, e, m.bias);
	return uw_elf_read(e, addr - m.bias, val);
}

int uw_file_read(struct uw_ctx *c, uint64_t addr, uint64_t *val)
{
	return recent_read(c, addr, val) == 0 ? 0 : new_file_read(c, addr, val);
}

/*
 * A failed read stores 0 all the same: libunwind's x86-64 frame-chain
 * fallback ignores the status of some of its reads (the RSP of its "RIP
 * fixup") and goes on with the word.
 */
static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp,
		      int write, void *arg)
{
	struct uw_ctx *c = arg;
	uint64_t *val = (uint64_t *)valp;

	(void)as;
	if (write)
		return -UNW_EINVAL;
	if (c->probe && addr >= PROBE_BASE && addr < PROBE_END) {
		*val = uw_probe_word(addr);
		return 0;
	}
	if (uw_stack_read(c, addr, val) == 0 || recent_read(c, addr, val) == 0)
		return 0;
	if (addr >= c->sp && addr - c->sp < c->size + STACK_SPAN)
		c->cut = true;
	else if (new_file_read(c, addr, val) == 0)
		return 0;
	*val = 0;
	return -UNW_EINVAL;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t regnum,
		      unw_word_t *valp, int write, void *arg)
{
	struct uw_ctx *c = arg;
	int r;

	(void)as;
	if (write)
		return -UNW_EBADREG;
	*valp = 0;
	if (regnum < 0 ||
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

static unw_accessors_t uw_accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};


static bool file_drop(void *item, void *arg)
{
	struct uw_elf *e = item;

	if (arg && e->gen == *(unsigned *)arg)
		return false;
	uw_elf_close(e);
	return true;
}

void uw_files_gc(struct unwind *u, bool all)
{
	hashtab_remove_if(&u->files, file_drop, all ? NULL : &u->gen);
	if (all)
		hashtab_release(&u->files);
	u->gen++;
}

/* --- the address space ----------------------------------------------------- */

/* The unwinder whose rules a per-thread libunwind cache would hold. */
static __thread const struct unwind *last_user;

int uw_space_init(struct unwind *u)
{
	u->as = unw_create_addr_space(&uw_accessors, 0);
	if (!u->as)
		return -1;
	/*
	 * Our rules spare most steps, but libunwind still probes and steps
	 * what they do not cover.  UNW_CACHE_GLOBAL locks (and blocks every
	 * signal) around each step; PER_THREAD does not, and keeps the
	 * space's own cache where libunwind has no per-thread caches (the
	 * default, Debian's) -- or a thread's, which uw_space_for() flushes
	 * as well.  Builds without __thread turn it back into GLOBAL.
	 */
	unw_set_caching_policy(u->as, UNW_CACHE_PER_THREAD);
	return 0;
}

void uw_space_release(struct unwind *u)
{
	if (last_user == u)
		last_user = NULL;
	unw_destroy_addr_space(u->as);
}

unw_addr_space_t uw_space_for(struct unwind *u, pid_t pid)
{
	if (pid != u->pid || last_user != u) {
		unw_flush_cache(u->as, 0, 0);
		u->st.flushes++;
		u->pid = pid;
		last_user = u;
	}
	return u->as;
}
