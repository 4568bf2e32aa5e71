/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* jitmap.c - read perf-PID.map files, again as they grow. */
#include "config.h"

#include <stddef.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/addrsearch.h"
#include "base/array.h"
#include "base/regular-file.h"
#include "symbols/jitmap.h"

struct jit_sym {
	uint64_t start, size;
	char *name;
};

/* Longer lines are not a JIT's symbol but garbage: skipped, not stored. */
#define JIT_LINE_MAX 4096
/* What one refresh reads at most: a huge or endless file (anyone can
   plant one) costs a bounded time per lookup, the rest waits. */
#define JIT_READ_MAX (4u << 20)

struct jitmap {
	char *path;
	struct jit_sym *sym;
	size_t n, alloc;
	off_t consumed;		/* bytes of whole lines parsed */
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

	for (i = 0; i < jm->n; i++)
		free(jm->sym[i].name);
	free(jm->sym);
	jm->sym = NULL;
	jm->n = jm->alloc = 0;
	jm->consumed = 0;
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

static int jit_cmp(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void jitmap_parse(struct jitmap *jm, char *line)
{
	uint64_t start, len;
	int pos = 0;
	char *name;

	if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &len,
		   &pos) < 2 || pos == 0)
		return;
	name = line + pos;
	name[strcspn(name, "\n")] = '\0';
	if (ARRAY_GROW(jm->sym, jm->n + 1, jm->alloc) != 0)
		return;
	jm->sym[jm->n].name = strdup(name);
	if (!jm->sym[jm->n].name)
		return;
	jm->sym[jm->n].start = start;
	jm->sym[jm->n].size = len;
	jm->n++;
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
 * Parse the whole lines added since the last read, JIT_READ_MAX bytes at
 * most.  A JIT may be writing as we read: a last line without its newline
 * is left for the next read, so that a half-written "START SIZE na"
 * never becomes a symbol.  Takes fd.
 */
static int jitmap_read(struct jitmap *jm, int fd, const struct stat *st)
{
	char line[JIT_LINE_MAX];
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
	stop = jm->consumed + JIT_READ_MAX;
	while (jm->consumed < stop && fgets(line, sizeof(line), f)) {
		/* what fgets() took, a NUL byte included: strlen() would
		   stop at one, and the next read start inside this line */
		off_t end = ftello(f);
		size_t len = end > jm->consumed ? (size_t)(end - jm->consumed) : 0;
		bool whole = len && line[len - 1] == '\n';

		if (!whole && feof(f) && !jm->skipping)
			break;		/* being written: next time */
		jm->consumed += (off_t)len;
		if (!jm->skipping && whole)
			jitmap_parse(jm, line);
		if (!jm->skipping && !whole)
			jm->long_lines++;
		jm->skipping = !whole;
	}
	fclose(f);
	if (jm->n > 1)	/* sym is NULL while n is 0 */
		qsort(jm->sym, jm->n, sizeof(*jm->sym), jit_cmp);
	/* cut short: the rest is read at the next miss */
	jm->size_seen = jm->consumed < stop ? st->st_size : -1;
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
			  enum sym_cause *cause)
{
	const struct jit_sym *js = jitmap_find(jm, addr);
	struct stat st;
	int fd;

	if (!js) {
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
		if (jitmap_read(jm, fd, &st) != 0)
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
