/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c - one sample per line: text, the 2008 raw form, or JSON. */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "base/escape.h"
#include "monitor.h"
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

/* v in decimal, right-aligned in width (0: no padding), zero-filled
   when zero is set. */
static void put_dec(struct line *l, uint64_t v, int width, bool zero)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (width-- > n)
		put_char(l, zero ? '0' : ' ');
	while (n)
		put_char(l, tmp[--n]);
}

/* "0x" and v in lower-case hex, zero-filled to width digits. */
static void put_hex(struct line *l, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	put_str(l, "0x");
	while (width-- > n)
		put_char(l, '0');
	while (n)
		put_char(l, tmp[--n]);
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
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (width-- > n)
		put_char(l, ' ');
	while (n)
		put_char(l, tmp[--n]);
}

/* s right-aligned in width, as printf's %*s. */
static void put_str_right(struct line *l, const char *s, size_t width)
{
	size_t n = strlen(s);

	while (width-- > n)
		put_char(l, ' ');
	put_str(l, s);
}

/* " SYM+0xOFF (DSO)" or " [unknown] (DSO)", as perf script ends a line. */
static void script_sym(struct line *l, const char *sym, uint64_t off,
		       const char *dso)
{
	put_char(l, ' ');
	if (sym) {
		put_str(l, sym);
		put_str(l, "+0x");
		put_hex_pad(l, off, 0);
	} else {
		put_str(l, "[unknown]");
	}
	put_str(l, " (");
	put_str(l, dso ? dso : "[unknown]");
	put_char(l, ')');
}

/*
 * perf script's default sample line (perf 6.1, builtin-script.c), byte
 * for byte:
 *	%16s %5d [%03d] %12s: %10lu %*s:  %16lx SYM+0xOFF (DSO)
 * COMM, TID, [CPU] only for CPU-wide counters (perf record of a command
 * has no PERF_SAMPLE_CPU), TIME (s.us), PERIOD, EVENT as wide as the
 * longest name.  With a chain, COMM is not padded, the line ends after
 * the event and each frame follows as "	%16lx SYM+0xOFF (DSO)", the ip
 * within its file (perf's map-relative address), then an empty line.
 * Inlined frames are left out, as perf script leaves them without
 * --inline.
 */
static void script_sample(FILE *out, const struct monitor_sample *s)
{
	const struct sym_result *r = s->sym;
	const char *comm = s->comm ? s->comm : ":-1";
	struct line l;
	unsigned i;

	l.len = 0;
	if (s->frames)
		put_str(&l, comm);
	else
		put_str_right(&l, comm, 16);
	put_char(&l, ' ');
	put_dec(&l, s->tid, 5, false);
	put_char(&l, ' ');
	if (s->cpu_field) {
		put_char(&l, '[');
		put_dec(&l, s->cpu, 3, true);
		put_str(&l, "] ");
	}
	{
		struct line t;

		t.len = 0;
		put_dec(&t, s->time / 1000000000, 0, false);
		put_char(&t, '.');
		put_dec(&t, s->time % 1000000000 / 1000, 6, true);
		t.buf[t.len] = '\0';
		put_str_right(&l, t.buf, 12);
	}
	put_str(&l, ": ");
	put_dec(&l, s->period, 10, false);
	put_char(&l, ' ');
	put_str_right(&l, s->event, s->event_width);
	put_str(&l, ": ");
	if (!s->frames) {
		put_char(&l, ' ');	/* perf's separator before the ip */
		put_hex_pad(&l, s->ip, 16);
		script_sym(&l, r->sym, r->off, r->dso);
		put_char(&l, '\n');
		fwrite(l.buf, 1, l.len, out);
		return;
	}
	put_char(&l, '\n');
	fwrite(l.buf, 1, l.len, out);
	for (i = 0; i < s->nframes; i++) {
		const struct stk_sample_frame *f = &s->frames[i];

		if (f->inlined)
			continue;
		l.len = 0;
		put_char(&l, '\t');
		put_hex_pad(&l, f->dso_off, 16);
		script_sym(&l, f->sym, f->off, f->dso);
		put_char(&l, '\n');
		fwrite(l.buf, 1, l.len, out);
	}
	fputc('\n', out);
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
