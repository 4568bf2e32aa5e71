/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c - one sample per line: text, the 2008 raw form, or JSON. */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "base/escape.h"
#include "monitor.h"
#include "util/die.h"
#include "util/esc-print.h"

static const char *basename_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/*
 * A line is built by hand in a local buffer and written with one
 * fwrite: printf's format interpretation was the largest cost per sample
 * (a quarter of monitor's CPU time at 20 kHz).
 */
struct line {
	char buf[4096];
	size_t len;
};

/*
 * Names come from files anyone may write (a JIT's /tmp/perf-PID.map, a
 * binary's symbol table): esc_visible() shows control and invalid bytes
 * as \xNN, so that a name can neither break the one-line-per-sample
 * format nor send escape sequences to the terminal.  64 bytes stay free
 * for the numbers and separators.
 */
static void put_str(struct line *l, const char *s)
{
	size_t room, n;

	if (l->len + 64 >= sizeof(l->buf))
		return;
	room = sizeof(l->buf) - 64 - l->len;
	n = esc_visible(l->buf + l->len, room, s);
	l->len += n < room ? n : strlen(l->buf + l->len);
}

static void put_char(struct line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
}

/* v in base 10 or 16 (lower case), right-aligned in width with pad
   (0: no padding). */
static void put_num(struct line *l, uint64_t v, unsigned base, int width,
		    char pad)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	while (width-- > n)
		put_char(l, pad);
	while (n)
		put_char(l, tmp[--n]);
}

/* v in decimal, right-aligned in width (0: no padding), zero-filled
   when zero is set. */
static void put_dec(struct line *l, uint64_t v, int width, bool zero)
{
	put_num(l, v, 10, width, zero ? '0' : ' ');
}

/* "0x" and v in lower-case hex, zero-filled to width digits. */
static void put_hex(struct line *l, uint64_t v, int width)
{
	put_str(l, "0x");
	put_num(l, v, 16, width, '0');
}

/*
 * With -g, one line per frame after the sample's line, leaf first, and
 * an empty line to close the stack:
 *	\tIP MODE SYMBOL+0xOFF DSO [FILE:LINE] [(inlined)] [(cause)]
 * MODE is k (kernel) or . (user), as perf top marks them.
 */
static void text_stack(FILE *out, const struct monitor_sample *s)
{
	unsigned i;

	for (i = 0; i < s->nframes; i++) {
		const struct stk_sample_frame *f = &s->frames[i];
		struct line l;

		l.len = 0;
		put_char(&l, '\t');
		put_hex(&l, f->ip, 16);
		put_char(&l, ' ');
		put_char(&l, f->mode);
		put_char(&l, ' ');
		if (f->sym) {
			put_str(&l, f->sym);
			if (!f->inlined) {
				put_char(&l, '+');
				put_hex(&l, f->off, 0);
			}
		} else {
			put_str(&l, basename_of(f->dso));
			put_char(&l, '+');
			put_hex(&l, f->dso_off, 0);
		}
		put_char(&l, ' ');
		put_str(&l, f->dso);
		if (f->file) {
			put_char(&l, ' ');
			put_str(&l, basename_of(f->file));
			put_char(&l, ':');
			put_dec(&l, (uint64_t)(f->line < 0 ? 0 : f->line), 0,
				false);
		}
		if (f->inlined)
			put_str(&l, " (inlined)");
		if (!f->sym) {
			put_str(&l, " (");
			put_str(&l, symbols_cause_name(f->cause));
			put_char(&l, ')');
		}
		put_char(&l, '\n');
		fwrite(l.buf, 1, l.len, out);
	}
	fputc('\n', out);
}

/*
 * TIME TID CPU [EVENT] IP SYMBOL+0xOFF DSO [FILE:LINE] [inlined F <- G]
 * (EVENT with several events)
 * An unresolved symbol is "[unknown]" or, inside a known file,
 * "file+0xOFFSET" (the file's own address, as nm and addr2line count).
 */
static void text_sample(FILE *out, const struct monitor_sample *s)
{
	const struct sym_result *r = s->sym;
	struct line l;
	unsigned i;

	l.len = 0;
	put_dec(&l, s->time / 1000000000, 0, false);
	put_char(&l, '.');
	put_dec(&l, s->time % 1000000000 / 1000, 6, true);
	put_char(&l, ' ');
	put_dec(&l, s->tid, 6, false);
	put_char(&l, ' ');
	if (s->has_cpu)
		put_dec(&l, s->cpu, 3, false);
	else
		put_str(&l, "  -");
	put_char(&l, ' ');
	if (s->event_field) {
		put_str(&l, s->event);
		put_char(&l, ' ');
	}
	put_hex(&l, s->ip, 16);
	put_char(&l, ' ');
	if (r->sym) {
		put_str(&l, r->sym);
		put_char(&l, '+');
		put_hex(&l, r->off, 0);
	} else if (r->dso && r->dso[0] != '[') {
		put_str(&l, basename_of(r->dso));
		put_char(&l, '+');
		put_hex(&l, r->dso_off, 0);
	} else {
		put_str(&l, "[unknown]");
	}
	put_char(&l, ' ');
	put_str(&l, r->dso ? r->dso : "[unknown]");
	if (r->file) {
		put_char(&l, ' ');
		put_str(&l, basename_of(r->file));
		put_char(&l, ':');
		put_dec(&l, (uint64_t)(r->line < 0 ? 0 : r->line), 0, false);
	}
	if (r->n_inline > 1) {
		put_str(&l, " [inlined");
		for (i = 0; i + 1 < r->n_inline; i++) {
			put_str(&l, i ? " <- " : " ");
			put_str(&l, r->inl[i].func ? r->inl[i].func : "?");
		}
		put_char(&l, ']');
	}
	put_char(&l, '\n');
	fwrite(l.buf, 1, l.len, out);
	if (s->frames)
		text_stack(out, s);
}

/* v in hex without "0x", space-padded to width (printf's %16lx). */
static void put_hex_pad(struct line *l, uint64_t v, int width)
{
	put_num(l, v, 16, width, ' ');
}

/* s right-aligned in width, as printf's %*s. */
static void put_str_right(struct line *l, const char *s, size_t width)
{
	size_t n = strlen(s);

	while (width-- > n)
		put_char(l, ' ');
	put_str(l, s);
}

/* " SYM[+0xOFF] (DSO)" as perf script ends a line, each part if asked. */
static void script_sym(struct line *l, unsigned fields, const char *sym,
		       uint64_t off, const char *dso)
{
	if (fields & SF_SYM) {
		put_char(l, ' ');
		put_str(l, sym ? sym : "[unknown]");
		if (sym && (fields & SF_SYMOFF)) {
			put_str(l, "+0x");
			put_hex_pad(l, off, 0);
		}
	}
	if (fields & SF_DSO) {
		put_str(l, " (");
		put_str(l, dso ? dso : "[unknown]");
		put_char(l, ')');
	}
}

/*
 * perf script's sample line (perf 6.1, builtin-script.c), byte for byte,
 * its fields in perf's order whatever the order asked:
 *	%16s %5d/%-5d [%03d] %12s: %10lu %*s:  %16lx SYM+0xOFF (DSO)
 * COMM, PID/TID (or either alone: %5d), [CPU], TIME (s.us), PERIOD,
 * EVENT as wide as the longest name, then a space and the IP, SYM
 * (+0xOFF with symoff) and (DSO).  By default (no --fields), the CPU
 * only for CPU-wide counters, as perf record of a command records none.
 * With a chain (and the ip field), COMM is not padded, the line ends
 * after the event and each frame follows as "\t%16lx SYM+0xOFF (DSO)",
 * the ip within its file (perf's map-relative address), then an empty
 * line.  Inlined frames are left out, as perf script leaves them
 * without --inline.
 */
static void script_sample(FILE *out, const struct monitor_sample *s)
{
	const struct sym_result *r = s->sym;
	const char *comm = s->comm ? s->comm : ":-1";
	unsigned f = s->script_fields;
	bool chain = s->frames && (f & SF_IP);
	struct line l;
	unsigned i;

	l.len = 0;
	if ((f & SF_COMM) && chain) {
		put_str(&l, comm);
		put_char(&l, ' ');
	} else if (f & SF_COMM) {
		put_str_right(&l, comm, 16);
		put_char(&l, ' ');
	}
	if ((f & SF_PID) && (f & SF_TID)) {
		put_dec(&l, s->pid, 5, false);
		put_char(&l, '/');
		{
			size_t at = l.len;

			put_dec(&l, s->tid, 0, false);
			while (l.len - at < 5)	/* %-5d */
				put_char(&l, ' ');
		}
		put_char(&l, ' ');
	} else if (f & (SF_PID | SF_TID)) {
		put_dec(&l, (f & SF_PID) ? s->pid : s->tid, 5, false);
		put_char(&l, ' ');
	}
	if (f & SF_CPU) {
		put_char(&l, '[');
		put_dec(&l, s->cpu, 3, true);
		put_str(&l, "] ");
	}
	if (f & SF_TIME) {
		struct line t;

		t.len = 0;
		put_dec(&t, s->time / 1000000000, 0, false);
		put_char(&t, '.');
		put_dec(&t, s->time % 1000000000 / 1000, 6, true);
		t.buf[t.len] = '\0';
		put_str_right(&l, t.buf, 12);
		put_str(&l, ": ");
	}
	if (f & SF_PERIOD) {
		put_dec(&l, s->period, 10, false);
		put_char(&l, ' ');
	}
	if (f & SF_EVENT) {
		put_str_right(&l, s->event, s->event_width);
		put_str(&l, ": ");
	}
	if ((f & SF_TRACE) && s->trace)
		put_str(&l, s->trace);
	if (!(f & SF_IP)) {
		put_char(&l, '\n');
		fwrite(l.buf, 1, l.len, out);
		return;
	}
	if (!chain) {
		put_char(&l, ' ');	/* perf's separator before the ip */
		put_hex_pad(&l, s->ip, 16);
		script_sym(&l, f, r->sym, r->off, r->dso);
		put_char(&l, '\n');
		fwrite(l.buf, 1, l.len, out);
		return;
	}
	put_char(&l, '\n');
	fwrite(l.buf, 1, l.len, out);
	for (i = 0; i < s->nframes; i++) {
		const struct stk_sample_frame *fr = &s->frames[i];

		if (fr->inlined)
			continue;
		l.len = 0;
		put_char(&l, '\t');
		put_hex_pad(&l, fr->dso_off, 16);
		script_sym(&l, f, fr->sym, fr->off, fr->dso);
		put_char(&l, '\n');
		fwrite(l.buf, 1, l.len, out);
	}
	fputc('\n', out);
}

/* perf script's field names, for --fields. */
static const struct {
	const char *name;
	unsigned bit;
} script_field_names[] = {
	{ "comm", SF_COMM }, { "pid", SF_PID }, { "tid", SF_TID },
	{ "cpu", SF_CPU }, { "time", SF_TIME }, { "period", SF_PERIOD },
	{ "event", SF_EVENT }, { "ip", SF_IP }, { "sym", SF_SYM },
	{ "symoff", SF_SYMOFF }, { "dso", SF_DSO }, { "trace", SF_TRACE },
};

unsigned script_fields_parse(const char *arg)
{
	const size_t n = sizeof(script_field_names) /
			 sizeof(script_field_names[0]);
	const char *p = strchr(arg, ':');
	unsigned mask = 0, bit;
	char word[32];
	int sign = 0;
	size_t i, len;

	/* perf's "TYPE:fields": every event is one type here */
	p = p ? p + 1 : arg;
	if (*p == '+' || *p == '-')	/* perf's +f/-f: from the default */
		mask = SF_DEFAULT;
	while (*p) {
		if (*p == '+' || *p == '-')
			sign = *p++ == '+' ? 1 : -1;
		len = strcspn(p, ",");
		if (len == 0 || len >= sizeof(word))
			usage_error("--fields wants perf script's field names "
				    "(comm,tid,time,...), not '%s'", arg);
		memcpy(word, p, len);
		word[len] = '\0';
		for (i = 0; i < n; i++)
			if (strcmp(word, script_field_names[i].name) == 0)
				break;
		if (i == n)
			usage_error("--fields: '%s' is not a field monitor "
				    "prints (comm, pid, tid, cpu, time, period, "
				    "event, ip, sym, symoff, dso, trace)",
				    word);
		bit = script_field_names[i].bit;
		mask = sign < 0 ? mask & ~bit : mask | bit;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!mask)
		usage_error("--fields wants at least one field, not '%s'", arg);
	if ((mask & (SF_SYM | SF_SYMOFF | SF_DSO)) && !(mask & SF_IP))
		usage_error("--fields: sym, symoff and dso need ip (add it), "
			    "as in perf script");
	return mask;
}

/* The 2008 demo's line. */
static void raw_sample(FILE *out, const struct monitor_sample *s)
{
	if (s->event_field)
		fprintf(out, "IP: 0x%016" PRIx64 " %s\n", s->ip, s->event);
	else
		fprintf(out, "IP: 0x%016" PRIx64 "\n", s->ip);
}

/* A JSON string, or null; valid UTF-8 whatever the bytes of str. */
static void json_string(FILE *out, const char *str)
{
	if (!str) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	esc_print_json(out, str);
	fputc('"', out);
}

/* ,"stack":[{frame},...], leaf first. */
static void json_stack(FILE *out, const struct monitor_sample *s)
{
	unsigned i;

	fputs(",\"stack\":[", out);
	for (i = 0; i < s->nframes; i++) {
		const struct stk_sample_frame *f = &s->frames[i];

		fprintf(out, "%s{\"ip\":\"0x%" PRIx64 "\",\"kernel\":%s,"
			"\"sym\":", i ? "," : "", f->ip,
			f->mode == 'k' ? "true" : "false");
		json_string(out, f->sym);
		fprintf(out, ",\"off\":%" PRIu64 ",\"dso\":", f->off);
		json_string(out, f->dso);
		fprintf(out, ",\"dso_off\":%" PRIu64 ",\"file\":",
			f->dso_off);
		json_string(out, f->file);
		fprintf(out, ",\"line\":%d,\"inlined\":%s,\"cause\":",
			f->line, f->inlined ? "true" : "false");
		json_string(out, symbols_cause_name(f->cause));
		fputc('}', out);
	}
	fputc(']', out);
}

static void json_sample(FILE *out, const struct monitor_sample *s)
{
	const struct sym_result *r = s->sym;
	unsigned i;

	fprintf(out, "{\"time\":%" PRIu64 ",\"pid\":%" PRIu32
		",\"tid\":%" PRIu32 ",", s->time, s->pid, s->tid);
	if (s->has_cpu)
		fprintf(out, "\"cpu\":%" PRIu32 ",", s->cpu);
	else
		fputs("\"cpu\":null,", out);
	fputs("\"event\":", out);
	json_string(out, s->event);
	fprintf(out, ",\"ip\":\"0x%" PRIx64 "\",\"kernel\":%s,\"sym\":", s->ip,
		r->kernel ? "true" : "false");
	json_string(out, r->sym);
	fprintf(out, ",\"off\":%" PRIu64 ",\"dso\":", r->off);
	json_string(out, r->dso);
	fprintf(out, ",\"dso_off\":%" PRIu64 ",\"file\":", r->dso_off);
	json_string(out, r->file);
	fprintf(out, ",\"line\":%d,\"cause\":", r->line);
	json_string(out, symbols_cause_name(r->cause));
	fputs(",\"inlined\":[", out);
	for (i = 0; i < r->n_inline; i++) {
		fputs(i ? ",{\"func\":" : "{\"func\":", out);
		json_string(out, r->inl[i].func);
		fputs(",\"file\":", out);
		json_string(out, r->inl[i].file);
		fprintf(out, ",\"line\":%d}", r->inl[i].line);
	}
	fputc(']', out);
	if (s->frames)
		json_stack(out, s);
	fputs("}\n", out);
}

static void none_sample(FILE *out, const struct monitor_sample *s)
{
	(void)out;
	(void)s;
}

static const struct monitor_output outputs[] = {
	[FORMAT_TEXT] = { "text", text_sample },
	[FORMAT_RAW] = { "raw", raw_sample },
	[FORMAT_JSON] = { "json", json_sample },
	[FORMAT_SCRIPT] = { "script", script_sample },
	[FORMAT_NONE] = { "summary", none_sample },
};

const struct monitor_output *output_for(enum monitor_format fmt)
{
	return &outputs[fmt];
}
