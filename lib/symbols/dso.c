/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dso.c - an ELF file through libdwfl: symbols from .symtab/.dynsym (or a
 * separate debuginfo file), lines and inlined frames from DWARF, found the
 * standard way (/usr/lib/debug/.build-id, .gnu_debuglink, debuginfod when
 * DEBUGINFOD_URLS is set: debuginfo.c).  One Dwfl per file, so that each file can be
 * dropped on its own when no process maps it any more.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "base/regular-file.h"
#include "symbols/demangle.h"

#include "symbols/dso-internal.h"

static char *debuginfo_path;

static const Dwfl_Callbacks dso_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = debuginfo_find,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static const char *inline_name(void *arg, Dwarf_Die *die);

static struct dso *dso_alloc(const char *path, unsigned flags,
			     size_t cache_entries)
{
	struct dso *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	inlines_init(&d->inl, inline_name, d);
	d->path = strdup(path);
	d->flags = flags;
	d->cache_max = cache_entries ? cache_entries : 65536;
	if (!d->path) {
		free(d);
		return NULL;
	}
	return d;
}

struct dso *dso_new(const char *path, const char *elf_path, unsigned flags,
		    size_t cache_entries, const uint8_t *expect_build_id,
		    size_t expect_len)
{
	struct dso *d = dso_alloc(path, flags, cache_entries);

	if (!d)
		return NULL;
	if (elf_path && !(d->elf_path = strdup(elf_path)))
		goto fail;
	if (expect_build_id && expect_len) {
		d->expect_id = malloc(expect_len);
		if (!d->expect_id)
			goto fail;
		memcpy(d->expect_id, expect_build_id, expect_len);
		d->expect_len = expect_len;
	}
	return d;
fail:
	dso_free(d);
	errno = ENOMEM;
	return NULL;
}

struct dso *dso_new_memory(const char *name, const void *data, size_t size,
			   unsigned flags, size_t cache_entries)
{
	struct dso *d = dso_alloc(name, flags, cache_entries);

	if (!d)
		return NULL;
	d->image = malloc(size);
	if (!d->image) {
		dso_free(d);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(d->image, data, size);
	d->image_size = size;
	return d;
}

static bool cent_drop(void *item, void *arg)
{
	struct dso_cent *e = item;

	(void)arg;
	free(e->inl);
	free(e);
	return true;
}

/* Empty the cache; its slots stay allocated for what comes next. */
static void dso_cache_clear(struct dso *d)
{
	hashtab_remove_if(&d->cache, cent_drop, NULL);
}

static void dement_free(void *item)
{
	struct dso_dement *de = item;

	free(de->demangled);
	free(de);
}

void dso_free(struct dso *d)
{
	if (!d)
		return;
	dso_cache_clear(d);
	hashtab_release(&d->cache);
	hashtab_release_items(&d->dem, dement_free);
	inlines_release(&d->inl);
	free(d->sym);
	while (d->nplt_names)
		free(d->plt_names[--d->nplt_names]);
	free(d->plt_names);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d->image);
	free(d->expect_id);
	free(d->elf_path);
	free(d->path);
	free(d);
}

static enum sym_cause cause_of_errno(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return SYM_PERMISSION;
	case ENOENT:
	case ENOTDIR:
		return SYM_NO_FILE;
	case EMFILE:
	case ENFILE:
		return SYM_NO_FD;
	case ENOMEM:
		return SYM_NO_MEMORY;
	case ENAMETOOLONG:
		return SYM_PATH_TOO_LONG;
	default:
		return SYM_BAD_ELF;
	}
}

static void dso_read_segments(struct dso *d, Elf *elf)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n) != 0)
		return;
	for (i = 0; i < n && d->nseg < DSO_MAX_LOADS; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);

		if (ph && ph->p_type == PT_LOAD)
			d->seg[d->nseg++] = (struct dso_load_seg){
				ph->p_offset, ph->p_filesz, ph->p_vaddr };
	}
}

static bool elf_has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (sh && sh->sh_type == SHT_SYMTAB)
			return true;
	}
	return false;
}

static int dso_fail(struct dso *d, enum sym_cause cause)
{
	d->cause = cause;
	/* out of descriptors or memory for now, not for good: the next
	   lookup tries again */
	if (cause == SYM_NO_FD || cause == SYM_NO_MEMORY)
		d->loaded = false;
	inlines_release(&d->inl);
	if (d->dwfl) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		d->mod = NULL;
	}
	return -1;
}

/*
 * A file cut short (a copy that stopped, a download in progress) still
 * has a whole ELF header, and libelf takes it: its sections or headers
 * would point past the end.
 */
static bool elf_truncated(Elf *elf)
{
	size_t size = 0, n = 0;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;

	if (!elf_rawfile(elf, &size) || !gelf_getehdr(elf, &eh))
		return false;	/* not a file image: nothing to compare */
	if (eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize > size ||
	    eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > size)
		return true;
	while ((scn = elf_nextscn(elf, scn)) != NULL && n++ < 65536) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset + sh.sh_size > size)
			return true;
	}
	return false;
}

/*
 * Why libdw or libelf refused a file of size bytes, errno cleared before
 * the call: their allocations failing leave ENOMEM.  But a crafted header
 * can ask them for terabytes too: out of memory only when the file's own
 * size cannot be had either, else a bad ELF (a file from outside must
 * never stop the tool).
 */
static enum sym_cause libdw_cause(uint64_t size)
{
	void *p;

	if (errno != ENOMEM)
		return SYM_BAD_ELF;
	p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return SYM_NO_MEMORY;
	munmap(p, size ? size : 1);
	return SYM_BAD_ELF;
}

/*
 * Whether the address space has bytes to spare: under RLIMIT_AS, libdw's
 * allocations failing inside it end the process (an assertion, exit(1)
 * with "libdw: Cannot allocate memory", or a NULL followed: SIGSEGV), so
 * near the limit what it would read is left out rather than read.
 * Always room without the limit.
 */
static bool dso_room(uint64_t bytes)
{
	static int limited = -1;
	static uint64_t limit;
	unsigned long long pages;
	struct rlimit rl;
	char buf[64];
	ssize_t n;
	int fd;

	if (limited < 0) {
		limited = getrlimit(RLIMIT_AS, &rl) == 0 &&
			  rl.rlim_cur != RLIM_INFINITY;
		limit = limited ? (uint64_t)rl.rlim_cur : 0;
	}
	if (!limited)
		return true;
	fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &pages) != 1)
		return false;
	return pages * (uint64_t)sysconf(_SC_PAGESIZE) + bytes <= limit;
}

/* What libdw takes to read a line table, and an image in memory (its
   ELF and the module's tables) besides the image's own bytes. */
#define DSO_LINES_ROOM (6ull << 20)
#define DSO_IMAGE_ROOM (2ull << 20)

int dso_load(struct dso *d)
{
	const char *file = d->elf_path ? d->elf_path : d->path;
	const unsigned char *id;
	uint64_t size = d->image_size;
	GElf_Addr vaddr;
	Elf *elf;
	int fd, idlen;

	if (d->loaded)
		return d->cause == SYM_OK ? 0 : -1;
	d->loaded = true;
	errno = 0;
	d->dwfl = dwfl_begin(&dso_callbacks);
	if (!d->dwfl)
		return dso_fail(d, SYM_NO_MEMORY);	/* its only failure */

	if (d->image) {
		/* libdw follows its own failed allocation here (SIGSEGV seen
		   under ulimit -v): near the limit, the image is not read */
		if (!dso_room(DSO_IMAGE_ROOM + d->image_size))
			return dso_fail(d, SYM_NO_MEMORY);
		d->mod = dwfl_report_offline_memory(d->dwfl, d->path, d->path,
						    d->image, d->image_size);
	} else {
		/*
		 * Tell a missing or unreadable file from a corrupt one.  The
		 * path came from the target's mappings: by now anyone who can
		 * write its directory may have put a FIFO there, so open it
		 * once, without blocking, as a regular file, and hand libdw
		 * that descriptor, not the name.
		 */
		struct stat st;

		fd = regular_file_open(file, 0, &st);
		if (fd < 0)
			return dso_fail(d, cause_of_errno(errno));
		size = (uint64_t)st.st_size;
		/* The path now names another file than the one mapped. */
		if (!d->elf_path && d->expect_ino &&
		    (uint64_t)st.st_ino != d->expect_ino) {
			close(fd);
			return dso_fail(d, SYM_REPLACED);
		}
		/* Module addresses are the file's own vaddrs (bias 0).  On
		   success the module owns fd; on failure it is still ours. */
		errno = 0;
		d->mod = dwfl_report_elf(d->dwfl, d->path, file, fd, 0, true);
		if (!d->mod)
			close(fd);
	}
	if (!d->mod || dwfl_report_end(d->dwfl, NULL, NULL) != 0)
		return dso_fail(d, libdw_cause(size));

	errno = 0;
	elf = dwfl_module_getelf(d->mod, &d->bias);
	if (!elf)
		return dso_fail(d, libdw_cause(size));
	if (elf_truncated(elf))
		return dso_fail(d, SYM_BAD_ELF);
	dso_read_segments(d, elf);
	if (d->nseg == 0)
		return dso_fail(d, SYM_BAD_ELF);

	idlen = dwfl_module_build_id(d->mod, &id, &vaddr);
	if (d->expect_id && idlen > 0 &&
	    ((size_t)idlen != d->expect_len ||
	     memcmp(id, d->expect_id, d->expect_len) != 0))
		return dso_fail(d, SYM_BUILD_ID_MISMATCH);

	d->has_symtab = elf_has_symtab(elf);
	if (!(d->flags & SYMBOLS_NO_LINES)) {
		Dwarf_Addr dbias;

		/* Finds separate debuginfo too, and with it a .symtab. */
		d->has_dwarf = dwfl_module_getdwarf(d->mod, &dbias) != NULL;
		if (d->has_dwarf)
			d->has_symtab = true;
	}
	if (dwfl_module_getsymtab(d->mod) < 0 && !d->has_dwarf)
		d->has_symtab = false;
	d->cause = SYM_OK;
	return 0;
}

void dso_set_cause(struct dso *d, enum sym_cause cause)
{
	d->loaded = true;
	d->cause = cause;
}

enum sym_cause dso_cause(const struct dso *d)
{
	return d->cause;
}

const char *dso_name(const struct dso *d)
{
	return d->path;
}

const char *dso_elf_path(const struct dso *d)
{
	return d->elf_path;
}

void dso_set_inode(struct dso *d, uint64_t ino)
{
	d->expect_ino = ino;
}

uint64_t dso_inode(const struct dso *d)
{
	return d->expect_ino;
}

const void *dso_image(const struct dso *d, size_t *size)
{
	*size = d->image_size;
	return d->image;
}

int dso_offset_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr)
{
	unsigned i;

	for (i = 0; i < d->nseg; i++) {
		const struct dso_load_seg *s = &d->seg[i];

		if (off >= s->offset && off - s->offset < s->filesz) {
			*vaddr = off - s->offset + s->vaddr;
			return 0;
		}
	}
	return -1;
}

const uint8_t *dso_build_id(struct dso *d, size_t *len)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int n;

	if (dso_load(d) != 0)
		return NULL;
	n = dwfl_module_build_id(d->mod, &id, &vaddr);
	if (n <= 0)
		return NULL;
	*len = (size_t)n;
	return id;
}

int dso_read_build_id(const char *path, uint8_t *buf, size_t bufsz)
{
	int fd = regular_file_open(path, 0, NULL);
	const void *id;
	ssize_t n = 0;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	n = dwelf_elf_gnu_build_id(elf, &id);
	if (n > 0 && (size_t)n <= bufsz)
		memcpy(buf, id, (size_t)n);
	else
		n = 0;
	elf_end(elf);
	close(fd);
	return (int)n;
}

/* DF_1_PIE in the dynamic section: what tells a PIE from a library. */
static bool elf_is_pie(Elf *elf)
{
	uint64_t flags;

	return dso_dynamic_tag(elf, DT_FLAGS_1, &flags) && (flags & DF_1_PIE);
}

int dso_read_is_program(const char *path)
{
	int fd = regular_file_open(path, 0, NULL), r = 0;
	GElf_Ehdr mem, *eh;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	eh = elf ? gelf_getehdr(elf, &mem) : NULL;
	if (!eh) {
		if (elf)
			elf_end(elf);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (eh->e_type == ET_EXEC)
		r = 1;
	else if (eh->e_type == ET_DYN)
		r = elf_is_pie(elf);
	elf_end(elf);
	close(fd);
	return r;
}

/* --- demangling, once per symbol ------------------------------------- */

static bool dement_eq(const void *item, const void *key)
{
	return ((const struct dso_dement *)item)->mangled == key;
}

/* name is libdw's string and lives as long as the Dwfl: key by pointer. */
static const char *dso_demangle(struct dso *d, const char *name)
{
	size_t h = hash_u64((uint64_t)(uintptr_t)name);
	struct dso_dement *de;

	if (!name || (d->flags & SYMBOLS_NO_DEMANGLE) || name[0] != '_' ||
	    name[1] != 'Z')
		return name;
	de = hashtab_find(&d->dem, h, dement_eq, name);
	if (!de) {
		de = malloc(sizeof(*de));
		if (!de)
			return name;
		de->mangled = name;
		de->demangled = demangle(name);
		if (hashtab_add(&d->dem, h, de) != 0) {
			free(de->demangled);
			free(de);
			return name;	/* correct, if slower next time */
		}
	}
	return de->demangled ? de->demangled : name;
}

/*
 * A line's file as a path from /: a relative name (a compiler run as
 * "gcc ../src/f.c", or ccache with CCACHE_BASEDIR) is of the directory
 * the CU was compiled in, not of ours.  file is libdw's: keyed by pointer
 * as names are.  Without memory, or a directory, file as it is.
 */
static const char *dso_source_path(struct dso *d, Dwfl_Line *l,
				   const char *file)
{
	size_t h = hash_u64((uint64_t)(uintptr_t)file);
	const char *dir;
	struct dso_dement *de;

	if (!file || file[0] == '/')
		return file;
	de = hashtab_find(&d->dem, h, dement_eq, file);
	if (de)
		return de->demangled ? de->demangled : file;
	dir = dwfl_line_comp_dir(l);
	if (!dir || dir[0] != '/' || !(de = malloc(sizeof(*de))))
		return file;
	de->mangled = file;
	if (asprintf(&de->demangled, "%s/%s", dir, file) < 0)
		de->demangled = NULL;
	if (hashtab_add(&d->dem, h, de) != 0) {
		free(de->demangled);
		free(de);
		return file;
	}
	return de->demangled ? de->demangled : file;
}

/* --- inlined frames ---------------------------------------------------- */

static const char *die_function_name(struct dso *d, Dwarf_Die *die)
{
	Dwarf_Attribute mem, *a;
	const char *name;

	a = dwarf_attr_integrate(die, DW_AT_linkage_name, &mem);
	if (!a)
		a = dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &mem);
	name = a ? dwarf_formstring(a) : NULL;
	if (name)
		return dso_demangle(d, name);
	return dwarf_diename(die);
}

static const char *inline_name(void *arg, Dwarf_Die *die)
{
	return die_function_name(arg, die);
}

/*
 * Inline chain at module address a: inl[0] the innermost inlined function
 * at the line table's file:line, then each caller at the call site of the
 * frame before, ending with the subprogram the code belongs to
 * (inlines.c, from the CU's tree built once).
 */
static unsigned dso_inlines(struct dso *d, Dwarf_Addr a, const char *file,
			    int line, struct sym_inline **out)
{
	struct sym_inline frames[DSO_MAX_INLINE];
	Dwarf_Addr bias;
	Dwarf_Die *cu;
	unsigned n;

	*out = NULL;
	cu = dwfl_module_addrdie(d->mod, a, &bias);
	if (!cu)
		return 0;
	n = inlines_chain(&d->inl, cu, a - bias, file, line, frames,
			  DSO_MAX_INLINE);
	if (n < 2)
		return 0;	/* no inlining: the symbol says it all */
	*out = malloc(n * sizeof(**out));
	if (!*out)
		return 0;
	memcpy(*out, frames, n * sizeof(**out));
	return n;
}

/* --- the cache and the lookup ------------------------------------------ */

static bool cent_eq(const void *item, const void *key)
{
	return ((const struct dso_cent *)item)->addr == *(const uint64_t *)key;
}

static void dso_resolve(struct dso *d, uint64_t vaddr, struct dso_cent *e)
{
	Dwarf_Addr a = vaddr + d->bias;
	const struct dso_sym *ds;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name;

	if (!d->sym_built)
		dso_build_symtab(d);
	if (d->sym) {
		ds = dso_sym_find(d, a);
		name = ds ? ds->name : NULL;
		off = ds ? a - ds->start : 0;
	} else {
		name = dwfl_module_addrinfo(d->mod, a, &off, &sym, NULL, NULL,
					    NULL);
	}
	e->sym = dso_demangle(d, name);
	e->off = off;
	e->cause = SYM_OK;
	if (!name)
		e->cause = d->has_symtab ? SYM_NO_SYMBOL : SYM_STRIPPED;

	if (d->flags & SYMBOLS_NO_LINES)
		return;
	if (d->has_dwarf && dso_room(DSO_LINES_ROOM)) {
		Dwfl_Line *l = dwfl_module_getsrc(d->mod, a);

		if (l)
			e->file = dso_source_path(d, l,
				dwfl_lineinfo(l, NULL, &e->line, NULL, NULL,
					      NULL));
		if (e->line < 0)	/* libdw's unsigned line, cast */
			e->line = 0;
		if (e->file && !(d->flags & SYMBOLS_NO_INLINES))
			e->n_inline = (uint8_t)dso_inlines(d, a, e->file,
							   e->line, &e->inl);
	}
	/*
	 * A file with DWARF that has no line here holds code built without
	 * -g in a program built with it (crt1.o's _start, in every DWARF
	 * chain; assembly): "rebuild with -g" would be wrong advice.
	 */
	if (!e->file && e->cause == SYM_OK && !d->has_dwarf)
		e->cause = SYM_NO_DEBUGINFO;
}

/*
 * The answer for addr is cached.  Past cache_max entries the cache is
 * emptied rather than grown, so memory stays bounded.  Without memory
 * for an entry the answer is still given, without its inline frames.
 */
int dso_lookup(struct dso *d, uint64_t addr, struct sym_result *out)
{
	size_t h = hash_u64(addr);
	struct dso_cent *e, tmp;

	out->sym = out->file = NULL;
	out->off = 0;
	out->line = 0;
	out->n_inline = 0;
	out->inl = NULL;
	if (dso_load(d) != 0) {
		out->cause = d->cause;
		return -1;
	}
	d->lookups++;
	e = hashtab_find(&d->cache, h, cent_eq, &addr);
	if (e) {
		d->hits++;
		goto fill;
	}
	if (hashtab_count(&d->cache) >= d->cache_max)
		dso_cache_clear(d);
	e = calloc(1, sizeof(*e));
	if (!e) {
		memset(&tmp, 0, sizeof(tmp));
		e = &tmp;
	}
	e->addr = addr;
	dso_resolve(d, addr, e);
	if (e == &tmp || hashtab_add(&d->cache, h, e) != 0) {
		if (e != &tmp) {
			tmp = *e;
			free(e);
			e = &tmp;
		}
		free(tmp.inl);	/* cannot keep it anywhere */
		tmp.inl = NULL;
		tmp.n_inline = 0;
	}
fill:
	out->sym = e->sym;
	out->off = e->off;
	out->file = e->file;
	out->line = e->line;
	out->n_inline = e->n_inline;
	out->inl = e->inl;
	out->cause = e->cause;
	return e->sym ? 0 : -1;
}

void dso_cache_stats(const struct dso *d, uint64_t *lookups, uint64_t *hits,
		     size_t *bytes)
{
	*lookups = d->lookups;
	*hits = d->hits;
	*bytes = (d->cache.slot ? (d->cache.mask + 1) * sizeof(*d->cache.slot)
				: 0) +
		 hashtab_count(&d->cache) * sizeof(struct dso_cent);
}

int dso_tag(const struct dso *d)
{
	return d->tag;
}

void dso_set_tag(struct dso *d, int tag)
{
	d->tag = tag;
}

unsigned dso_get(struct dso *d)
{
	return ++d->refs;
}

unsigned dso_put(struct dso *d)
{
	return --d->refs;
}

unsigned dso_refs(const struct dso *d)
{
	return d->refs;
}
