/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.h - a tracepoint sample's record read through its format.
 *
 * A tracepoint sampled with PERF_SAMPLE_RAW carries the event's record:
 * bytes laid out as tracefs's events/SYS/NAME/format says, with a
 * "print fmt" that makes a line of text of them.  This reads the
 * formats with libtraceevent, as perf does, so that a record reads as
 * perf shows it: the print fmt's text (perf's "trace" sort), each field
 * as name=value (perf's --raw-trace), or one field's value (perf's
 * dynamic sort keys, -s prev_comm).
 *
 * Records are checked against their format before libtraceevent reads
 * them: a record shorter than its fields, or a string field pointing
 * outside the record, is refused (EBADMSG), never read past.
 *
 * Never prints (libtraceevent's own warnings are silenced) and never
 * exits: functions return -1 (or NULL) with errno set.
 */
#ifndef TRACE_TRACE_H
#define TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct trace_formats;

/*
 * A set of formats read from tracefs directory dir (NULL: the mounted
 * one, pc_tracefs_dir()); NULL with errno ENOMEM, or ENOENT / EACCES
 * when dir is NULL and no tracefs is mounted or readable.
 */
struct trace_formats *trace_formats_new(const char *dir);

/* Free tf and all it handed out.  NULL is fine. */
void trace_formats_free(struct trace_formats *tf);

/*
 * Read the format of tracepoint event ("SYS:NAME"), once: adding it
 * again does nothing.  Returns 0, or -1 with errno: EINVAL (not
 * SYS:NAME, or a part that is empty, "." or "..", or holds '/'), ENOENT
 * (no such tracepoint), EACCES, EBADMSG (a format libtraceevent cannot
 * parse: without its name, ID or format line, with a field it drops,
 * whose common_type is not a u16 at offset 0, or whose print fmt nests
 * brackets deeper than 64 or chains more than 4096 operators, which
 * libtraceevent's recursion would not survive), ENOMEM.
 */
int trace_formats_add(struct trace_formats *tf, const char *event);

/*
 * The fields of event (added before), common_* left out, in the
 * format's order: *n names in an array owned by tf, valid until
 * trace_formats_free().  NULL with errno ENOENT when event was not
 * added.
 */
const char *const *trace_formats_fields(const struct trace_formats *tf,
					const char *event, size_t *n);

enum trace_style {
	TRACE_PRETTY,	/* the print fmt's text */
	TRACE_RAW,	/* each field's content, as libtraceevent reads it */
};

/*
 * The text of record raw[0..size) into buf[bufsize] (bufsize > 0),
 * NUL-terminated and cut to fit: with TRACE_PRETTY what its print fmt
 * makes of it, with TRACE_RAW every field as "name=value", separated by
 * one space.  Returns the length written, or -1 with errno: ENOENT (its
 * common_type is no event added), EBADMSG (the record does not fit its
 * format), ENOMEM.
 */
int trace_record_text(struct trace_formats *tf, const void *raw, size_t size,
		      enum trace_style style, char *buf, size_t bufsize);

/*
 * One field of record raw[0..size) into buf[bufsize], as perf's
 * dynamic sort keys show it: with TRACE_PRETTY the value the print fmt
 * writes after " field=" when it writes one, else (and with TRACE_RAW)
 * the field's content.  Returns the length written, or -1 with errno
 * ENOENT (the record's event has no such field, or is no event added),
 * EBADMSG, ENOMEM.
 */
int trace_record_field(struct trace_formats *tf, const void *raw,
		       size_t size, const char *field, enum trace_style style,
		       char *buf, size_t bufsize);

/*
 * The "SYS:NAME" of a tracepoint as an event list names it, its
 * modifiers ("sched:sched_switch:u") left out, into buf[size].
 */
void trace_event_name(const char *spec, char *buf, size_t size);

/*
 * The name ("SYS:NAME") of the event added whose record raw[0..size)
 * is, or NULL with errno ENOENT (or EBADMSG: shorter than a u16).
 */
const char *trace_record_event(const struct trace_formats *tf,
			       const void *raw, size_t size);

#endif
