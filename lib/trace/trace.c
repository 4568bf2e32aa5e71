/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.c - tracepoint records through their tracefs formats, with
 * libtraceevent (the parser of print fmts that perf and trace-cmd use).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include <sysapi/tracepoint.h>
#include "base/regular-file.h"
#include "trace.h"

/* A format is a few kilobytes; one past this is not tracefs's. */
#define FORMAT_MAX (1u << 20)
/*
 * libtraceevent parses a print fmt by recursion, one frame per bracket
 * and per operator, without a bound: a crafted format nesting 50,000
 * deep overflows the stack (perf crashes the same way).  The kernel's
 * deepest nests 14 and has 271 operator characters (Linux 6.1).
 */
#define FORMAT_NEST_MAX 64
#define FORMAT_OPS_MAX 4096
/* Zero bytes after a record's copy: a string the kernel left without
   its NUL ends there, not past the buffer. */
#define PAD 8

struct tf_event {
	char *name;			/* "SYS:NAME" */
	struct tep_event *ev;
	bool pretty;			/* its print fmt parsed */
	size_t min_size;		/* the end of its last fixed field */
	const char **fields;		/* the names, common_* left out */
	size_t nfields;
};

struct trace_formats {
	char *dir;
	struct tep_handle *tep;
	struct tf_event *events;
	size_t n;
	struct trace_seq seq;
	uint8_t *copy;			/* a record, then PAD zero bytes */
	size_t copy_size;		/* allocated */
	size_t copy_len;		/* the record's length */
	/* the print fmt's text of the record in copy, once made: the
	   fields of one record read one after the other (a table's
	   columns) print it once */
	char *pretty;
	size_t pretty_cap;
	bool pretty_made;
};

struct trace_formats *trace_formats_new(const char *dir)
{
	struct trace_formats *tf;

	if (!dir && !(dir = pc_tracefs_dir()))
		return NULL;
	tf = calloc(1, sizeof(*tf));
	if (!tf)
		return NULL;
	tf->dir = strdup(dir);
	tf->tep = tep_alloc();
	if (!tf->dir || !tf->tep) {
		trace_formats_free(tf);
		errno = ENOMEM;
		return NULL;
	}
	/* a library does not print: libtraceevent warns on stderr */
	tep_set_loglevel(TEP_LOG_NONE);
	tep_set_long_size(tf->tep, (int)sizeof(long));
	tep_set_page_size(tf->tep, (int)sysconf(_SC_PAGESIZE));
	tep_set_file_bigendian(tf->tep, tep_is_bigendian() ?
			       TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tf->tep, tep_is_bigendian() ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	trace_seq_init(&tf->seq);
	return tf;
}

void trace_formats_free(struct trace_formats *tf)
{
	if (!tf)
		return;
	for (size_t i = 0; i < tf->n; i++) {
		free(tf->events[i].name);
		free(tf->events[i].fields);
	}
	free(tf->events);
	if (tf->tep)
		tep_free(tf->tep);
	trace_seq_destroy(&tf->seq);
	free(tf->copy);
	free(tf->pretty);
	free(tf->dir);
	free(tf);
}

static struct tf_event *by_name(const struct trace_formats *tf,
				const char *name)
{
	for (size_t i = 0; i < tf->n; i++)
		if (!strcmp(tf->events[i].name, name))
			return &tf->events[i];
	return NULL;
}

/* A part of SYS:NAME that names one directory below events/. */
static bool part_ok(const char *s, size_t len)
{
	return len && len < 256 && !memchr(s, '/', len) &&
	       !(len == 1 && s[0] == '.') &&
	       !(len == 2 && s[0] == '.' && s[1] == '.');
}

/* The whole of path (a format: tracefs says size 0, so read to EOF),
   NUL-terminated; NULL with errno. */
static char *read_format(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap), *nb;
	int fd = regular_file_open(path, 0, NULL), e;
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap >= FORMAT_MAX) {
				errno = EBADMSG;
				goto fail;
			}
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
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
	e = errno ? errno : ENOMEM;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = e;
	return NULL;
}

/* Whether line (at the start of one) begins with word, blanks
   before it allowed. */
static bool line_is(const char *line, const char *word)
{
	line += strspn(line, " \t");
	return strncmp(line, word, strlen(word)) == 0;
}

/*
 * What libtraceevent is not handed: a text without the lines every
 * format has (it says "out of memory" for a missing name), a print fmt
 * nested or chained past what its recursion takes.  The number of
 * "field:" lines into *nfields, for describe() to check that none was
 * dropped.  Returns 0, or -1 for a format to refuse.
 */
static int format_check(const char *text, size_t *nfields)
{
	bool name = false, id = false, format = false;
	const char *line, *print = NULL;
	unsigned depth = 0, deepest = 0, ops = 0;
	bool quoted = false;

	*nfields = 0;
	for (line = text; *line; line = strchr(line, '\n') + 1) {
		name |= line_is(line, "name:");
		id |= line_is(line, "ID:");
		format |= line_is(line, "format:");
		*nfields += line_is(line, "field:");
		if (!print && line_is(line, "print fmt:"))
			print = strchr(line, ':') + 1;
		if (!strchr(line, '\n'))
			break;
	}
	if (!name || !id || !format)
		return -1;
	for (const char *p = print; p && *p; p++) {
		if (*p == '\\' && quoted && p[1])
			p++;
		else if (*p == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (strchr("([{", *p) && ++depth > deepest)
			deepest = depth;
		else if (strchr(")]}", *p) && depth)
			depth--;
		else if (strchr("?:|&+-*/<>!=^~%", *p))
			ops++;
	}
	return deepest > FORMAT_NEST_MAX || ops > FORMAT_OPS_MAX ? -1 : 0;
}

/* The event's fields checked and named: common_type a u16 at 0 (the
   records are told apart by it), the fixed fields' end. */
static int describe(struct tf_event *e, size_t nlines)
{
	struct tep_format_field *f;
	size_t n = 0, all = 0;

	f = tep_find_common_field(e->ev, "common_type");
	if (!f || f->offset != 0 || f->size != 2)
		return -1;
	for (int common = 0; common < 2; common++) {
		f = common ? e->ev->format.common_fields : e->ev->format.fields;
		for (; f; f = f->next) {
			size_t end = (size_t)f->offset + (size_t)f->size;

			if (f->offset < 0 || f->size < 0)
				return -1;
			if (end > e->min_size)
				e->min_size = end;
			n += !common;
			all++;
		}
	}
	/* libtraceevent stops at a field it cannot read, and at a blank
	   line: the fields after it would be dropped without a word */
	if (all != nlines)
		return -1;
	e->fields = calloc(n + 1, sizeof(*e->fields));
	if (!e->fields)
		return -2;
	for (f = e->ev->format.fields; f; f = f->next)
		e->fields[e->nfields++] = f->name;
	return 0;
}

int trace_formats_add(struct trace_formats *tf, const char *event)
{
	const char *colon = event ? strchr(event, ':') : NULL;
	char path[1100], sys[256], name[256], *text;
	struct tf_event *e, *grown;
	enum tep_errno perr;
	size_t len, nlines;
	int r;

	if (!tf || !colon || !part_ok(event, (size_t)(colon - event)) ||
	    !part_ok(colon + 1, strlen(colon + 1))) {
		errno = EINVAL;
		return -1;
	}
	if (by_name(tf, event))
		return 0;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - event), event);
	snprintf(name, sizeof(name), "%s", colon + 1);
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tf->dir, sys,
		 name);
	text = read_format(path, &len);
	if (!text)
		return -1;
	if (format_check(text, &nlines) != 0) {
		free(text);
		errno = EBADMSG;
		return -1;
	}
	perr = tep_parse_event(tf->tep, text, len, sys);
	free(text);
	grown = realloc(tf->events, (tf->n + 1) * sizeof(*grown));
	if (!grown) {
		errno = ENOMEM;
		return -1;
	}
	tf->events = grown;
	e = memset(&tf->events[tf->n], 0, sizeof(*e));
	/* a print fmt it cannot parse leaves the event with its fields:
	   its text is then the raw one */
	e->ev = tep_find_event_by_name(tf->tep, sys, name);
	if (!e->ev || (perr != 0 && perr != TEP_ERRNO__READ_PRINT_FAILED &&
		       perr != TEP_ERRNO__PARSE_EVENT_FAILED)) {
		errno = perr == TEP_ERRNO__MEM_ALLOC_FAILED ? ENOMEM : EBADMSG;
		return -1;
	}
	e->pretty = perr == 0 && !(e->ev->flags & TEP_EVENT_FL_FAILED);
	r = describe(e, nlines);
	if (r < 0) {
		free(e->fields);
		errno = r == -2 ? ENOMEM : EBADMSG;
		return -1;
	}
	e->name = strdup(event);
	if (!e->name) {
		free(e->fields);
		errno = ENOMEM;
		return -1;
	}
	tf->n++;
	return 0;
}

const char *const *trace_formats_fields(const struct trace_formats *tf,
					const char *event, size_t *n)
{
	const struct tf_event *e = tf && event ? by_name(tf, event) : NULL;

	*n = 0;
	if (!e) {
		errno = ENOENT;
		return NULL;
	}
	*n = e->nfields;
	return e->fields;
}

void trace_event_name(const char *spec, char *buf, size_t size)
{
	const char *c = strchr(spec, ':');
	size_t len = strlen(spec);

	if (c && (c = strchr(c + 1, ':')))
		len = (size_t)(c - spec);
	snprintf(buf, size, "%.*s", (int)len, spec);
}

static struct tf_event *of_record(const struct trace_formats *tf,
				  const void *raw, size_t size)
{
	uint16_t type;

	if (!raw || size < 2) {
		errno = EBADMSG;
		return NULL;
	}
	memcpy(&type, raw, 2);
	for (size_t i = 0; i < tf->n; i++)
		if (tf->events[i].ev->id == type)
			return &tf->events[i];
	errno = ENOENT;
	return NULL;
}

const char *trace_record_event(const struct trace_formats *tf,
			       const void *raw, size_t size)
{
	const struct tf_event *e = tf ? of_record(tf, raw, size) : NULL;

	return e ? e->name : NULL;
}

/* Whether the record holds every field e's format gives it: the fixed
   ones, and the bytes each __data_loc / __rel_loc field points at. */
static bool fits(const struct tf_event *e, const uint8_t *raw, size_t size)
{
	const struct tep_format_field *f;

	if (size < e->min_size)
		return false;
	for (f = e->ev->format.fields; f; f = f->next) {
		uint32_t loc;
		size_t off, len;

		if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		if (f->size != 4)
			return false;
		memcpy(&loc, raw + f->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + (size_t)f->size;
		if (off > size || len > size - off)
			return false;
	}
	return true;
}

/* The event of raw, checked, with its bytes copied (zeros after) into
   *rec for libtraceevent; NULL with errno. */
static struct tf_event *prepare(struct trace_formats *tf, const void *raw,
				size_t size, struct tep_record *rec)
{
	struct tf_event *e = of_record(tf, raw, size);

	if (!e)
		return NULL;
	if (size > INT32_MAX || !fits(e, raw, size)) {
		errno = EBADMSG;
		return NULL;
	}
	/* the record read last: its copy and its text stand */
	if (!tf->copy || size != tf->copy_len || memcmp(tf->copy, raw, size)) {
		if (tf->copy_size < size + PAD) {
			uint8_t *c = realloc(tf->copy, size + PAD);

			if (!c) {
				errno = ENOMEM;
				return NULL;
			}
			tf->copy = c;
			tf->copy_size = size + PAD;
		}
		memcpy(tf->copy, raw, size);
		memset(tf->copy + size, 0, PAD);
		tf->copy_len = size;
		tf->pretty_made = false;
	}
	memset(rec, 0, sizeof(*rec));
	rec->data = tf->copy;
	rec->size = (int)size;
	trace_seq_reset(&tf->seq);
	return e;
}

/* A reading's start: the arguments checked, buf emptied, the record
   prepared; its event, or NULL with errno. */
static struct tf_event *begin(struct trace_formats *tf, const void *raw,
			      size_t size, char *buf, size_t bufsize,
			      struct tep_record *rec)
{
	if (!tf || !buf || !bufsize) {
		errno = EINVAL;
		return NULL;
	}
	buf[0] = '\0';
	return prepare(tf, raw, size, rec);
}

/* s[0..len) into buf, cut to fit; its length. */
static int put_text(const char *s, size_t len, char *buf, size_t bufsize)
{
	if (len >= bufsize)
		len = bufsize - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return (int)len;
}

/* What tf->seq holds, from its offset skip, into buf. */
static int seq_out(struct trace_formats *tf, size_t skip, char *buf,
		   size_t bufsize)
{
	if (tf->seq.state == TRACE_SEQ__MEM_ALLOC_FAILED) {
		errno = ENOMEM;
		return -1;
	}
	trace_seq_terminate(&tf->seq);
	if (skip > (size_t)tf->seq.len)
		skip = (size_t)tf->seq.len;
	return put_text(tf->seq.buffer + skip, (size_t)tf->seq.len - skip,
			buf, bufsize);
}

/* The print fmt's text of the prepared record rec, made once per
   record; NULL with errno ENOMEM. */
static const char *pretty_text(struct trace_formats *tf,
			       struct tep_record *rec)
{
	size_t len;

	if (tf->pretty_made)
		return tf->pretty;
	trace_seq_reset(&tf->seq);
	tep_print_event(tf->tep, &tf->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&tf->seq);
	if (tf->seq.state == TRACE_SEQ__MEM_ALLOC_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	len = tf->seq.len;
	if (tf->pretty_cap < len + 1) {
		char *p = realloc(tf->pretty, len + 1);

		if (!p) {
			errno = ENOMEM;
			return NULL;
		}
		tf->pretty = p;
		tf->pretty_cap = len + 1;
	}
	memcpy(tf->pretty, tf->seq.buffer, len);
	tf->pretty[len] = '\0';
	tf->pretty_made = true;
	trace_seq_reset(&tf->seq);
	return tf->pretty;
}

int trace_record_text(struct trace_formats *tf, const void *raw, size_t size,
		      enum trace_style style, char *buf, size_t bufsize)
{
	struct tep_record rec;
	struct tf_event *e = begin(tf, raw, size, buf, bufsize, &rec);
	const char *t;

	if (!e)
		return -1;
	if (style == TRACE_PRETTY && e->pretty) {
		t = pretty_text(tf, &rec);
		return t ? put_text(t, strlen(t), buf, bufsize) : -1;
	}
	/* " name=value" each: the first space left out */
	tep_print_fields(&tf->seq, rec.data, rec.size, e->ev);
	return seq_out(tf, 1, buf, bufsize);
}

/* In text (one space between items), the value after " field=", or
   NULL. */
static const char *pretty_value(const char *text, const char *field,
				size_t *len)
{
	size_t flen = strlen(field);

	for (const char *p = text; (p = strstr(p, field)); p++) {
		if ((p == text || p[-1] == ' ') && p[flen] == '=') {
			p += flen + 1;
			*len = strcspn(p, " ");
			return p;
		}
	}
	return NULL;
}

int trace_record_field(struct trace_formats *tf, const void *raw,
		       size_t size, const char *field, enum trace_style style,
		       char *buf, size_t bufsize)
{
	struct tep_format_field *f;
	struct tep_record rec;
	struct tf_event *e;

	if (!field) {
		errno = EINVAL;
		return -1;
	}
	e = begin(tf, raw, size, buf, bufsize, &rec);
	if (!e)
		return -1;
	f = tep_find_field(e->ev, field);
	if (!f) {
		errno = ENOENT;
		return -1;
	}
	if (style == TRACE_PRETTY && e->pretty) {
		const char *t = pretty_text(tf, &rec), *v;
		size_t len;

		if (!t)
			return -1;
		v = pretty_value(t, field, &len);
		if (v)
			return put_text(v, len, buf, bufsize);
	}
	tep_print_field_content(&tf->seq, rec.data, rec.size, f);
	return seq_out(tf, 0, buf, bufsize);
}
