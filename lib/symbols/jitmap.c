/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* jitmap.c - read perf-PID.map files, again as they grow. */
#include "config.h"

#include <stddef.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "base/clock.h"
#include "base/regular-file.h"
#include "symbols/jitmap.h"

/* A function of the map (a JIT's map can hold millions of them). */
struct jit_sym {
	uint64_t start;
	const char *name;	/* in a block of names */
	uint32_t size;		/* a longer one is cut to 4 GiB */
	uint32_t line;		/* its line's rank in the file, for order */
};

/*
 * Names are copied into blocks that never move: a name handed out stays
 * where it is while later reads add more (a caller resolving a chain
 * holds several at once), until a fresh start or jitmap_free().
 */
#define JIT_BLOCK (256u << 10)

/* Longer lines are not a JIT's symbol but garbage: skipped, not stored. */
#define JIT_LINE_MAX 4096
/* What one refresh reads at most: a huge or endless file (anyone can
   plant one) costs a bounded time per lookup, the rest waits.  The lines
   of such a chunk are merged into the table together, once it is read
   whole (over several budgets: jitmap_lookup()) or the file ends. */
#define JIT_READ_MAX (4u << 20)
/* A read within a budget looks at the CPU clock every this many lines. */
#define JIT_CLOCK_LINES 1024

struct jitmap {
	char *path;
	struct jit_sym *sym;	/* sorted by start; at one start, the
				   line read last comes last */
	size_t n, alloc;
	char **blocks;		/* of JIT_BLOCK bytes (or one long name) */
	size_t nblocks, ablocks;
	size_t block_used;	/* bytes of the last block taken */
	uint32_t lines;		/* lines parsed since the fresh start */
	struct jit_sym *fresh;	/* lines of the chunk under way */
	size_t nfresh, afresh;
	off_t consumed;		/* bytes of whole lines parsed */
	off_t chunk;		/* where the chunk under way starts */
	off_t size_seen;	/* file size when last read; -1 never read */
	bool skipping;		/* inside an overlong line */
	size_t long_lines;	/* lines skipped for their length */
	uid_t owner;		/* trusted besides root */
	enum sym_cause refused;	/* why the file is not read, or SYM_OK */
	dev_t dev;		/* the file read, to see it replaced */
	ino_t ino;
};

struct jitmap *jitmap_new(const char *path, uid_t owner)
{
	struct jitmap *jm = calloc(1, sizeof(*jm));

	if (!jm)
		return NULL;
	jm->path = strdup(path);
	if (!jm->path) {
		free(jm);
		return NULL;
	}
	jm->size_seen = -1;
	jm->owner = owner;
	return jm;
}

static void jitmap_release(struct jitmap *jm)
{
	size_t i;

	for (i = 0; i < jm->nblocks; i++)
		free(jm->blocks[i]);
	free(jm->blocks);
	free(jm->sym);
	free(jm->fresh);
	jm->sym = jm->fresh = NULL;
	jm->blocks = NULL;
	jm->n = jm->alloc = jm->nfresh = jm->afresh = 0;
	jm->nblocks = jm->ablocks = jm->block_used = 0;
	jm->lines = 0;
	jm->consumed = jm->chunk = 0;
	jm->skipping = false;
	jm->long_lines = 0;
}

void jitmap_free(struct jitmap *jm)
{
	if (!jm)
		return;
	jitmap_release(jm);
	free(jm->path);
	free(jm);
}

/* By start; at one start, in the file's order (qsort is not stable). */
static int jit_cmp(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* Room for len bytes that will not move; NULL with errno ENOMEM. */
static char *jitmap_name_room(struct jitmap *jm, size_t len)
{
	size_t size = len > JIT_BLOCK ? len : JIT_BLOCK;
	char *b;

	if (jm->nblocks && jm->block_used + len <= JIT_BLOCK) {
		b = jm->blocks[jm->nblocks - 1] + jm->block_used;
		jm->block_used += len;
		return b;
	}
	if (ARRAY_GROW(jm->blocks, jm->nblocks + 1, jm->ablocks) != 0)
		return NULL;
	b = malloc(size);
	if (!b)
		return NULL;
	jm->blocks[jm->nblocks++] = b;
	jm->block_used = len;
	return b;
}

/* A hex number at *p, then spaces: 0 and *v, or -1. */
static int hex_field(const char **p, uint64_t *v)
{
	const char *s = *p;
	unsigned digits = 0;

	*v = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++, digits++) {
		unsigned c = (unsigned char)*s, d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		if (digits == 16)
			return -1;	/* past 64 bits */
		*v = *v << 4 | d;
	}
	if (!digits || (*s != ' ' && *s != '\t'))
		return -1;
	while (*s == ' ' || *s == '\t')
		s++;
	*p = s;
	return 0;
}

/* One whole line, "START SIZE name\n" (hex), into jm->fresh. */
static void jitmap_parse(struct jitmap *jm, const char *line, size_t len)
{
	const char *p = line;
	uint64_t start, size;
	size_t nlen;
	char *name;

	if (hex_field(&p, &start) != 0 || hex_field(&p, &size) != 0 ||
	    jm->lines == UINT32_MAX)
		return;
	nlen = len - (size_t)(p - line) - 1;	/* no newline */
	if (ARRAY_GROW(jm->fresh, jm->nfresh + 1, jm->afresh) != 0 ||
	    !(name = jitmap_name_room(jm, nlen + 1)))
		return;
	memcpy(name, p, nlen);
	name[nlen] = '\0';
	jm->fresh[jm->nfresh++] = (struct jit_sym){
		start, name, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
		jm->lines++ };
}

/*
 * The lines of this read, sorted, merged into the table: a read costs
 * its own lines' sort and one pass over the table, not a sort of all
 * (a map of millions of lines is read 4 MiB at a time).
 */
static void jitmap_merge(struct jitmap *jm)
{
	size_t i, j, w;

	if (!jm->nfresh)
		return;
	qsort(jm->fresh, jm->nfresh, sizeof(*jm->fresh), jit_cmp);
	if (ARRAY_GROW(jm->sym, jm->n + jm->nfresh, jm->alloc) != 0) {
		jm->nfresh = 0;	/* these lines are lost, not the table */
		return;
	}
	/* from the back, into the room past the table: no second copy */
	i = jm->n;
	j = jm->nfresh;
	w = jm->n + jm->nfresh;
	while (j > 0) {
		if (i > 0 && jit_cmp(&jm->sym[i - 1], &jm->fresh[j - 1]) > 0)
			jm->sym[--w] = jm->sym[--i];
		else
			jm->sym[--w] = jm->fresh[--j];
	}
	jm->n += jm->nfresh;
	jm->nfresh = 0;
}

/*
 * Open the map as an untrusted file: anyone can create /tmp/perf-PID.map
 * before the JIT does.  Never block (a FIFO), never follow a link (to
 * /dev/zero, or to a file of root's), read only a regular file owned by
 * root or by the process's user (perf's rule, "not owned by current user
 * or root").  Returns the descriptor with *st, or -1 with jm->refused
 * set.
 */
static int jitmap_open(struct jitmap *jm, struct stat *st)
{
	int fd = regular_file_open(jm->path, O_NOFOLLOW, st);

	if (fd < 0) {
		switch (errno) {
		case ELOOP:	/* a link */
		case EINVAL:	/* a FIFO, a device */
		case ENXIO:	/* a socket */
			jm->refused = SYM_JIT_MAP_NOT_FILE;
			break;
		case EISDIR:
			jm->refused = SYM_JIT_MAP_DIR;
			break;
		case EACCES:
			jm->refused = SYM_PERMISSION;
			break;
		default:
			jm->refused = SYM_JIT_NO_MAP;
		}
		return -1;
	}
	if (st->st_uid != 0 && st->st_uid != jm->owner)
		jm->refused = SYM_JIT_MAP_UNTRUSTED;
	else
		jm->refused = SYM_OK;
	if (jm->refused != SYM_OK) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Parse the whole lines added since the last read, up to the end of the
 * chunk under way, and until the CPU clock (of this thread, in ms) passes
 * until; merge the chunk once it is read whole.  A JIT may be writing as
 * we read: a last line without its newline is left for the next read, so
 * that a half-written "START SIZE na" never becomes a symbol.  Takes fd.
 */
static int jitmap_read(struct jitmap *jm, int fd, const struct stat *st,
		       double until)
{
	char line[JIT_LINE_MAX];
	bool cut = false;
	unsigned n = 0;
	off_t stop;
	FILE *f;

	if (st->st_dev != jm->dev || st->st_ino != jm->ino ||
	    st->st_size < jm->consumed)
		jitmap_release(jm);	/* rewritten: start over */
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -1;
	}
	if (fseeko(f, jm->consumed, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	jm->dev = st->st_dev;
	jm->ino = st->st_ino;
	stop = jm->chunk + JIT_READ_MAX;
	while (jm->consumed < stop && fgets(line, sizeof(line), f)) {
		/* what fgets() took, a NUL byte included: strlen() would
		   stop at one, and the next read start inside this line */
		off_t end = ftello(f);
		size_t len = end > jm->consumed ? (size_t)(end - jm->consumed) : 0;
		bool whole = len && line[len - 1] == '\n';

		if (!whole && feof(f) && !jm->skipping)
			break;		/* being written: next time */
		jm->consumed += (off_t)len;
		if (!jm->skipping && whole && !memchr(line, '\0', len))
			jitmap_parse(jm, line, len);
		if (!jm->skipping && !whole)
			jm->long_lines++;
		jm->skipping = !whole;
		if (++n % JIT_CLOCK_LINES == 0 &&
		    clock_ms(CLOCK_THREAD_CPUTIME_ID) >= until) {
			cut = true;
			break;
		}
	}
	fclose(f);
	if (!cut) {
		jitmap_merge(jm);
		jm->chunk = jm->consumed;
	}
	/* cut short: the rest is read at the next miss */
	jm->size_seen = !cut && jm->consumed < stop ? st->st_size : -1;
	return 0;
}

static const struct jit_sym *jitmap_find(const struct jitmap *jm,
					 uint64_t addr)
{
	size_t lo = addr_upper_bound(jm->sym, jm->n, sizeof(*jm->sym),
				     offsetof(struct jit_sym, start), addr);

	/* Entries may overlap when code was regenerated: newest is later in
	   the file, but we keep it simple and take the nearest start. */
	if (lo == 0)
		return NULL;
	lo--;
	if (addr - jm->sym[lo].start < jm->sym[lo].size)
		return &jm->sym[lo];
	return NULL;
}

const char *jitmap_lookup(struct jitmap *jm, uint64_t addr, uint64_t *off,
			  enum sym_cause *cause, double *budget_ms)
{
	const struct jit_sym *js = jitmap_find(jm, addr);
	double t0 = budget_ms ? clock_ms(CLOCK_THREAD_CPUTIME_ID) : 0;
	struct stat st;
	int fd, rc;

	if (!js) {
		if (budget_ms && *budget_ms <= 0)
			goto miss;	/* read on with the next budget */
		fd = jitmap_open(jm, &st);
		if (fd < 0 && jm->refused != SYM_JIT_NO_MAP)
			jitmap_release(jm);	/* replaced by a plant */
		if (fd < 0)
			goto miss;
		if (st.st_size == jm->size_seen && st.st_ino == jm->ino &&
		    st.st_dev == jm->dev) {
			close(fd);
			goto miss;
		}
		rc = jitmap_read(jm, fd, &st, budget_ms ? t0 + *budget_ms
							 : HUGE_VAL);
		if (budget_ms)
			*budget_ms -= clock_ms(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (rc != 0)
			goto miss;
		js = jitmap_find(jm, addr);
		if (!js)
			goto miss;
	}
	*off = addr - js->start;
	return js->name;
miss:
	if (cause)
		*cause = jm->refused != SYM_OK ? jm->refused :
			 jm->long_lines ? SYM_JIT_LINE_TOO_LONG :
			 SYM_NO_SYMBOL;
	return NULL;
}

size_t jitmap_long_lines(const struct jitmap *jm)
{
	return jm->long_lines;
}
