/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kallsyms.c - parse /proc/kallsyms into a sorted table of text symbols. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "base/regular-file.h"
#include "symbols/kallsyms.h"

/*
 * The most a kallsyms file is read: /proc/kallsyms is 5 MB on a distro
 * kernel, about 100 MB with every option built in; past this it is not
 * one (a 10M-line file would hold the tool for seconds, an endless one
 * forever).
 */
#define KALLSYMS_MAX_BYTES (256u << 20)

struct ksym {
	uint64_t addr;
	uint32_t name;		/* offset of the name in the pool */
	uint32_t module;	/* offset of "[kernel.kallsyms]"/"[mod]" */
};

/*
 * The text symbols, their names packed in one pool: /proc/kallsyms is
 * 5 MB of text of which the names of text symbols are about half, so
 * neither the file nor pointers into it are kept.
 */
struct kallsyms {
	char *pool;
	size_t pool_len, pool_alloc;
	struct ksym *sym;
	size_t n, alloc;
	uint32_t last_module;	/* the module of the previous line */
	bool hidden;
};

static const char kernel_module[] = "[kernel.kallsyms]";

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Text symbols only: t/T (and weak w/W); data would steal text ranges. */
static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* Copy s (len bytes) into the pool; its offset, or -1 with ENOMEM. */
static int64_t pool_add(struct kallsyms *ks, const char *s, size_t len)
{
	size_t off = ks->pool_len;

	if (off + len + 1 > UINT32_MAX) {
		errno = ENOMEM;
		return -1;
	}
	if (ARRAY_GROW(ks->pool, off + len + 1, ks->pool_alloc) != 0)
		return -1;
	memcpy(ks->pool + off, s, len);
	ks->pool[off + len] = '\0';
	ks->pool_len += len + 1;
	return (int64_t)off;
}

/*
 * One line, "ffffffff81000000 T _stext" or "... t name\t[module]":
 * keep a text symbol.  Returns 0, or -1 with errno ENOMEM.
 */
static int parse_line(struct kallsyms *ks, const char *p, const char *eol,
		      bool *sorted)
{
	const char *name, *tab, *prev;
	int64_t name_off, mod_off;
	size_t len;
	uint64_t addr = 0;
	int h;

	while ((h = hexval((unsigned char)*p)) >= 0) {
		addr = addr << 4 | (unsigned)h;
		p++;
	}
	if (eol - p < 4 || p[0] != ' ' || p[2] != ' ' || !is_text(p[1]))
		return 0;
	name = p + 3;
	tab = memchr(name, '\t', (size_t)(eol - name));
	len = (size_t)((tab ? tab : eol) - name);
	/*
	 * Kernels built with function padding put "__pfx_NAME" (the
	 * padding) right before NAME: half of the text symbols.  NAME is
	 * the tail of its twin's name in the pool: 1.4 MB less to keep.
	 */
	prev = ks->n ? ks->pool + ks->sym[ks->n - 1].name : NULL;
	if (prev && strncmp(prev, "__pfx_", 6) == 0 &&
	    strlen(prev + 6) == len && memcmp(prev + 6, name, len) == 0)
		name_off = (int64_t)ks->sym[ks->n - 1].name + 6;
	else
		name_off = pool_add(ks, name, len);
	if (name_off < 0)
		return -1;
	mod_off = 0;		/* kernel_module, stored first */
	if (tab && tab[1] == '[') {
		const char *last = ks->pool + ks->last_module;

		len = (size_t)(eol - tab - 1);
		/* a module's symbols come together: intern by the last */
		if (ks->last_module && strlen(last) == len &&
		    memcmp(last, tab + 1, len) == 0) {
			mod_off = ks->last_module;
		} else {
			mod_off = pool_add(ks, tab + 1, len);
			if (mod_off < 0)
				return -1;
			ks->last_module = (uint32_t)mod_off;
		}
	}
	if (ARRAY_GROW(ks->sym, ks->n + 1, ks->alloc) != 0)
		return -1;
	if (ks->n && addr < ks->sym[ks->n - 1].addr)
		*sorted = false;
	if (addr)
		ks->hidden = false;
	ks->sym[ks->n++] = (struct ksym){ addr, (uint32_t)name_off,
					  (uint32_t)mod_off };
	return 0;
}

/* Parse what buf holds after have bytes kept from the last block and
   the r just read (0: the end); keep the part line.  0 or -1. */
static int parse_block(struct kallsyms *ks, char *buf, size_t size,
		       size_t *have, ssize_t r, bool *sorted)
{
	char *p = buf, *end = buf + *have + r, *eol;

	while ((eol = memchr(p, '\n', (size_t)(end - p))) ||
	       (r == 0 && p < end && (eol = end))) {
		if (parse_line(ks, p, eol, sorted) != 0)
			return -1;
		p = eol + (eol < end);
	}
	*have = (size_t)(end - p);
	if (*have == size)	/* a line longer than the buffer */
		*have = 0;
	memmove(buf, p, *have);
	return 0;
}

/*
 * Read fd to its end, a block at a time (/proc files say size 0), at
 * most KALLSYMS_MAX_BYTES, giving up once *stop is set.  0 or -1.
 */
static int read_all(struct kallsyms *ks, int fd,
		    const volatile sig_atomic_t *stop, bool *sorted)
{
	char buf[65536];
	size_t have = 0, total = 0;
	ssize_t r;

	do {
		if (stop && *stop) {
			errno = EINTR;
			return -1;
		}
		r = read(fd, buf + have, sizeof(buf) - have);
		if (r < 0 && errno == EINTR)
			continue;	/* a stop is seen at the top */
		if (r < 0)
			return -1;
		total += (size_t)r;
		if (total > KALLSYMS_MAX_BYTES) {
			errno = EFBIG;
			return -1;
		}
		if (parse_block(ks, buf, sizeof(buf), &have, r, sorted) != 0)
			return -1;
	} while (r != 0);
	return 0;
}

struct kallsyms *kallsyms_load_until(const char *path,
				     const volatile sig_atomic_t *stop)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	bool sorted = true;
	struct stat st;
	int fd = -1;

	if (!ks)
		return NULL;
	ks->hidden = true;
	if (pool_add(ks, kernel_module, sizeof(kernel_module) - 1) < 0)
		goto fail;
	/* a FIFO would block, /dev/zero never end: regular files only
	   (/proc/kallsyms is one, of size 0) */
	fd = regular_file_open(path, 0, &st);
	if (fd < 0)
		goto fail;
	if (st.st_size > (off_t)KALLSYMS_MAX_BYTES) {
		errno = EFBIG;
		goto fail;
	}
	/* opened without blocking; a /proc or tracefs file may block
	   still, until a signal (its EINTR is a stop) */
	if (fcntl(fd, F_SETFL, 0) != 0 || read_all(ks, fd, stop, &sorted))
		goto fail;
	close(fd);
	fd = -1;
	if (ks->n == 0) {
		errno = ENODATA;
		goto fail;
	}
	/* the core kernel comes sorted; modules may not */
	if (!sorted)
		qsort(ks->sym, ks->n, sizeof(*ks->sym), ksym_cmp);
	return ks;
fail:
	if (fd >= 0) {
		int saved = errno;

		close(fd);
		errno = saved;
	}
	kallsyms_free(ks);
	return NULL;
}

void kallsyms_free(struct kallsyms *ks)
{
	int saved = errno;

	if (!ks)
		return;
	free(ks->sym);
	free(ks->pool);
	free(ks);
	errno = saved;
}

bool kallsyms_hidden(const struct kallsyms *ks)
{
	return ks->hidden;
}

size_t kallsyms_count(const struct kallsyms *ks)
{
	return ks->n;
}

const char *kallsyms_lookup(const struct kallsyms *ks, uint64_t addr,
			    uint64_t *off, const char **module)
{
	size_t lo;

	if (ks->hidden)
		return NULL;
	/* The last symbol whose start is <= addr. */
	lo = addr_upper_bound(ks->sym, ks->n, sizeof(*ks->sym),
			      offsetof(struct ksym, addr), addr);
	if (lo-- == 0)
		return NULL;
	/*
	 * Past the last symbol there is no next start to end it: accept
	 * only a page, not the rest of the address space.
	 */
	if (lo == ks->n - 1 && addr - ks->sym[lo].addr >= 4096)
		return NULL;
	*off = addr - ks->sym[lo].addr;
	*module = ks->pool + ks->sym[lo].module;
	return ks->pool + ks->sym[lo].name;
}
