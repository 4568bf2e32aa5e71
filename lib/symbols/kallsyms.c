/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kallsyms.c - parse /proc/kallsyms into a sorted table of text symbols. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "symbols/addrsearch.h"
#include "symbols/kallsyms.h"

struct ksym {
	uint64_t addr;
	const char *name;
	const char *module;	/* "[kernel.kallsyms]" or "[mod]" */
};

struct kallsyms {
	char *buf;		/* the file, names cut in place */
	struct ksym *sym;
	size_t n;
	bool hidden;
};

static const char kernel_module[] = "[kernel.kallsyms]";

/* The whole file: /proc files report size 0, so read until EOF. */
static char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 0, n = 0;
	char *buf = NULL;
	ssize_t r;

	if (fd < 0)
		return NULL;
	for (;;) {
		/* room for a large read and the terminating NUL */
		if (ARRAY_GROW(buf, n + 65536 + 1, cap) != 0)
			goto fail;
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

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

struct kallsyms *kallsyms_load(const char *path)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	size_t len, lines = 0, cap;
	char *p, *end, *eol;
	bool any_nonzero = false;

	if (!ks)
		return NULL;
	ks->buf = read_all(path, &len);
	if (!ks->buf)
		goto fail;
	end = ks->buf + len;
	for (p = ks->buf; p < end; p++)
		lines += *p == '\n';
	cap = lines + 1;
	ks->sym = malloc(cap * sizeof(*ks->sym));
	if (!ks->sym)
		goto fail;

	/* "ffffffff81000000 T _stext" or "... t name\t[module]" */
	for (p = ks->buf; p < end; p = eol + 1) {
		uint64_t addr = 0;
		char *name, *mod;
		int h;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		*eol = '\0';
		while ((h = hexval((unsigned char)*p)) >= 0) {
			addr = addr << 4 | (unsigned)h;
			p++;
		}
		if (p[0] != ' ' || !p[1] || p[2] != ' ')
			continue;
		if (!is_text(p[1]))
			continue;
		name = p + 3;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod != '[')
				mod = NULL;
		}
		if (addr)
			any_nonzero = true;
		ks->sym[ks->n++] = (struct ksym){ addr, name,
					mod ? mod : kernel_module };
	}
	if (ks->n == 0) {
		errno = EINVAL;
		goto fail;
	}
	ks->hidden = !any_nonzero;
	qsort(ks->sym, ks->n, sizeof(*ks->sym), ksym_cmp);
	return ks;
fail:
	kallsyms_free(ks);
	return NULL;
}

void kallsyms_free(struct kallsyms *ks)
{
	int saved = errno;

	if (!ks)
		return;
	free(ks->sym);
	free(ks->buf);
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
	*module = ks->sym[lo].module;
	return ks->sym[lo].name;
}
