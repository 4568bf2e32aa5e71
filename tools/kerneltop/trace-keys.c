/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-keys.c - perf's tracepoint sort keys: -s trace (the record's
 * print fmt text), -s trace_fields (every field of every tracepoint
 * sampled, a column each) and a field by its name ("prev_comm",
 * "sched_switch.prev_comm", "sched:sched_switch.prev_comm").  With
 * --raw-trace the values are the fields' own, not the print fmt's.
 *
 * A row's key is the text of its columns, laid out here: the table
 * shows it under trace_head as it is.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "base/strbuf.h"
#include "trace/trace.h"
#include "util/die.h"
#include "frame.h"
#include "kt.h"
#include "options.h"
#include "trace-keys.h"

/* A field column's width at least: a comm's 15 */
#define FIELD_WIDTH 15

/* "SYS:NAME" of event i as the user wrote it, its modifiers left out. */
static void event_name(const struct kt *kt, unsigned i, char *buf,
		       size_t size)
{
	trace_event_name(kt->opt.sample.events.ev[i].name, buf, size);
}

/* Whether event i has field. */
static bool has_field(const struct kt *kt, unsigned i, const char *field)
{
	char name[64];
	const char *const *f;
	size_t n;

	event_name(kt, i, name, sizeof(name));
	f = trace_formats_fields(kt->trace, name, &n);
	for (size_t j = 0; f && j < n; j++)
		if (!strcmp(f[j], field))
			return true;
	return false;
}

static void col_add(struct kt *kt, int event, const char *field)
{
	struct kt_trace_col *c;

	if (kt->ntcols == KT_MAX_TRACE_COLS)
		usage_error("more than %d tracepoint columns: name the fields "
			    "with -s (e.g. -s prev_comm,next_comm)",
			    KT_MAX_TRACE_COLS);
	c = &kt->tcols[kt->ntcols++];
	c->event = event;
	c->field = field;
	c->width = field ? (int)strlen(field) : 0;
	if (field && c->width < FIELD_WIDTH)
		c->width = FIELD_WIDTH;
}

/* A field key: "FIELD" of any tracepoint sampled, or "[SYS:]NAME.FIELD"
   of that one. */
static void field_key(struct kt *kt, const char *key)
{
	const char *dot = strrchr(key, '.'), *field = dot ? dot + 1 : key;
	bool found = false;
	char name[64];

	for (unsigned i = 0; i < kt->nevents; i++) {
		if (kt->attrs[i].type != PERF_TYPE_TRACEPOINT)
			continue;
		if (dot) {
			const char *ev;
			size_t len = (size_t)(dot - key);

			event_name(kt, i, name, sizeof(name));
			ev = memchr(key, ':', len) ? name :
			     strchr(name, ':') + 1;
			if (strlen(ev) != len || strncmp(ev, key, len))
				continue;
		}
		if (!has_field(kt, i, field))
			continue;
		found = true;
		if (dot) {
			col_add(kt, (int)i, field);
			return;
		}
	}
	if (!found)
		usage_error("unknown sort key '%s': no tracepoint sampled has "
			    "that field (see -s trace_fields for them)", key);
	col_add(kt, -1, field);
}

void trace_keys_setup(struct kt *kt)
{
	const struct kt_options *o = &kt->opt;
	char name[64];
	size_t len = 0;
	unsigned i;
	bool any = false;

	if (!(o->keys & TOP_KEY_TRACE))
		return;
	kt->trace = trace_formats_new(NULL);
	if (!kt->trace)
		die("-s %s needs the tracepoints' formats: %s (mount tracefs: "
		    "mount -t tracefs nodev /sys/kernel/tracing)",
		    o->trace_keys[0], strerror(errno));
	for (i = 0; i < kt->nevents; i++) {
		if (kt->attrs[i].type != PERF_TYPE_TRACEPOINT)
			continue;
		event_name(kt, i, name, sizeof(name));
		if (trace_formats_add(kt->trace, name) != 0)
			die("cannot read the format of %s: %s", name,
			    errno == EBADMSG ? "libtraceevent cannot parse it" :
			    strerror(errno));
		any = true;
	}
	if (!any)
		usage_error("-s %s sorts tracepoint samples: sample one (-e "
			    "sched:sched_switch; see 'pcstat list tracepoint')",
			    o->trace_keys[0]);
	for (size_t k = 0; k < o->ntrace_keys; k++) {
		const char *key = o->trace_keys[k];

		if (!strcmp(key, "trace")) {
			col_add(kt, -1, NULL);
		} else if (!strcmp(key, "trace_fields")) {
			for (i = 0; i < kt->nevents; i++) {
				const char *const *f;
				size_t n;

				if (kt->attrs[i].type != PERF_TYPE_TRACEPOINT)
					continue;
				event_name(kt, i, name, sizeof(name));
				f = trace_formats_fields(kt->trace, name, &n);
				for (size_t j = 0; f && j < n; j++)
					col_add(kt, (int)i, f[j]);
			}
		} else {
			field_key(kt, key);
		}
	}
	/* the records come with the samples of every event (a counter
	   that is no tracepoint sends an empty one): one sample layout */
	for (i = 0; i < kt->nevents; i++)
		kt->attrs[i].sample_type |= PERF_SAMPLE_RAW;
	kt->trace_head[0] = '\0';
	for (size_t c = 0; c < kt->ntcols; c++) {
		const struct kt_trace_col *col = &kt->tcols[c];

		str_append(kt->trace_head, sizeof(kt->trace_head), &len,
			   "%s%-*s", c ? "  " : "",
			   c + 1 < kt->ntcols ? col->width : 0,
			   col->field ? col->field : "Trace output");
	}
}

const char *trace_keys_text(struct kt *kt, const struct pc_sample *s,
			    unsigned event, char *buf, size_t size)
{
	enum trace_style style = kt->opt.raw_trace ? TRACE_RAW : TRACE_PRETTY;
	bool tp = kt->attrs[event].type == PERF_TYPE_TRACEPOINT;
	char val[KT_LINE];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < kt->ntcols; c++) {
		const struct kt_trace_col *col = &kt->tcols[c];
		int r = -1;

		val[0] = '\0';
		/* a column of another event, or a sample of no tracepoint
		   (an event beside them): empty, as perf leaves it */
		if (tp && (col->event < 0 || col->event == (int)event))
			r = col->field ?
			    trace_record_field(kt->trace, s->raw, s->raw_size,
					       col->field, style, val,
					       sizeof(val)) :
			    trace_record_text(kt->trace, s->raw, s->raw_size,
					      style, val, sizeof(val));
		if (r < 0 && errno == EBADMSG)
			snprintf(val, sizeof(val), "[bad record]");
		str_append(buf, size, &len, "%s%-*s", c ? "  " : "",
			   c + 1 < kt->ntcols ? col->width : 0, val);
	}
	return buf;
}
