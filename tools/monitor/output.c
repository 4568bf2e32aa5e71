/* output.c - one sample per line: text, the 2008 raw form, or JSON. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "monitor.h"

static const char *basename_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/*
 * TIME TID CPU IP SYMBOL+0xOFF DSO [FILE:LINE] [inlined F <- G]
 * An unresolved symbol is "[unknown]" or, inside a known file,
 * "file+0xOFFSET" (the file's own address, as nm and addr2line count).
 */
static void text_sample(FILE *out, const struct monitor_sample *s)
{
	const struct sym_result *r = s->sym;
	unsigned i;

	fprintf(out, "%" PRIu64 ".%06" PRIu64 " %6" PRIu32 " ",
		s->time / 1000000000, s->time % 1000000000 / 1000, s->tid);
	if (s->has_cpu)
		fprintf(out, "%3" PRIu32 " ", s->cpu);
	else
		fputs("  - ", out);
	fprintf(out, "0x%016" PRIx64 " ", s->ip);
	if (r->sym)
		fprintf(out, "%s+0x%" PRIx64, r->sym, r->off);
	else if (r->dso && r->dso[0] != '[')
		fprintf(out, "%s+0x%" PRIx64, basename_of(r->dso), r->dso_off);
	else
		fputs("[unknown]", out);
	fprintf(out, " %s", r->dso ? r->dso : "[unknown]");
	if (r->file)
		fprintf(out, " %s:%d", basename_of(r->file), r->line);
	if (r->n_inline > 1) {
		fputs(" [inlined", out);
		for (i = 0; i + 1 < r->n_inline; i++)
			fprintf(out, "%s %s", i ? " <-" : "",
				r->inl[i].func ? r->inl[i].func : "?");
		fputc(']', out);
	}
	fputc('\n', out);
}

/* The 2008 demo's line. */
static void raw_sample(FILE *out, const struct monitor_sample *s)
{
	fprintf(out, "IP: 0x%016" PRIx64 "\n", s->ip);
}

static void json_string(FILE *out, const char *str)
{
	const unsigned char *p;

	if (!str) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (p = (const unsigned char *)str; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
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
	fprintf(out, "\"ip\":\"0x%" PRIx64 "\",\"kernel\":%s,\"sym\":", s->ip,
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
	fputs("]}\n", out);
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
	[FORMAT_NONE] = { "summary", none_sample },
};

const struct monitor_output *output_for(enum monitor_format fmt)
{
	return &outputs[fmt];
}
